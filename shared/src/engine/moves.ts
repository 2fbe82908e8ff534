/**
 * Moves: (card, action, payment) packed into one integer, and legal-move generation.
 *
 *   bits 0–6   card type id
 *   bits 7–9   action (ACTION_*)
 *   bits 10–17 coins paid to the left neighbour
 *   bits 18–25 coins paid to the right neighbour
 *
 * Two generation modes:
 * - `cheapest`: one move per distinct card and action, with the cheapest payment. Ties between
 *   payments of the same total go to the one that pays the right neighbour least.
 * - `all`: one move per undominated payment (no other payment costs both neighbours at most as
 *   much), so an agent can choose whom to pay.
 * Olympia A's free build is its own action, offered only when building the card would otherwise
 * cost something or be impossible (using it on a free card only wastes it).
 */
import { BOARDS, CARDS, NUM_CARD_TYPES } from './catalog.js';
import { allForLoaded, cheapestForLoaded, loadSeat, NO_PAYMENT, paymentLeft, paymentRight } from './payment.js';
import { nextStamp } from './stamps.js';
import {
  PHASE_DISCARD_BUILD,
  PHASE_OVER,
  PHASE_SEVENTH,
  PHASE_TURN,
  POWER_FREE_BUILD,
  MAX_STAGE_SLOTS,
  handBase,
  ownsNameIndex,
  type GameState,
} from './state.js';

