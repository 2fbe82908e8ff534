/**
 * Training rows (training-rows.ts) as an .npz archive (npz.ts): one array per column, and
 * `meta_json` (UTF-8 JSON bytes) describing them.
 *
 * A page of a sweep's games is written through a TrainingSpool: the rows are made a few games at a
 * time, each column's rows appended to a file of its own in a private temporary folder, and the
 * archive is then streamed from those files. Memory is a few games' rows whatever the page's size
 * (one 2,000-game page is about 300 MB of rows at 3 players); disk holds the page once, until the
 * spool is closed.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { ACTION_COUNT, SEAT_FIELDS, observationSize } from '../../agents/encoding.js';
import type { MoveLog } from '../../engine/index.js';
import { NpzWriter, npz, type NpyArray, type NpyHeader } from './npz.js';
import { TrainingRows, type SeatChoice, type TrainingColumn } from './training-rows.js';

/**
 * The archive's `meta_json`: the caller's facts, then the shapes every reader needs. The seat
 * blocks' place (`seatsAt`, `seatFields`: the observation's last players × seatFields bytes, one
 * block per seat) lets a trainer treat every seat alike without a copy of the encoding.
 */
function metaBytes(players: number, rows: number, meta: Record<string, unknown>): Buffer {
  const observation = observationSize(players);
  return Buffer.from(
    JSON.stringify({ ...meta, players, rows, observationSize: observation, seatsAt: observation - players * SEAT_FIELDS, seatFields: SEAT_FIELDS, actions: ACTION_COUNT }),
  );
}

const header = (c: Pick<TrainingColumn, 'name' | 'dtype' | 'width'>, rows: number): NpyHeader => ({ name: c.name, dtype: c.dtype, shape: c.width === 1 ? [rows] : [rows, c.width] });

const metaArray = (json: Buffer): NpyArray => ({ name: 'meta_json', dtype: 'u1', shape: [json.length], data: json });

/** Rows already in memory as one archive. */
export async function trainingArchive(rows: TrainingRows, meta: Record<string, unknown>): Promise<Buffer> {
  const arrays: NpyArray[] = rows.columns().map((c) => ({ ...header(c, rows.rows), data: c.data }));
  arrays.push(metaArray(metaBytes(rows.players, rows.rows, meta)));
  return npz(arrays);
}

/** Games whose rows are held in memory before they go to the spool's files. */
const GAMES_PER_FLUSH = 25;

/**
 * The rows of a page of games, spooled to disk column by column. `create`, then `addGame` for
 * each game (flushing now and then), then `writeArchive`; `close` (always) removes the files.
 */
export class TrainingSpool {
  rows = 0;
  private readonly chunk: TrainingRows;
  private pending = 0;

  private constructor(
    readonly players: number,
    private readonly dir: string,
    private readonly files: Map<string, FileHandle>,
    private readonly layout: Pick<TrainingColumn, 'name' | 'dtype' | 'width'>[],
  ) {
    this.chunk = new TrainingRows(players);
  }

  static async create(players: number, parent = tmpdir()): Promise<TrainingSpool> {
    const dir = await mkdtemp(join(parent, 'wonderlab-training-'));
    const layout = new TrainingRows(players).columns().map(({ name, dtype, width }) => ({ name, dtype, width }));
    const files = new Map<string, FileHandle>();
    try {
      for (const c of layout) files.set(c.name, await open(join(dir, `${c.name}.bin`), 'w+'));
    } catch (err) {
      await Promise.all([...files.values()].map((f) => f.close()));
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    return new TrainingSpool(players, dir, files, layout);
  }

  /** Adds one logged game's rows (TrainingRows.addGame: all its rows or, when it throws, none). */
  addGame(log: MoveLog, game: number, chosen: SeatChoice): void {
    this.chunk.addGame(log, game, chosen);
    this.pending++;
  }

  /** Whether enough games wait in memory to be flushed. */
  get full(): boolean {
    return this.pending >= GAMES_PER_FLUSH;
  }

  /** Appends the rows in memory to the columns' files. */
  async flush(): Promise<void> {
    for (const c of this.chunk.columns()) {
      const bytes = new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength);
      await this.files.get(c.name)!.write(bytes);
    }
    this.rows += this.chunk.rows;
    this.chunk.clear();
    this.pending = 0;
  }

  /** The archive of every row added, streamed to `out` (left open). */
  async writeArchive(out: Writable, meta: Record<string, unknown>): Promise<void> {
    await this.flush();
    const writer = new NpzWriter(out);
    for (const c of this.layout) {
      await writer.entry(header(c, this.rows), createReadStream(join(this.dir, `${c.name}.bin`), { highWaterMark: 1 << 20 }));
    }
    const json = metaBytes(this.players, this.rows, meta);
    await writer.entry(metaArray(json), [json]);
    await writer.finish();
  }

  /** Removes the spool's files. */
  async close(): Promise<void> {
    await Promise.all([...this.files.values()].map((f) => f.close().catch(() => undefined)));
    await rm(this.dir, { recursive: true, force: true });
  }
}
