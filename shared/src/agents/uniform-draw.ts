/**
 * A uniform draw among a seat's cheapest-mode legal moves without listing them all first, for the
 * random and no-discard playout policies. Listing a hand prices every card (a payment search
 * each); a draw needs only the cards it looks at.
 *
 * Why it is uniform: every move the listing could hold has one slot here (each distinct card's
 * build and Olympia free build, its stage and its discard, or with grouped arms one stage slot and
 * one discard slot for the whole hand). The slots are visited in a random order (a Fisher–Yates
 * shuffle drawn as it goes) and the first legal one is taken, so each legal move is first among the
 * legal ones with the same probability. Discards are always legal, so a random draw usually stops
 * after a slot or two; a no-discard draw stops at the first build or stage it can pay.
 */
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  moveAction,
  movePayLeft,
  movePayRight,
  NO_PAYMENT,
  PHASE_TURN,
  encodeMove,
  hasFreeBuild,
  loadSeat,
  nextStage,
  paymentLeft,
  paymentRight,
  cheapestStagePayment,
  distinctHandCards,
  writeCheapestBuilds,
  type GameState,
  type Rng,
} from '../engine/index.js';
import { ARM_CARD, DISCARD_ARM, buryPick, buryRank } from './mcts/arms.js';
import { producedBy, strongestInWar } from './playout-rules.js';

/** drawUniformMove's result when no move qualifies: a no-discard draw from a hand it can only sell. */
export const NO_DRAW = -1;

// Slot kinds, in the low two bits of a slot; the card's index in `cards` above them.
const FIRST_BUILD = 0;
const SECOND_BUILD = 1;
const STAGE = 2;
const DISCARD = 3;
/** The grouped stage and discard slots carry this card index: they stand for the whole hand. */
const WHOLE_HAND = 7;

const cards = new Int32Array(7);
/** Per card index: its build moves as writeCheapestBuilds lists them (at most two), once found. */
const builds = new Int32Array(14);
const buildCount = new Int8Array(7);
const slots = new Int32Array(32);
const buildBuf: number[] = [];
/** No payment looked up yet (NO_PAYMENT, −1, is an answer). */
const NOT_PRICED = -2;
/** What the last draw looked at: its state and seat, its distinct cards, and Olympia's free build. */
let drawnState: GameState | undefined;
let drawnSeat = -1;
let drawnCount = 0;
let drawnFreeBuild = false;

/** Finds the build moves of the draw's card `index` (builds, buildCount), as writeCheapestBuilds lists them; loadSeat(s, p) done. */
function priceCard(s: GameState, p: number, index: number, freeBuildReady: boolean, branchLimit: number, tradeOrder: Rng | null): void {
  const k = writeCheapestBuilds(s, p, cards[index], freeBuildReady, buildBuf, 0, branchLimit, tradeOrder);
  buildCount[index] = k;
  for (let b = 0; b < k; b++) builds[2 * index + b] = buildBuf[b];
}

/**
 * A move drawn uniformly among those writeLegalMoves(s, p, 'cheapest', …, branchLimit) lists on a
 * normal turn (`branchLimit` caps the payment search as there, 0: none; `tradeOrder`, when given,
 * orders it at random as there). With `grouped` (arms=
 * grouped), among the grouped options — each build, one stage arm, one discard arm — returning an
 * arm as its key (DISCARD_ARM, or a stage arm with the stage's payment) for the caller to resolve.
 * With `noDiscard`, among the moves that are not discards, or NO_DRAW when there are none. Only
 * for s.phase === PHASE_TURN. Positional flags rather than an options object: it runs at every
 * step of a playout and allocates nothing.
 */
export function drawUniformMove(s: GameState, p: number, rng: Rng, grouped: boolean, noDiscard: boolean, branchLimit: number, tradeOrder: Rng | null = null): number {
  if (s.phase !== PHASE_TURN) throw new Error('drawUniformMove is for normal turns');
  const count = distinctHandCards(s, p, cards);
  for (let i = 0; i < count; i++) buildCount[i] = -1;
  loadSeat(s, p);
  const freeBuildReady = hasFreeBuild(s, p);
  drawnState = s;
  drawnSeat = p;
  drawnCount = count;
  drawnFreeBuild = freeBuildReady;
  const hasStage = nextStage(s, p) !== undefined;
  let n = 0;
  for (let i = 0; i < count; i++) {
    slots[n++] = (i << 2) | FIRST_BUILD;
    if (freeBuildReady) slots[n++] = (i << 2) | SECOND_BUILD;
  }
  if (grouped) {
    if (hasStage) slots[n++] = (WHOLE_HAND << 2) | STAGE;
    if (!noDiscard) slots[n++] = (WHOLE_HAND << 2) | DISCARD;
  } else {
    if (hasStage) for (let i = 0; i < count; i++) slots[n++] = (i << 2) | STAGE;
    if (!noDiscard) for (let i = 0; i < count; i++) slots[n++] = (i << 2) | DISCARD;
  }
  // The stage's payment, looked up once when a stage slot first comes up (NOT_PRICED until then).
  let stagePay = NOT_PRICED;
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(n - i);
    const slot = slots[j];
    slots[j] = slots[i];
    slots[i] = slot;
    const index = slot >> 2;
    const kind = slot & 3;
    if (kind === DISCARD) return index === WHOLE_HAND ? DISCARD_ARM : encodeMove(cards[index], ACTION_DISCARD);
    if (kind === STAGE) {
      if (stagePay === NOT_PRICED) stagePay = cheapestStagePayment(s, p, branchLimit, tradeOrder);
      if (stagePay === NO_PAYMENT) continue;
      const card = index === WHOLE_HAND ? ARM_CARD : cards[index];
      return encodeMove(card, ACTION_STAGE, paymentLeft(stagePay), paymentRight(stagePay));
    }
    if (buildCount[index] < 0) priceCard(s, p, index, freeBuildReady, branchLimit, tradeOrder);
    if (kind < buildCount[index]) return builds[2 * index + kind];
  }
  return NO_DRAW;
}

/**
 * The move that a grouped arm just drawn by drawUniformMove(s, p, …) stands for: the bury rule's
 * card, ties drawn with `rng` in hand order — the move resolveArm (mcts/arms.ts) picks from the
 * full listing, drawing the same numbers — but pricing only the cards the draw did not price.
 * Only for cheapest payments (`branchLimit` as in the draw): with a random payment order, pricing
 * draws numbers too, so the caller lists the hand instead. `s` must not have changed since the draw.
 */
export function resolveDrawnArm(s: GameState, p: number, arm: number, rng: Rng, branchLimit: number): number {
  if (s !== drawnState || p !== drawnSeat) throw new Error('resolveDrawnArm resolves the arm of the last draw, for its state and seat');
  const discard = moveAction(arm) === ACTION_DISCARD;
  const have = producedBy(s, p);
  const strongest = strongestInWar(s, p);
  loadSeat(s, p);
  buryPick.reset();
  for (let i = 0; i < drawnCount; i++) {
    if (buildCount[i] < 0) priceCard(s, p, i, drawnFreeBuild, branchLimit, null);
    const m = discard ? encodeMove(cards[i], ACTION_DISCARD) : encodeMove(cards[i], ACTION_STAGE, movePayLeft(arm), movePayRight(arm));
    buryPick.offer(m, buryRank(cards[i], buildCount[i] > 0, have, strongest), rng);
  }
  return buryPick.best;
}
