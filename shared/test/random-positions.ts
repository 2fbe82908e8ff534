/** Positions reached by uniformly random moves, for the agent and rule tests. */
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

/**
 * Plays a game of `players` from `seed` to its end with random moves drawn from `moveSeed`,
 * calling `visit(s, p)` for every seat that acts, before its move is drawn (s is the live state:
 * a visitor that keeps it clones it).
 */
export function visitRandomGame(players: number, seed: number, moveSeed: number, visit: (s: GameState, p: number) => void): void {
  const s = newGame({ players, seed });
  const rng = new Rng(moveSeed);
  const moves = new Int32Array(players);
  while (!s.isOver()) {
    for (const p of actingSeats(s)) {
      visit(s, p);
      const legal = legalMoves(s, p, 'cheapest');
      moves[p] = legal[rng.int(legal.length)];
    }
    step(s, moves);
  }
}
