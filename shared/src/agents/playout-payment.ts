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

/**
 * Capped answers kept, direct-mapped: playouts from one root price the same cards against the same
 * sources again and again, and the engine keeps only uncapped answers. A capped answer depends on
 * the seat's sources (its source stamp), the units left to find, the coins and the cap: all four
 * are the key.
 */
const KEPT_BITS = 10;
const keptStamp = new Float64Array(1 << KEPT_BITS).fill(-1);
const keptMissing = new Int32Array(1 << KEPT_BITS);
const keptCoins = new Int32Array(1 << KEPT_BITS);
const keptCap = new Int32Array(1 << KEPT_BITS);
const keptPay = new Int32Array(1 << KEPT_BITS);

/** cheapestForLoaded's answer as its search has it after `cap` nodes (cap > 0); loadSeat(s, p) done. */
function cappedCheapest(s: GameState, p: number, costPacked: number, maxCoins: number, cap: number): number {
  if (maxCoins < 0) return NO_PAYMENT;
  const missing = missingForLoaded(costPacked);
  if (missing === 0) return 0;
  const stamp = s.sourceStamps[p];
  const slot = (Math.imul(missing ^ Math.imul(stamp, 0x85ebca6b) ^ (maxCoins << 20) ^ (cap << 26), 0x9e3779b1) >>> (32 - KEPT_BITS));
  if (keptStamp[slot] === stamp && keptMissing[slot] === missing && keptCoins[slot] === maxCoins && keptCap[slot] === cap) return keptPay[slot];
  let pay = NO_PAYMENT;
  for (let i = cheapestSearchTrail(costPacked, maxCoins, trailPays, trailNodes, cap) - 1; i >= 0; i--) {
    if (trailNodes[i] <= cap) {
      pay = trailPays[i];
      break;
    }
  }
  keptStamp[slot] = stamp;
  keptMissing[slot] = missing;
  keptCoins[slot] = maxCoins;
  keptCap[slot] = cap;
  keptPay[slot] = pay;
  return pay;
}

/** writeCheapestBuilds with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function writeCappedBuilds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number, cap: number): number {
  // Where no payment is searched (a building of that name owned, a chain), the rules' list.
  // (The card's fields from the engine's typed arrays, not the card objects: this runs for most
  // cards a playout looks at.)
  if (cap === 0 || s.ownsName[ownsNameIndex(p, CARD_NAME_ID[c])] || hasChain(s, p, c)) return writeCheapestBuilds(s, p, c, freeBuildReady, out, k);
  const coinCost = CARD_COIN_COST[c];
  const pay = cappedCheapest(s, p, CARD_COST[c], s.coins[p] - coinCost, cap);
  if (pay !== NO_PAYMENT) out[k++] = encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay));
  // Olympia's free build, as the rules offer it: when building would cost something or be impossible.
  if (freeBuildReady && !(pay === 0 && coinCost === 0)) out[k++] = encodeMove(c, ACTION_FREE_BUILD);
  return k;
}

/** cheapestStagePayment with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function cappedStagePayment(s: GameState, p: number, cap: number): number {
  if (cap === 0) return cheapestStagePayment(s, p);
  return hasNextStage(s, p) ? cappedCheapest(s, p, nextStageCost(s, p), s.coins[p], cap) : NO_PAYMENT;
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
