/**
 * A decision's search statistics as a game's log keeps them: numbers cut to what a reader needs,
 * so that a record with them stays small (see the bench's record_bytes figure). Moves stay codes;
 * a record read from the log names them.
 */
import type { SearchStatistics } from '../../agents/index.js';
import type { LoggedSearch } from '../../engine/index.js';

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/** The log's form of `search`, which took `ms` of wall time. */
export function loggedSearch(search: SearchStatistics, ms: number): Omit<LoggedSearch, 'at'> {
  return {
    iterations: search.iterations,
    ms: round(ms, 1),
    ...(search.carried !== undefined ? { carried: search.carried } : {}),
    ...(search.depth !== undefined ? { depth: search.depth } : {}),
    ...(search.network !== undefined ? { network: search.network.map((v) => round(v, 1)) } : {}),
    moves: search.moves.map((m) => ({
      move: m.move,
      visits: m.visits,
      value: round(m.value, 3),
      ...(m.votes !== undefined ? { votes: m.votes } : {}),
    })),
  };
}
