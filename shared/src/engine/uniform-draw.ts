/**
 * A uniform draw among a seat's cheapest-mode legal moves without listing them all first: random
 * games (playRandom) and the random and no-discard playout policies of the agents. Listing a hand
 * prices every card (a payment search each); a draw needs only the cards it looks at.
 *
 * Why it is uniform: every move the listing could hold has one slot here (each distinct card's
 * build and Olympia free build, its stage and its discard, or with `grouped` one stage slot and
 * one discard slot for the whole hand). The slots are visited in a random order (a Fisher–Yates
 * shuffle drawn as it goes) and the first legal one is taken, so each legal move is first among the
 * legal ones with the same probability. Discards are always legal, so a random draw usually stops
 * after a slot or two; a no-discard draw stops at the first build or stage it can pay.
 *
 * Payments are the rules' cheapest ones (RULES_PRICING) unless the caller brings its own pricing:
 * a playout may approximate them (the agents' capped payment search), and that choice is the
 * agents', not the rules'.
 *
 * Module-level scratch: it allocates nothing, and it is not re-entrant.
 */
import { NO_PAYMENT, loadSeat, paymentLeft, paymentRight } from './payment.js';
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  cheapestStagePayment,
  distinctHandCards,
  encodeMove,
  hasFreeBuild,
  hasNextStage,
  writeCheapestBuilds,
} from './moves.js';
import type { Rng } from './rng.js';
import { nextStamp } from './stamps.js';
import { HAND_SIZE, PHASE_TURN, type GameState } from './state.js';

/**
 * How a draw finds the moves of the cards it looks at: a card's build moves written as
 * writeCheapestBuilds writes them, and the next wonder stage's payment as cheapestStagePayment
 * gives it (NO_PAYMENT: none). loadSeat(s, p) is done before either is called.
 */
export interface DrawPricing {
  builds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number): number;
  stage(s: GameState, p: number): number;
}

/** The rules' pricing: every payment the cheapest one, as legalMoves(s, p, 'cheapest') lists them. */
export const RULES_PRICING: DrawPricing = { builds: writeCheapestBuilds, stage: cheapestStagePayment };

/** drawUniformMove's result when no move qualifies: a no-discard draw from a hand it can only sell. */
export const NO_DRAW = -1;

/**
 * The card of the move a grouped draw returns for the hand's one stage slot or one discard slot:
 * outside the catalogue's ids, it stands for whichever card of the hand the caller picks.
 */
export const WHOLE_HAND_CARD = 127;

// Slot kinds, in the low two bits of a slot; the card's index in `cards` above them.
const FIRST_BUILD = 0;
const SECOND_BUILD = 1;
const STAGE = 2;
const DISCARD = 3;
/** The grouped stage and discard slots carry this card index: they stand for the whole hand. */
const WHOLE_HAND = HAND_SIZE;

const cards = new Int32Array(HAND_SIZE);
/** Per card index: its build moves as writeCheapestBuilds lists them (at most two), once found. */
const cardBuilds = new Int32Array(2 * HAND_SIZE);
const buildCount = new Int8Array(HAND_SIZE);
/**
 * The draw's shuffle, written only where it moved a slot: position k holds moved[k] when
 * movedIn[k] is the draw's number, and slotAt(k) otherwise. A draw whose first slot is refused
 * (a build or stage it cannot pay) writes one slot per refusal instead of the whole list, which
 * was a fifth of the draw's own time (perf's annotation of random games).
 */
const moved = new Int32Array(4 * HAND_SIZE + 2);
const movedIn = new Int32Array(4 * HAND_SIZE + 2);
let draws = 0;
const buildBuf: number[] = [];
/** No payment looked up yet (NO_PAYMENT, −1, is an answer). */
const NOT_PRICED = -2;
/** What the last draw looked at: its state, seat and pricing, its distinct cards, and Olympia's free build. */
let drawnState: GameState | undefined;
let drawnPricing = RULES_PRICING;
let drawnSeat = -1;
let drawnCount = 0;
let drawnFreeBuild = false;

/*
 * The rules' pricing is called by name, not through the pricing object: random games and the
 * agents' capped playouts then do not share one call site with two targets (in a process that
 * runs both, as the benchmarks and the lab do, the capped playouts ran a few per cent slower).
 */

/** Finds the build moves of the draw's card `index` (builds, buildCount), as writeCheapestBuilds lists them; loadSeat(s, p) done. */
function priceCard(s: GameState, p: number, index: number, freeBuildReady: boolean, pricing: DrawPricing): void {
  const c = cards[index];
  const k = pricing === RULES_PRICING ? writeCheapestBuilds(s, p, c, freeBuildReady, buildBuf, 0) : pricing.builds(s, p, c, freeBuildReady, buildBuf, 0);
  buildCount[index] = k;
  for (let b = 0; b < k; b++) cardBuilds[2 * index + b] = buildBuf[b];
}

