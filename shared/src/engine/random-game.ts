/**
 * Plays a game to the end with uniformly random `cheapest` moves: the engine's reference workload
 * (benchmarks, property tests).
 */
import { actingSeats, writeLegalMoves } from './moves.js';
import { Rng } from './rng.js';
import { step } from './rules.js';
import { MAX_PLAYERS, PHASE_TURN, type GameState } from './state.js';
import { RULES_PRICING, drawUniformMove } from './uniform-draw.js';

/**
 * How playRandom draws a move on a normal turn. 'lazily': without listing the hand
 * (drawUniformMove prices only the cards the draw looks at), as the agents' random playouts draw.
 * 'listing': from the full list of legal moves, pricing every card of every hand — the same
 * distribution of games, kept as the benchmark's measure of legal-move generation in whole games.
 */
export type RandomDraw = 'lazily' | 'listing';

const movesBuf = new Int32Array(MAX_PLAYERS);
const legalBuf: number[] = [];

function drawFromListing(s: GameState, p: number, rng: Rng): number {
  return legalBuf[rng.int(writeLegalMoves(s, p, 'cheapest', legalBuf))];
}

/**
 * Plays random moves from `s` (mutated) until the game is over; returns the number of steps. Each
 * move is uniform among the seat's cheapest-mode legal moves; Babylon's seventh card and
 * Halicarnassus's build are drawn from the listing whatever `draw` says.
 */
export function playRandom(s: GameState, rng: Rng, draw: RandomDraw = 'lazily'): number {
  const lazily = draw === 'lazily';
  let steps = 0;
  while (!s.isOver()) {
    if (s.phase === PHASE_TURN) {
      // Every seat acts on a normal turn: skip building the list of acting seats.
      if (lazily) for (let p = 0; p < s.n; p++) movesBuf[p] = drawUniformMove(s, p, rng, false, false, RULES_PRICING);
      else for (let p = 0; p < s.n; p++) movesBuf[p] = drawFromListing(s, p, rng);
    } else {
      for (const p of actingSeats(s)) movesBuf[p] = drawFromListing(s, p, rng);
    }
    step(s, movesBuf);
    steps++;
  }
  return steps;
}
