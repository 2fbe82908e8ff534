/**
 * Plays a game to the end with uniformly random `cheapest` moves: the engine's reference workload
 * (benchmarks, property tests, playouts).
 */
import { actingSeats, writeLegalMoves } from './moves.js';
import { Rng } from './rng.js';
import { step } from './rules.js';
import { MAX_PLAYERS, PHASE_TURN, type GameState } from './state.js';

const movesBuf = new Int32Array(MAX_PLAYERS);
const legalBuf: number[] = [];

/** Plays random moves from `s` (mutated) until the game is over; returns the number of steps. */
export function playRandom(s: GameState, rng: Rng): number {
  let steps = 0;
  while (!s.isOver()) {
    if (s.phase === PHASE_TURN) {
      // Every seat acts on a normal turn: skip building the list of acting seats.
      for (let p = 0; p < s.n; p++) movesBuf[p] = legalBuf[rng.int(writeLegalMoves(s, p, 'cheapest', legalBuf, 0))];
    } else {
      for (const p of actingSeats(s)) movesBuf[p] = legalBuf[rng.int(writeLegalMoves(s, p, 'cheapest', legalBuf, 0))];
    }
    step(s, movesBuf);
    steps++;
  }
  return steps;
}