export const ACTION_BUILD = 0;
export const ACTION_STAGE = 1;
export const ACTION_DISCARD = 2;
export const ACTION_FREE_BUILD = 3;
export const ACTION_BUILD_DISCARDED = 4;
export const ACTION_NAMES = ['build', 'stage', 'discard', 'freeBuild', 'buildDiscarded'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export type MoveMode = 'cheapest' | 'all';

export const encodeMove = (card: number, action: number, payLeft = 0, payRight = 0): number =>
  card | (action << 7) | (payLeft << 10) | (payRight << 18);
export const moveCard = (m: number): number => m & 0x7f;
export const moveAction = (m: number): number => (m >> 7) & 7;
export const movePayLeft = (m: number): number => (m >> 10) & 0xff;
export const movePayRight = (m: number): number => (m >> 18) & 0xff;

export interface DecodedMove {
  card: string;
  /** The card's Age: Loom, Glassworks and Press exist in Ages I and II. */
  age: number;
  action: ActionName;
  payLeft: number;
  payRight: number;
}

export function decodeMove(m: number): DecodedMove {
  return {
    card: CARDS[moveCard(m)].name,
    age: CARDS[moveCard(m)].age,
    action: ACTION_NAMES[moveAction(m)],
    payLeft: movePayLeft(m),
    payRight: movePayRight(m),
  };
}

// The fields of the catalogue's cards that legal-move generation reads for every card of every
// hand, as typed arrays: reading them off the card objects was a visible part of listing moves.
// Exported for the agents' playouts, which price cards as often (read only).
/** Per card type: its nameId. */
export const CARD_NAME_ID = Uint8Array.from(CARDS, (c) => c.nameId);
/** Per card type: its coinCost. */
export const CARD_COIN_COST = Uint8Array.from(CARDS, (c) => c.coinCost);
/** Per card type: its costPacked. */
export const CARD_COST = Int32Array.from(CARDS, (c) => c.costPacked);
// Two more fields that hot loops read per card: end-of-game scoring (scoring.ts) at the end of
// every simulated game, and the agents' rule-based playout at every step.
/** Per card type: its colour. */
export const CARD_COLOUR = Uint8Array.from(CARDS, (c) => c.colour);
/** Per card type: its printed VP (a blue card's civilian points). */
export const CARD_VP = Int32Array.from(CARDS, (c) => c.vp);
/** The (at most two) names each card chains from; −1 for none. */
const CHAIN_FIRST = Int16Array.from(CARDS, (c) => c.chainFrom[0] ?? -1);
const CHAIN_SECOND = Int16Array.from(CARDS, (c) => c.chainFrom[1] ?? -1);
for (const c of CARDS) if (c.chainFrom.length > 2) throw new Error(`${c.name} chains from more than two buildings`);

/** Whether seat p owns a building that chains into card c. */
export function hasChain(s: GameState, p: number, c: number): boolean {
  const a = CHAIN_FIRST[c];
  if (a >= 0 && s.ownsName[ownsNameIndex(p, a)]) return true;
  const b = CHAIN_SECOND[c];
  return b >= 0 && s.ownsName[ownsNameIndex(p, b)] === 1;
}

/** The stage type seat p would build next, or undefined when its wonder is complete. */
export function nextStage(s: GameState, p: number) {
  const stages = BOARDS[s.board[p]].sides[s.side[p]];
  return s.stages[p] < stages.length ? stages[s.stages[p]] : undefined;
}

// The wonder stages' counts and costs as typed arrays, per board side (2 × board + side): every
// draw of a random game or playout asks whether there is a stage to build, and reading it through
// the board objects (nextStage) was a tenth of the draw's own time.
const SIDE_STAGES = Uint8Array.from(BOARDS.flatMap((b) => b.sides.map((side) => side.length)));
const SIDE_STAGE_COSTS = Int32Array.from(
  BOARDS.flatMap((b) => b.sides.flatMap((side) => Array.from({ length: MAX_STAGE_SLOTS }, (_, i) => side[i]?.costPacked ?? 0))),
);
BOARDS.forEach((b, i) => {
  if (b.id !== i || b.sides.length !== 2 || b.sides.some((side) => side.length > MAX_STAGE_SLOTS)) throw new Error(`board ${b.id}: the stage tables expect ids in order, two sides, at most ${MAX_STAGE_SLOTS} stages`);
});

/**
 * Seat p's board side as the per-side tables index it (these and scoring's): 2 × board + side, the
 * order of BOARDS.flatMap over each board's sides, which the check above holds.
 */
export function boardSideIndex(s: GameState, p: number): number {
  return 2 * s.board[p] + s.side[p];
}

/** Whether seat p has a wonder stage left to build (nextStage(s, p) !== undefined). */
export function hasNextStage(s: GameState, p: number): boolean {
  return s.stages[p] < SIDE_STAGES[boardSideIndex(s, p)];
}

/** The packed cost of the stage seat p would build next; only when hasNextStage(s, p). */
export function nextStageCost(s: GameState, p: number): number {
  return SIDE_STAGE_COSTS[boardSideIndex(s, p) * MAX_STAGE_SLOTS + s.stages[p]];
}

/** Seats that choose a move now. */
export function actingSeats(s: GameState): number[] {
  const seats: number[] = [];
  for (let p = 0; p < s.n; p++) if (seatActs(s, p)) seats.push(p);
  return seats;
}

/** Whether seat p chooses a move now (one of actingSeats), without a list: for search loops. */
export function seatActs(s: GameState, p: number): boolean {
  return (
    s.phase === PHASE_TURN ||
    (s.phase === PHASE_SEVENTH && s.handLen[p] === 1 && s.pendingSeventh === p) ||
    (s.phase === PHASE_DISCARD_BUILD && s.pendingDiscardBuilds[p] > 0)
  );
}

/** Payments listed in 'all' mode: a card's builds, and the stage's (stale past the count in hand). */
const payBuf: number[] = [];
const stagePayBuf: number[] = [];

/**
 * Cuts a reused list to its first k entries. The hot paths refill their lists by index and cut
 * them afterwards rather than emptying them with `length = 0` and pushing: V8 drops an emptied
 * array's storage, so every call would regrow it (about 4x the cost for a list of 14 moves).
 */
export function setListLength(list: unknown[], k: number): void {
  if (list.length !== k) list.length = k;
}

/**
 * Fills `out` with seat p's legal moves (whatever it held is overwritten) and returns it. Empty when p does not act
 * in this phase.
 */
export function legalMoves(s: GameState, p: number, mode: MoveMode = 'cheapest', out: number[] = []): number[] {
  setListLength(out, writeLegalMoves(s, p, mode, out));
  return out;
}

/**
 * Per card type, the listing (a count of writeLegalMoves and distinctHandCards calls) that last
 * listed it (stamps.ts).
 */
const listedIn = new Int32Array(NUM_CARD_TYPES);
let listings = 0;

/**
 * Writes the distinct card types of seat p's hand into out, in hand order (larger games deal
 * duplicates), and returns how many there are. For policies that look at the hand's cards rather
 * than at every legal move.
 */
export function distinctHandCards(s: GameState, p: number, out: Int32Array): number {
  const base = handBase(s, p);
  const len = s.handLen[p];
  const listing = (listings = nextStamp(listedIn, listings));
  let count = 0;
  for (let i = 0; i < len; i++) {
    const c = s.hands[base + i];
    if (listedIn[c] === listing) continue;
    listedIn[c] = listing;
    out[count++] = c;
  }
  return count;
}

/**
 * legalMoves written over out[0..k), returning k; entries from k on are left as they were. For a
 * caller that draws one move and reuses its list: cutting the list to length on every call is a
 * few per cent of a random game.
 */
export function writeLegalMoves(s: GameState, p: number, mode: MoveMode, out: number[]): number {
  let k = 0;
  if (s.phase === PHASE_DISCARD_BUILD) {
    if (s.pendingDiscardBuilds[p] === 0) return 0;
    for (let c = 0; c < s.discard.length; c++) {
      if (s.discard[c] > 0 && !s.ownsName[ownsNameIndex(p, CARD_NAME_ID[c])]) {
        out[k++] = encodeMove(c, ACTION_BUILD_DISCARDED);
      }
    }
    return k;
  }
  if (s.phase === PHASE_OVER) return 0;
  if (s.phase === PHASE_SEVENTH && s.pendingSeventh !== p) return 0;
  const coins = s.coins[p];
  const all = mode === 'all';
  loadSeat(s, p);
  // The stage's payment does not depend on the card used: compute it once.
  let stagePay = NO_PAYMENT;
  let stagePays = 0;
  if (hasNextStage(s, p)) {
    if (all) {
      stagePays = allForLoaded(nextStageCost(s, p), coins, stagePayBuf, 0);
    } else {
      stagePay = cheapestForLoaded(nextStageCost(s, p), coins);
    }
  }
  const freeBuildReady = hasFreeBuild(s, p);
  const hand = handBase(s, p);
  const len = s.handLen[p];
  const listing = (listings = nextStamp(listedIn, listings));
  for (let i = 0; i < len; i++) {
    const c = s.hands[hand + i];
    // A card type listed already from this hand (larger games deal duplicates).
    if (listedIn[c] === listing) continue;
    listedIn[c] = listing;
    if (!all) {
      k = writeCheapestBuilds(s, p, c, freeBuildReady, out, k);
    } else if (!s.ownsName[ownsNameIndex(p, CARD_NAME_ID[c])]) {
      let buildIsFree = false;
      const coinCost = CARD_COIN_COST[c];
      if (hasChain(s, p, c)) {
        out[k++] = encodeMove(c, ACTION_BUILD);
        buildIsFree = true;
      } else if (coinCost <= coins) {
        const pays = allForLoaded(CARD_COST[c], coins - coinCost, payBuf, 0);
        for (let j = 0; j < pays; j++) {
          const pay = payBuf[j];
          out[k++] = encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay));
          if (pay === 0 && coinCost === 0) buildIsFree = true;
        }
      }
      if (freeBuildReady && !buildIsFree) out[k++] = encodeMove(c, ACTION_FREE_BUILD);
    }
    if (all) {
      for (let j = 0; j < stagePays; j++) out[k++] = encodeMove(c, ACTION_STAGE, paymentLeft(stagePayBuf[j]), paymentRight(stagePayBuf[j]));
    } else if (stagePay !== NO_PAYMENT) {
      out[k++] = encodeMove(c, ACTION_STAGE, paymentLeft(stagePay), paymentRight(stagePay));
    }
    out[k++] = encodeMove(c, ACTION_DISCARD);
  }
  return k;
}

