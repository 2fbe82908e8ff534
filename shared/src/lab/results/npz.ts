/**
 * NumPy's .npz archive, written without NumPy: a zip of .npy files (format 1.0, little-endian,
 * C order), each entry deflated. `numpy.load(path)` reads it as a dict of arrays; PyTorch users
 * take `torch.from_numpy(...)` from there.
 *
 * The archive is written as a stream (NpzWriter): each entry's bytes are deflated as they come and
 * its CRC and sizes follow it in a data descriptor, so that an archive of any size passes through a
 * few chunks of memory. No zip64: one archive holds at most 4 GiB.
 */
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 as zlibCrc32, createDeflateRaw, inflateRawSync } from 'node:zlib';

export interface NpyArray {
  name: string;
  /** NumPy's type code without the byte order: u1, i2, i4, f4 (all little-endian here). */
  dtype: 'u1' | 'i2' | 'i4' | 'f4';
  shape: readonly number[];
  data: ArrayBufferView;
}

/** An .npy file's type and shape, its data to come. */
export type NpyHeader = Omit<NpyArray, 'data'>;

/** The bytes an .npy file's data takes. */
export function npyDataBytes(a: NpyHeader): number {
  return a.shape.reduce((x, y) => x * y, 1) * Number(a.dtype.slice(1));
}

/** The start of an .npy file: magic, version 1.0, a header dict padded to 64 bytes. */
export function npyHeader(a: NpyHeader): Buffer {
  const byteOrder = a.dtype === 'u1' ? '|' : '<';
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  let header = `{'descr': '${byteOrder}${a.dtype}', 'fortran_order': False, 'shape': ${shape}, }`;
  // Magic (6) + version (2) + header length (2) + header + '\n', a multiple of 64.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, ' ') + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1')]);
}

// Typed arrays are little-endian on every platform Node runs on that we deploy to (x86, arm64).
const bytesOf = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** zlib's CRC-32 (the zip's), of data or continuing from `previous`. */
export function crc32(data: Uint8Array, previous = 0): number {
  return zlibCrc32(data, previous);
}

const ZIP_LIMIT = 0xffffffff;
/** General-purpose flags: sizes and CRC in a data descriptor after the data (bit 3), UTF-8 names (bit 11). */
const FLAGS = 0x0808;

/**
 * Writes an .npz archive to `out` entry by entry, each entry's data from an iterable of chunks,
 * honouring the stream's backpressure. The same rows give the same bytes (no times are written).
 */
