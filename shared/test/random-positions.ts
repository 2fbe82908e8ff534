/** Positions reached by uniformly random moves, for the agent tests. */
import { Rng, actingSeats, legalMoves, newGame, step, type GameState } from '../src/engine/index.js';

/** A new game of `players` from `seed`, then random moves drawn from `moveSeed` for `steps` steps (or to the end). */
export function randomPosition(players: number, seed: number, moveSeed: number, steps: number): GameState {
  const s = newGame({ players, seed });
  const rng = new Rng(moveSeed);
  const moves = new Int32Array(players);
  for (let i = 0; i < steps && !s.isOver(); i++) {
    for (const p of actingSeats(s)) {
      const legal = legalMoves(s, p, 'cheapest');
      moves[p] = legal[rng.int(legal.length)];
    }
    step(s, moves);
  }
  return s;
}