/**
 * A move drawn uniformly among those writeLegalMoves(s, p, 'cheapest', …) lists on a normal turn,
 * each payment as `pricing` finds it (RULES_PRICING: as legalMoves). With `grouped`, among the grouped options — each build, one
 * stage option and one discard option for the whole hand, returned with the card WHOLE_HAND_CARD
 * (the stage's with its payment) for the caller to resolve. With `noDiscard`, among the moves that
 * are not discards, or NO_DRAW when there are none. Only for s.phase === PHASE_TURN. Positional
 * flags rather than an options object: it runs at every step of a playout and allocates nothing.
 */
export function drawUniformMove(s: GameState, p: number, rng: Rng, grouped: boolean, noDiscard: boolean, pricing: DrawPricing): number {
  if (s.phase !== PHASE_TURN) throw new Error('drawUniformMove is for normal turns');
  const count = distinctHandCards(s, p, cards);
  for (let i = 0; i < count; i++) buildCount[i] = -1;
  // The seat's payment sources are loaded when a build or stage is first priced: a draw that
  // takes a discard first (about a third of them) needs none.
  let loaded = false;
  const freeBuildReady = hasFreeBuild(s, p);
  // Stored only when it changes: a young state stored into this module's (old) scope takes the
  // collector's write barrier's slow path at every store, and a step's draws share one state.
  if (drawnState !== s) drawnState = s;
  drawnSeat = p;
  drawnPricing = pricing;
  drawnCount = count;
  drawnFreeBuild = freeBuildReady;
  const hasStage = hasNextStage(s, p);
  const builds = freeBuildReady ? 2 * count : count;
  const stages = hasStage ? (grouped ? 1 : count) : 0;
  const n = builds + stages + (noDiscard ? 0 : grouped ? 1 : count);
  // The slots in their listed order are slotAt(0 … n − 1), shuffled as they are drawn
  // (Fisher–Yates: position i takes a slot from i … n − 1), with only the moved ones written down.
  const draw = (draws = nextStamp(movedIn, draws));
  // The stage's payment, looked up once when a stage slot first comes up (NOT_PRICED until then).
  let stagePay = NOT_PRICED;
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(n - i);
    const slot = movedIn[j] === draw ? moved[j] : slotAt(j, builds, stages, freeBuildReady, grouped);
    const index = slot >> 2;
    const kind = slot & 3;
    const card = index === WHOLE_HAND ? WHOLE_HAND_CARD : cards[index];
    if (kind === DISCARD) return encodeMove(card, ACTION_DISCARD);
    if (!loaded) {
      loadSeat(s, p);
      loaded = true;
    }
    if (kind === STAGE) {
      if (stagePay === NOT_PRICED) stagePay = pricing === RULES_PRICING ? cheapestStagePayment(s, p) : pricing.stage(s, p);
      if (stagePay !== NO_PAYMENT) return encodeMove(card, ACTION_STAGE, paymentLeft(stagePay), paymentRight(stagePay));
    } else {
      if (buildCount[index] < 0) priceCard(s, p, index, freeBuildReady, pricing);
      if (kind < buildCount[index]) return cardBuilds[2 * index + kind];
    }
    // Refused: position j takes what position i held (position i is not read again).
    if (j !== i) {
      moved[j] = movedIn[i] === draw ? moved[i] : slotAt(i, builds, stages, freeBuildReady, grouped);
      movedIn[j] = draw;
    }
  }
  return NO_DRAW;
}

/**
 * The slot at position k of a draw's list in its listed order: each card's build (and second
 * build with Olympia's free build ready), then the stage slots (one per card, or one for the hand
 * when grouped), then the discard slots likewise.
 */
function slotAt(k: number, builds: number, stages: number, freeBuildReady: boolean, grouped: boolean): number {
  if (k < builds) return freeBuildReady ? ((k >> 1) << 2) | (k & 1) : (k << 2) | FIRST_BUILD;
  k -= builds;
  if (k < stages) return ((grouped ? WHOLE_HAND : k) << 2) | STAGE;
  return ((grouped ? WHOLE_HAND : k - stages) << 2) | DISCARD;
}

/**
 * After a draw for seat p of s (s unchanged since): prices the distinct cards of the hand that the
 * draw did not look at, with the draw's pricing, and returns how
 * many distinct cards there are; drawnCard and drawnCardBuildable then describe each. For a caller
 * resolving a whole-hand option, which must look at every card, to reuse the draw's pricing.
 */
export function priceDrawnHand(s: GameState, p: number): number {
  if (s !== drawnState || p !== drawnSeat) throw new Error('priceDrawnHand prices the hand of the last draw, for its state and seat');
  loadSeat(s, p);
  for (let i = 0; i < drawnCount; i++) if (buildCount[i] < 0) priceCard(s, p, i, drawnFreeBuild, drawnPricing);
  return drawnCount;
}

/** The last draw's distinct card `index` (in hand order). */
export function drawnCard(index: number): number {
  return cards[index];
}

/** Whether the last draw's card `index` can be built (paid or free); after priceDrawnHand. */
export function drawnCardBuildable(index: number): boolean {
  return buildCount[index] > 0;
}