export class NpzWriter {
  private offset = 0;
  private readonly central: Buffer[] = [];
  private entries = 0;

  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    const closed = () => new Error('npz: the output closed before the archive was written');
    if (this.out.destroyed) throw closed();
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await this.drained();
    if (this.out.destroyed) throw closed();
  }

  /** Until the output drains or closes; its listeners removed either way (an archive waits many times). */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }

  /** Adds `<header.name>.npy`, its data the concatenation of `chunks` (checked against its shape). */
  async entry(header: NpyHeader, chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
    const name = Buffer.from(`${header.name}.npy`, 'utf8');
    const start = this.offset;
    if (start >= ZIP_LIMIT) throw new Error(`npz: the archive passes 4 GiB before ${header.name}; export fewer rows at a time`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(8, 8); // deflate
    // Time and date (10), CRC and sizes (14–25): none here, the descriptor after the data has them.
    local.writeUInt16LE(name.length, 26);
    await this.write(Buffer.concat([local, name]));

    // Data → CRC and raw size → deflate → packed size → the output (left open for the next entry).
    // pipeline() ends every stage when one fails or the output closes (a client that hangs up).
    let crc = 0;
    let raw = 0;
    let packed = 0;
    const expected = npyDataBytes(header);
    const data = async function* () {
      yield npyHeader(header);
      let bytes = 0;
      for await (const chunk of chunks) {
        bytes += chunk.byteLength;
        yield chunk;
      }
      if (bytes !== expected) throw new Error(`npz: ${header.name}: ${bytes} bytes of data for shape [${header.shape.join(', ')}] of ${header.dtype}`);
    };
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        crc = crc32(chunk, crc);
        raw += chunk.length;
        done(raw >= ZIP_LIMIT ? new Error(`npz: ${header.name} passes 4 GiB; export fewer rows at a time`) : null, chunk);
      },
    });
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        packed += chunk.length;
        done(null, chunk);
      },
    });
    // The last stage writes through this.write (offset, backpressure, a closed output), not into
    // the output itself: a pipeline into it per entry would leave its listeners there, a dozen an archive.
    const forward = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.write(chunk).then(() => done(), done);
      },
    });
    await pipeline(Readable.from(data()), measure, createDeflateRaw({ level: 6 }), count, forward);

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(packed, 8);
    descriptor.writeUInt32LE(raw, 12);
    await this.write(descriptor);

    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(FLAGS, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed, 20);
    entry.writeUInt32LE(raw, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(start, 42);
    this.central.push(entry, name);
    this.entries++;
  }

  /** Writes the central directory: the archive is complete (the output is left open). */
  async finish(): Promise<void> {
    const at = this.offset;
    const centralBytes = Buffer.concat(this.central);
    if (at + centralBytes.length >= ZIP_LIMIT) throw new Error('npz: the archive passes 4 GiB; export fewer rows at a time');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries, 8);
    end.writeUInt16LE(this.entries, 10);
    end.writeUInt32LE(centralBytes.length, 12);
    end.writeUInt32LE(at, 16);
    await this.write(Buffer.concat([centralBytes, end]));
  }
}

/** The archive of `arrays` (entry names `<name>.npy`), as one buffer: for arrays already in memory. */
export async function npz(arrays: readonly NpyArray[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  const writer = new NpzWriter(sink);
  for (const a of arrays) {
    if (a.data.byteLength !== npyDataBytes(a)) throw new Error(`${a.name}: ${a.data.byteLength} bytes for shape [${a.shape.join(', ')}] of ${a.dtype}`);
    await writer.entry(a, [bytesOf(a.data)]);
  }
  await writer.finish();
  return Buffer.concat(parts);
}

/**
 * The arrays of an .npz archive (this module's, or NumPy's own `savez`/`savez_compressed` of the
 * dtypes above), by name without `.npy`. For tests and tools; reads the central directory, so
 * archives with data descriptors read too.
 */
export function readNpz(zip: Buffer): Map<string, NpyArray> {
  const out = new Map<string, NpyArray>();
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('npz: no end of central directory');
  const entries = zip.readUInt16LE(endAt + 10);
  let at = zip.readUInt32LE(endAt + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('npz: bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const packedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const packed = zip.subarray(dataAt, dataAt + packedSize);
    if (method !== 0 && method !== 8) throw new Error(`npz: ${name} is packed with method ${method}`);
    out.set(name.replace(/\.npy$/, ''), parseNpy(name, method === 8 ? inflateRawSync(packed) : packed));
  }
  return out;
}

function parseNpy(name: string, raw: Buffer): NpyArray {
  if (raw.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`npz: ${name} is not an .npy file`);
  const headerLength = raw[6] === 1 ? raw.readUInt16LE(8) : raw.readUInt32LE(8);
  const start = raw[6] === 1 ? 10 : 12;
  const header = raw.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([<|])([uif][1248])'/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shape || /'fortran_order':\s*True/.test(header)) throw new Error(`npz: ${name} has a header this reader does not take: ${header.trim()}`);
  const dtype = descr[2] as NpyArray['dtype'];
  const bytes = raw.subarray(start + headerLength);
  const copy = new Uint8Array(bytes).buffer;
  const views = { u1: Uint8Array, i2: Int16Array, i4: Int32Array, f4: Float32Array } as const;
  const View = views[dtype];
  if (!View) throw new Error(`npz: ${name} has dtype ${dtype}`);
  return { name: name.replace(/\.npy$/, ''), dtype, shape: shape[1].split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number), data: new View(copy) };
}
