/**
 * The minimax agent's evaluation of a position: a value per seat, in VP. `vp` is the score as if
 * the game ended now; `est` adds estimates of what the position is worth beyond that score (our
 * choices, documented in the parameter table and docs/agents.md#minimax):
 * - the current Age's conflicts, fought with today's shields (+1/+3/+5 per neighbour with fewer
 *   shields, −1 per neighbour with more), since they will be fought at the Age's end;
 * - 1, 0.5 or 0 VP per unit of resource production in Age I, II or III (a one-of card counts 1),
 *   since production pays for the cards to come and is worth nothing once the last Age is played;
 * - coins as coins/3 rather than whole thirds, so that a coin short of a third still counts.
 * A finished game is worth its final score.
 */
import { NUM_RESOURCES, VICTORY_POINTS, resourceIndex, scoreTotal, type GameState } from '../../engine/index.js';

export type Evaluation = 'est' | 'vp';

const RESOURCE_VP = [1, 0.5, 0];

/** Fills `out[0..n)` with every seat's value of position s. */
export function evaluate(s: GameState, kind: Evaluation, out: Float64Array): void {
  const n = s.n;
  for (let q = 0; q < n; q++) out[q] = scoreTotal(s, q);
  if (kind === 'vp' || s.isOver()) return;
  const win = VICTORY_POINTS[s.age - 1];
  const perUnit = RESOURCE_VP[s.age - 1];
  for (let q = 0; q < n; q++) {
    let v = 0;
    const mine = s.shields[q];
    for (const other of [s.left(q), s.right(q)]) {
      const theirs = s.shields[other];
      v += mine > theirs ? win : mine < theirs ? -1 : 0;
    }
    let units = s.choiceLen[q];
    for (let r = 0; r < NUM_RESOURCES; r++) units += s.fixed[resourceIndex(q, r)];
    v += perUnit * units;
    v += (s.coins[q] % 3) / 3;
    out[q] += v;
  }
}

/** Seat q's margin: its value minus the best other seat's. */
export function margin(values: Float64Array, n: number, q: number): number {
  let best = -Infinity;
  for (let r = 0; r < n; r++) if (r !== q && values[r] > best) best = values[r];
  return values[q] - best;
}
