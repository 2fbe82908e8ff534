/**
 * How the games of a tournament are set up: which boards each deal uses, and in which seat
 * orders the agents play it.
 *
 * - 'random': every deal draws its boards (and sides, unless fixed) from its seed.
 * - 'thesis': the 21 three-wonder sets of Minenko (2025) × 50 card seeds. The thesis does not list
 *   its sets; ours are three rotation orbits of triples over the seven wonders, so every wonder is
 *   in 9 sets and in each seat in 3 of them (the thesis's 150 games per wonder for the MCTS seat).
 * - 'robilliard': 20 board sets drawn from the tournament seed × 50 card seeds (Robilliard et al.
 *   2014).
 * - 'duplicated': 5 board sets drawn from the seed × 100 card seeds, in each of which two seats
 *   (the compared agents') share one board and the others have boards of their own (the 2014
 *   paper's tuning experiments; with seating 'swap' the two agents also trade places).
 * - 'fixed': board sets given explicitly.
 * Seating: 'fixed' plays each deal once in the order given; 'rotate' once per rotation of the
 * agents over the seats; 'permute' once per permutation. The boards stay with the seats, so a
 * rotated agent also gets the other boards: a paired design.
 */
import { BOARDS, Rng, hashString } from '../../engine/index.js';

export const SETUPS = ['random', 'thesis', 'robilliard', 'duplicated', 'fixed'] as const;
export type Setup = (typeof SETUPS)[number];
export const SEATINGS = ['fixed', 'rotate', 'permute', 'swap'] as const;
export type Seating = (typeof SEATINGS)[number];

/** Difference patterns of the three orbits {i, i+a, i+b} mod 7 (board ids, alphabetical). */
const THESIS_ORBITS = [
  [0, 1, 3],
  [0, 2, 3],
  [0, 1, 2],
] as const;

/** The 21 board sets of the thesis setup, each a board id per seat. */
export const THESIS_WONDER_SETS: readonly (readonly number[])[] = THESIS_ORBITS.flatMap((orbit) =>
  [0, 1, 2, 3, 4, 5, 6].map((i) => orbit.map((d) => (i + d) % 7)),
);

export const THESIS_DEALS = 50;
export const ROBILLIARD_SETS = 20;
export const ROBILLIARD_DEALS = 50;
export const DUPLICATED_SETS = 5;
export const DUPLICATED_DEALS = 100;

/** A deterministic 32-bit seed from parts. */
export function deriveSeed(...parts: (string | number)[]): number {
  return hashString(parts.join(':'));
}

/** `count` board sets for `players` seats drawn from `seed` (distinct boards within a set). */
export function drawBoardSets(seed: number, count: number, players: number): number[][] {
  const rng = new Rng(deriveSeed(seed, 'board-sets'));
  const sets: number[][] = [];
  for (let i = 0; i < count; i++) sets.push(rng.shuffle(BOARDS.map((b) => b.id)).slice(0, players));
  return sets;
}

/**
 * `count` board sets in which the seats `pair` share one board and every other seat has a board
 * of its own, drawn from `seed`.
 */
export function drawDuplicatedSets(seed: number, count: number, players: number, pair: readonly [number, number]): number[][] {
  const rng = new Rng(deriveSeed(seed, 'duplicated-sets'));
  const sets: number[][] = [];
  for (let i = 0; i < count; i++) {
    const boards = rng.shuffle(BOARDS.map((b) => b.id)).slice(0, players - 1);
    const shared = boards[0];
    const others = boards.slice(1);
    sets.push([...Array(players).keys()].map((p) => (p === pair[0] || p === pair[1] ? shared : others.shift()!)));
  }
  return sets;
}

/**
 * Seats are numbered from 0 wherever a person reads them, as the spec's indices are (swapSeats,
 * matchup.seats, stop.seat): the two a swap or a duplicated board compares unless told otherwise.
 */
export const DEFAULT_PAIR: readonly [number, number] = [0, 1];

/**
 * The seat orders (agent index per seat) a deal is played in. 'swap' plays it as given and with
 * the agents of two seats exchanged (the paired design of Robilliard et al. 2014).
 */
export function seatOrders(seating: Seating, players: number, swapSeats: readonly [number, number] = DEFAULT_PAIR): number[][] {
  const identity = [...Array(players).keys()];
  if (seating === 'fixed') return [identity];
  if (seating === 'swap') {
    const [a, b] = swapSeats;
    if (a === b || a < 0 || b < 0 || a >= players || b >= players) throw new Error(`swap seats must be two different seats of ${players}, got ${a} and ${b}`);
    const swapped = [...identity];
    swapped[a] = b;
    swapped[b] = a;
    return [identity, swapped];
  }
  if (seating === 'rotate') return identity.map((r) => identity.map((p) => (p + r) % players));
  const out: number[][] = [];
  const permute = (prefix: number[], rest: number[]) => {
    if (rest.length === 0) out.push(prefix);
    rest.forEach((x, i) => permute([...prefix, x], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  permute([], identity);
  return out;
}
