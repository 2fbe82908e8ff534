/**
 * How results and records are stored. A summary is deflated JSON: a 3-player one shrinks from
 * about 1.7 KB to about 0.75 KB, which is what a million-game sweep's Redis has to hold. A record
 * is stored as its game's move log (packLog): about a fifth of the deflated JSON record it
 * replaced, and a hundredth of its cost to write; reading it replays the game. Its own module so
 * that the bench measures a record's stored size with the store's own code.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { recordFromLog, type GameRecord, type LoggedSearch, type MoveLog } from '../engine/index.js';
import { gameIncrements, pairedShare, type GamePlacement } from '../lab/aggregates.js';
import type { GameSummary } from '../lab/game.js';
import type { PackedGame } from '../lab/game-pool.js';

export function pack(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value));
}

export function unpack(blob: Buffer): unknown {
  return JSON.parse(inflateRawSync(blob).toString('utf8'));
}

/**
 * First byte of a packed log. Read as the start of a raw deflate stream it would announce block
 * type 3, which does not exist, so a log is never mistaken for the deflated JSON records stored
 * before logs were.
 */
const LOG_MAGIC = 0x57;
const LOG_FORMAT = 1;

/**
 * A move log as bytes: magic, format, the config's JSON, the move codes as unsigned varints, and
 * the searches (when any) as deflated JSON to the end. Logs of cheap games are a few hundred bytes
 * and skip zlib altogether.
 */
export function packLog(log: MoveLog): Buffer {
  const config = Buffer.from(JSON.stringify(log.config));
  const searches = log.searches.length > 0 ? pack(log.searches) : undefined;
  const out = Buffer.allocUnsafe(2 + 5 + config.length + 5 + 4 * log.moves.length + (searches?.length ?? 0));
  let at = 0;
  const varint = (value: number) => {
    let v = value >>> 0;
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[at++] = v;
  };
  out[at++] = LOG_MAGIC;
  out[at++] = LOG_FORMAT;
  varint(config.length);
  at += config.copy(out, at);
  varint(log.moves.length);
  for (const m of log.moves) varint(m);
  if (searches) at += searches.copy(out, at);
  return out.subarray(0, at);
}

export function isPackedLog(blob: Uint8Array): boolean {
  return blob.length >= 2 && blob[0] === LOG_MAGIC;
}

export function unpackLog(blob: Buffer): MoveLog {
  if (!isPackedLog(blob)) throw new Error('not a packed move log');
  if (blob[1] !== LOG_FORMAT) throw new Error(`move log format ${blob[1]} is not known (this build reads ${LOG_FORMAT})`);
  let at = 2;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= blob.length || shift > 28) throw new Error('move log: truncated or malformed number');
      const b = blob[at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  const configLength = varint();
  const config = JSON.parse(blob.toString('utf8', at, at + configLength)) as MoveLog['config'];
  at += configLength;
  const count = varint();
  const moves = new Array<number>(count);
  for (let i = 0; i < count; i++) moves[i] = varint();
  const searches = at < blob.length ? (unpack(blob.subarray(at)) as LoggedSearch[]) : [];
  return { config, moves, searches };
}

/** A stored record: a packed log replayed, or (stored before logs were) deflated JSON. */
export function unpackRecord(blob: Buffer): GameRecord {
  return isPackedLog(blob) ? recordFromLog(unpackLog(blob)) : (unpack(blob) as GameRecord);
}

/** A game made ready for the store: its summary deflated, its log packed, its aggregate increments and paired share counted. */
export function packGame(summary: GameSummary, placement: GamePlacement): PackedGame {
  const { log, ...rest } = summary;
  const share = pairedShare(summary, placement);
  return { summary: pack(rest), ...(log ? { record: packLog(log) } : {}), increments: gameIncrements(summary, placement), ...(share ? { share } : {}) };
}
