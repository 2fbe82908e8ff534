/**
 * A decision's search statistics as a game record keeps them: moves written as recorded moves
 * are, so a replay can print them, and numbers cut to what a reader needs, so that a record with
 * them stays small (see the bench's record_bytes figure).
 */
import type { SearchStatistics } from '../agents/index.js';
import { decodeMove, type RecordedSearch } from '../engine/index.js';

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/** The record's form of `search`, which took `ms` of wall time. */
export function recordedSearch(search: SearchStatistics, ms: number): RecordedSearch {
  return {
    iterations: search.iterations,
    ms: round(ms, 1),
    ...(search.carried !== undefined ? { carried: search.carried } : {}),
    moves: search.moves.map((m) => ({
      move: decodeMove(m.move),
      visits: m.visits,
      value: round(m.value, 3),
      ...(m.votes !== undefined ? { votes: m.votes } : {}),
    })),
  };
}