/** Whether seat p may still use Olympia A's free build in this Age. */
export function hasFreeBuild(s: GameState, p: number): boolean {
  return (s.powers[p] & POWER_FREE_BUILD) !== 0 && s.freeBuildAge[p] !== s.age;
}

/**
 * Writes seat p's build moves for card c in cheapest mode, as legalMoves lists them, into out from
 * index k on, and returns the index after them: nothing if p already has a building of that name;
 * else the build (free when chained, otherwise at its cheapest payment if it has one), then
 * Olympia A's free build when `freeBuildReady` and building would cost something or be
 * impossible. loadSeat(s, p) must have been called for s. For policies that look at a few cards
 * of a hand rather than at every legal move.
 */
export function writeCheapestBuilds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number): number {
  if (s.ownsName[ownsNameIndex(p, CARD_NAME_ID[c])]) return k;
  let buildIsFree = false;
  const coinCost = CARD_COIN_COST[c];
  if (hasChain(s, p, c)) {
    out[k++] = encodeMove(c, ACTION_BUILD);
    buildIsFree = true;
  } else if (coinCost <= s.coins[p]) {
    const pay = cheapestForLoaded(CARD_COST[c], s.coins[p] - coinCost);
    if (pay !== NO_PAYMENT) {
      out[k++] = encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay));
      if (pay === 0 && coinCost === 0) buildIsFree = true;
    }
  }
  if (freeBuildReady && !buildIsFree) out[k++] = encodeMove(c, ACTION_FREE_BUILD);
  return k;
}

/**
 * The cheapest payment of seat p's next wonder stage, or NO_PAYMENT when there is none or it cannot
 * be paid. loadSeat(s, p) must have been called for s.
 */
export function cheapestStagePayment(s: GameState, p: number): number {
  return hasNextStage(s, p) ? cheapestForLoaded(nextStageCost(s, p), s.coins[p]) : NO_PAYMENT;
}

const checkBuf: number[] = [];

/**
 * Whether seat p may play move m now: p acts in this phase and m is one of the moves legalMoves
 * lists in 'all' mode, so a payment must be undominated (paying a neighbour more than a listed
 * split would is refused). Every move legalMoves gives passes. For moves
 * from outside (records, the API, hand-written positions); step() trusts its input.
 */
export function isLegalMove(s: GameState, p: number, m: number): boolean {
  if (!Number.isInteger(p) || p < 0 || p >= s.n) return false;
  return legalMoves(s, p, 'all', checkBuf).includes(m);
}
