/**
 * NumPy's .npz archive, written without NumPy: a zip of .npy files (format 1.0, little-endian,
 * C order), each entry deflated. `numpy.load(path)` reads it as a dict of arrays; PyTorch users
 * take `torch.from_numpy(...)` from there. Entries are stored with sizes in their local headers
 * (no data descriptors, no zip64), so one archive holds at most 4 GiB.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';

// zlib's thread pool deflates: an archive of a few hundred MB does not hold up the event loop.
const deflate = promisify(deflateRaw);

export interface NpyArray {
  name: string;
  /** NumPy's type code without the byte order: u1, i2, i4, f4 (all little-endian here). */
  dtype: 'u1' | 'i2' | 'i4' | 'f4';
  shape: readonly number[];
  data: ArrayBufferView;
}

/** One .npy file: magic, version 1.0, a header dict padded to 64 bytes, then the data. */
export function npy(a: NpyArray): Buffer {
  const count = a.shape.reduce((x, y) => x * y, 1);
  const bytesPer = Number(a.dtype.slice(1));
  if (a.data.byteLength !== count * bytesPer) throw new Error(`${a.name}: ${a.data.byteLength} bytes for shape [${a.shape.join(', ')}] of ${a.dtype}`);
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
  // Typed arrays are little-endian on every platform Node runs on that we deploy to (x86, arm64).
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength)]);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The archive of `arrays` (entry names `<name>.npy`), as one buffer. */
export async function npz(arrays: readonly NpyArray[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const a of arrays) {
    const raw = npy(a);
    const packed = await deflate(raw, { level: 6 });
    const name = Buffer.from(`${a.name}.npy`, 'utf8');
    const crc = crc32(raw);
    if (raw.length >= 0xffffffff || offset >= 0xffffffff) throw new Error(`npz: ${a.name} passes 4 GiB; export fewer rows at a time`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10); // time and date: none (the archive is the same for the same rows)
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(0, 12);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(raw.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    parts.push(local, name, packed);
    offset += local.length + name.length + packed.length;
  }
  const centralBytes = central.reduce((x, b) => x + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(arrays.length, 8);
  end.writeUInt16LE(arrays.length, 10);
  end.writeUInt32LE(centralBytes, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
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
