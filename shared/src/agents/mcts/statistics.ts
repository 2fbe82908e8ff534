/**
 * A decision's root statistics as they are shown beside its move (Decision.search): the most
 * visited root moves with their visits and mean reward. Built from the ranking the agent already
 * made, after its choice, so that collecting them can never change what it plays.
 */
import type { RootMoveStatistics, SearchStatistics } from '../types.js';
import type { RootMove } from './tree.js';

/** How many root moves a decision keeps: enough to see the contenders, few enough to store with every game. */
export const SEARCH_TOP_MOVES = 8;

export interface StatisticsInput {
  /** The root moves as rankRootMoves gives them (best first; tree keys, not yet moves). */
  ranked: readonly RootMove[];
  /** The key of the move played. */
  chosen: number;
  /** The legal move a tree key stands for. */
  moveOf: (key: number) => number;
  iterations: number;
  /** Visits the root had before this decision's iterations (reuse=on). */
  carried: number;
  /** Whether votes decide among several trees (det=pimc): then each move's votes are kept. */
  votes: boolean;
  limit?: number;
}

/**
 * The `limit` most visited root moves, most visited first (ties in the ranking's order). The
 * move played is kept even when others were visited more (final=mean, or votes), in the last
 * place, which keeps the list sorted by visits.
 */
export function searchStatistics(input: StatisticsInput): SearchStatistics {
  const limit = input.limit ?? SEARCH_TOP_MOVES;
  // Array.prototype.sort is stable: equal visits stay in the ranking's order.
  const byVisits = [...input.ranked].sort((a, b) => b.visits - a.visits);
  const top = byVisits.slice(0, limit);
  if (!top.some((m) => m.move === input.chosen)) {
    const chosen = byVisits.find((m) => m.move === input.chosen);
    if (chosen && top.length > 0) top[top.length - 1] = chosen;
  }
  const moves = top.map((m): RootMoveStatistics => ({
    move: input.moveOf(m.move),
    visits: m.visits,
    value: m.value,
    ...(input.votes ? { votes: m.votes } : {}),
  }));
  return { iterations: input.iterations, ...(input.carried > 0 ? { carried: input.carried } : {}), moves };
}
