/**
 * Positions where seat 0 decides, from random 3-player games: what the per-decision benchmarks
 * (policy.ts, protocol.ts) time an agent on. `seed` seeds the random moves that reach them.
 */
import { Rng, actingSeats, clone, legalMoves, newGame, step, type GameState } from '../src/engine/index.js';

export function decisionPositions(count: number, seed: number): GameState[] {
  const out: GameState[] = [];
  const rng = new Rng(seed);
  const moves = new Int32Array(3);
  for (let game = 1; out.length < count; game++) {
    const s = newGame({ players: 3, seed: game });
    while (!s.isOver() && out.length < count) {
      if (actingSeats(s).includes(0)) out.push(clone(s));
      for (const p of actingSeats(s)) {
        const legal = legalMoves(s, p);
        moves[p] = legal[rng.int(legal.length)];
      }
      step(s, moves);
    }
  }
  return out;
}
