/**
 * How results and records are stored: deflated JSON. A 3-player summary shrinks from about 1.6 KB
 * to about 0.75 KB, which is what a million-game sweep's Redis has to hold. Its own module so that
 * the bench measures a record's stored size with the store's own code.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { gameIncrements, pairedShare, type GamePlacement } from '../lab/aggregates.js';
import type { GameSummary } from '../lab/game.js';
import type { PackedGame } from '../lab/game-pool.js';

export function pack(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value));
}

export function unpack(blob: Buffer): unknown {
  return JSON.parse(inflateRawSync(blob).toString('utf8'));
}

/** A game made ready for the store: its summary and record deflated, its aggregate increments and paired share counted. */
export function packGame(summary: GameSummary, placement: GamePlacement): PackedGame {
  const { record, ...rest } = summary;
  const share = pairedShare(summary, placement);
  return { summary: pack(rest), ...(record ? { record: pack(record) } : {}), increments: gameIncrements(summary, placement), ...(share ? { share } : {}) };
}
