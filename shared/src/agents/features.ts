/**
 * What the rule-based agents look at: card classes, a seat's production and military as it
 * observes them, the ways to build each card, and the VP a move gains at once.
 */
import {
  ACTION_BUILD,
  ACTION_BUILD_DISCARDED,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_STAGE,
  BLUE,
  BOARDS,
  CARDS,
  GREEN,
  RED,
  actingSeats,
  clone,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
  scoreTotal,
  step,
  legalMoves,
  MAX_PLAYERS,
  type GameState,
  type Observation,
  type Rng,
} from '../engine/index.js';

const popcount = (x: number): number => {
  let k = 0;
  for (; x; x &= x - 1) k++;
  return k;
};

// Each card's resources, read once from the catalogue: the rule-based players classify every
// card they can build at every decision.
const UNITS = Uint8Array.from(CARDS, (card) => (card.choiceMask ? 1 : 0) + card.produces.reduce((a, k) => a + k, 0));
const MASKS = Uint8Array.from(CARDS, (card) => card.produces.reduce((mask, k, r) => (k > 0 ? mask | (1 << r) : mask), card.choiceMask));
const TYPES = Uint8Array.from(MASKS, popcount);

/** Resource units a card produces at a time: Sawmill 2, Tree Farm 1, Forum 1. */
export function resourceUnits(c: number): number {
  return UNITS[c];
}

/** Resource types a card can give (fixed or as a one-of): Sawmill 1, Tree Farm 2, Forum 3. */
export function resourceTypes(c: number): number {
  return TYPES[c];
}

/** Mask of the resources a card can give. */
export function resourceMask(c: number): number {
  return MASKS[c];
}

export const isResourceCard = (c: number): boolean => resourceMask(c) !== 0;
/** A card that gives one of several resources (Tree Farm, Forum, Caravansery). */
export const isMixedResource = (c: number): boolean => CARDS[c].choiceMask !== 0;
export const isMilitary = (c: number): boolean => CARDS[c].colour === RED;
export const isScience = (c: number): boolean => CARDS[c].colour === GREEN;
export const isCivilian = (c: number): boolean => CARDS[c].colour === BLUE;

/** Resources seat q can produce itself (board, cards and wonder stages, one-ofs included). */
export function producedMask(obs: Observation, q: number): number {
  const view = obs.seats[q];
  const board = BOARDS[view.board];
  let mask = 1 << board.resource;
  for (const c of view.city) mask |= resourceMask(c);
  const stages = board.sides[view.side];
  for (let i = 0; i < view.stages; i++) {
    const st = stages[i];
    mask |= st.choiceMask;
    st.produces.forEach((k, r) => {
      if (k > 0) mask |= 1 << r;
    });
  }
  return mask;
}

/** The two seats next to q (left, right). */
export function neighbours(obs: Observation, q: number): [number, number] {
  const n = obs.players;
  return [(q + 1) % n, (q + n - 1) % n];
}

export const isBuild = (m: number): boolean => {
  const a = moveAction(m);
  return a === ACTION_BUILD || a === ACTION_FREE_BUILD || a === ACTION_BUILD_DISCARDED;
};
export const isStage = (m: number): boolean => moveAction(m) === ACTION_STAGE;
export const isDiscard = (m: number): boolean => moveAction(m) === ACTION_DISCARD;

/** Coins a move costs: the card's own coin cost for builds, plus what goes to the neighbours. */
export function coinsSpent(m: number): number {
  const a = moveAction(m);
  const own = a === ACTION_BUILD ? CARDS[moveCard(m)].coinCost : 0;
  return own + movePayLeft(m) + movePayRight(m);
}

/**
 * One way to build each buildable card: the paid build when it costs nothing, else Olympia's free
 * build when offered (so the once-per-Age power is not spent on a free card), else the paid build.
 */
export function buildOptions(legal: readonly number[]): Map<number, number> {
  const best = new Map<number, number>();
  for (const m of legal) {
    if (!isBuild(m)) continue;
    const c = moveCard(m);
    const prev = best.get(c);
    if (prev === undefined) {
      best.set(c, m);
      continue;
    }
    const cost = (x: number) => (moveAction(x) === ACTION_FREE_BUILD ? 0.5 : coinsSpent(x));
    if (cost(m) < cost(prev)) best.set(c, m);
  }
  return best;
}

/** A uniformly random element. */
export function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

const othersMoves = new Int32Array(MAX_PLAYERS);
const legalBuf: number[] = [];

/**
 * VP seat p gains at once by playing `m` in `world`: its score after the step minus before, with
 * every other acting seat discarding (which changes nothing of p's score). Only p's city, its
 * neighbours' public cities and p's coins enter its score, so any sampled world gives the same
 * answer. Conflicts at the end of an Age count: they are the turn's immediate effect.
 */
export function immediateVpGain(world: GameState, p: number, m: number): number {
  const before = scoreTotal(world, p);
  const s = clone(world);
  for (const q of actingSeats(s)) {
    if (q === p) othersMoves[q] = m;
    else {
      legalMoves(s, q, 'cheapest', legalBuf);
      // The last move listed for a hand card is its discard; a discard-build has no discard.
      othersMoves[q] = legalBuf.find(isDiscard) ?? legalBuf[0];
    }
  }
  step(s, othersMoves);
  return scoreTotal(s, p) - before;
}
