/**
 * The playouts' capped payment search (the `tl` option): Robilliard et al. (2014) limit the trade
 * branches their playouts explore per card, and a payment not found within the limit counts as
 * none. The cap is an approximation a search chooses, not a rule, so it lives here: the engine's
 * payment search always runs to its answer, and a capped search is that search stopped after
 * `cap` nodes (cheapestSearchTrail tells where it found each better payment on its way).
 * A cap of 0 is no cap: the rules' own functions answer.
 */
import {
  ACTION_BUILD,
  ACTION_FREE_BUILD,
  CARD_COIN_COST,
  CARD_COST,
  CARD_NAME_ID,
  NO_PAYMENT,
  RULES_PRICING,
  cheapestSearchTrail,
  cheapestStagePayment,
  encodeMove,
  missingForLoaded,
  NO_TRAIL_NAME,
  trailNameForLoaded,
  TRAIL_NAME_WORDS,
  hasChain,
  hasNextStage,
  nextStageCost,
  ownsNameIndex,
  paymentLeft,
  paymentRight,
  writeCheapestBuilds,
  type DrawPricing,
  type GameState,
} from '../engine/index.js';

const trailPays: number[] = [];
const trailNodes: number[] = [];

/*
 * Capped answers kept, direct-mapped, by the name of the trail that decides them
 * (trailNameForLoaded) and the cap: the same answer for every seat, state and game whose search
 * would walk the same trail, so that the answers serve every world and playout of a thread. Kept
 * per seat and source stamp instead, as before, 28 % of the capped payments an `mcts-robilliard`
 * game asks were found kept; most of the rest were searched again for a state a step later. Each
 * slot is the name's words (the cap beside the budget in the last) and the payment, compared in
 * full: no hash decides an answer. A name's word 0 is never negative: −1 marks an empty slot.
 */
const KEPT_BITS = 14;
const KEPT_STRIDE = 8;
const KEPT_PAY = TRAIL_NAME_WORDS;
const kept = new Int32Array(KEPT_STRIDE << KEPT_BITS);
for (let i = 0; i < kept.length; i += KEPT_STRIDE) kept[i] = -1;
const name = new Int32Array(TRAIL_NAME_WORDS);
// The lookup below compares the seven words one by one, written out.
if (TRAIL_NAME_WORDS !== 7) throw new Error(`cappedCheapest compares 7 words of a trail's name; the engine names a trail with ${TRAIL_NAME_WORDS}`);
/** The budget in the name's last word is at most 2 × 16 units; the cap goes above it. */
const CAP_SHIFT = 8;

/**
 * cheapestForLoaded's answer as its search has it after `cap` nodes (cap > 0, whole): the best
 * payment found by then, or NO_PAYMENT; loadSeat(s, p) done.
 */
export function cappedCheapest(costPacked: number, maxCoins: number, cap: number): number {
  if (maxCoins < 0) return NO_PAYMENT;
  const hash = trailNameForLoaded(costPacked, maxCoins, name);
  // No name: nothing to search (the seat's fixed production covers the cost), or, rarely, a list
  // too long to name.
  if (hash === NO_TRAIL_NAME) return missingForLoaded(costPacked) === 0 ? 0 : searchCapped(costPacked, maxCoins, cap);
  const last = name[6] | (cap << CAP_SHIFT);
  const at = ((Math.imul(hash ^ cap, 0x85ebca6b) >>> (32 - KEPT_BITS)) * KEPT_STRIDE) | 0;
  const same =
    kept[at] === name[0] && kept[at + 1] === name[1] && kept[at + 2] === name[2] && kept[at + 3] === name[3] && kept[at + 4] === name[4] && kept[at + 5] === name[5] && kept[at + 6] === last;
  if (same) return kept[at + KEPT_PAY];
  const pay = searchCapped(costPacked, maxCoins, cap);
  for (let i = 0; i < TRAIL_NAME_WORDS - 1; i++) kept[at + i] = name[i];
  kept[at + TRAIL_NAME_WORDS - 1] = last;
  kept[at + KEPT_PAY] = pay;
  return pay;
}

/** The best payment the search has found after `cap` nodes, from its trail (NO_PAYMENT: none). */
function searchCapped(costPacked: number, maxCoins: number, cap: number): number {
  for (let i = cheapestSearchTrail(costPacked, maxCoins, trailPays, trailNodes, cap) - 1; i >= 0; i--) {
    if (trailNodes[i] <= cap) return trailPays[i];
  }
  return NO_PAYMENT;
}

/** writeCheapestBuilds with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function writeCappedBuilds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number, cap: number): number {
  // Where no payment is searched (a building of that name owned, a chain), the rules' list.
  // (The card's fields from the engine's typed arrays, not the card objects: this runs for most
  // cards a playout looks at.)
  if (cap === 0 || s.ownsName[ownsNameIndex(p, CARD_NAME_ID[c])] || hasChain(s, p, c)) return writeCheapestBuilds(s, p, c, freeBuildReady, out, k);
  const coinCost = CARD_COIN_COST[c];
  const pay = cappedCheapest(CARD_COST[c], s.coins[p] - coinCost, cap);
  if (pay !== NO_PAYMENT) out[k++] = encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay));
  // Olympia's free build, as the rules offer it: when building would cost something or be impossible.
  if (freeBuildReady && !(pay === 0 && coinCost === 0)) out[k++] = encodeMove(c, ACTION_FREE_BUILD);
  return k;
}

/** cheapestStagePayment with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function cappedStagePayment(s: GameState, p: number, cap: number): number {
  if (cap === 0) return cheapestStagePayment(s, p);
  return hasNextStage(s, p) ? cappedCheapest(nextStageCost(s, p), s.coins[p], cap) : NO_PAYMENT;
}

/**
 * A lazy draw's pricing with the payment search capped at `cap` nodes. The cap is the pricing's
 * own data and the methods are the class's: draws under every cap call the same two functions, so
 * the draw's call sites see one target however many caps a process plays with (a closure per cap
 * was a target of its own).
 */
class CappedPricing implements DrawPricing {
  constructor(private readonly cap: number) {}

  builds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number): number {
    return writeCappedBuilds(s, p, c, freeBuildReady, out, k, this.cap);
  }

  stage(s: GameState, p: number): number {
    return cappedStagePayment(s, p, this.cap);
  }
}

/** Per cap, the pricing a lazy draw (drawUniformMove) uses: made once, a draw runs at every playout step. */
const pricings = new Map<number, DrawPricing>([[0, RULES_PRICING]]);

/** The draw pricing of a playout whose payment search is capped at `cap` nodes (0: the rules'). */
export function cappedPricing(cap: number): DrawPricing {
  let pricing = pricings.get(cap);
  if (!pricing) {
    pricing = new CappedPricing(cap);
    pricings.set(cap, pricing);
  }
  return pricing;
}
