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
  CARDS,
  NO_PAYMENT,
  RULES_PRICING,
  cheapestSearchTrail,
  cheapestStagePayment,
  encodeMove,
  hasChain,
  nextStage,
  ownsNameIndex,
  paymentLeft,
  paymentRight,
  writeCheapestBuilds,
  type DrawPricing,
  type GameState,
} from '../engine/index.js';

const trailPays: number[] = [];
const trailNodes: number[] = [];

/** cheapestForLoaded's answer as its search has it after `cap` nodes (cap > 0). */
function cappedCheapest(costPacked: number, maxCoins: number, cap: number): number {
  for (let i = cheapestSearchTrail(costPacked, maxCoins, trailPays, trailNodes, cap) - 1; i >= 0; i--) {
    if (trailNodes[i] <= cap) return trailPays[i];
  }
  return NO_PAYMENT;
}

/** writeCheapestBuilds with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function writeCappedBuilds(s: GameState, p: number, c: number, freeBuildReady: boolean, out: number[], k: number, cap: number): number {
  // Where no payment is searched (a building of that name owned, a chain), the rules' list.
  if (cap === 0 || s.ownsName[ownsNameIndex(p, CARDS[c].nameId)] || hasChain(s, p, c)) return writeCheapestBuilds(s, p, c, freeBuildReady, out, k);
  const coinCost = CARDS[c].coinCost;
  const pay = cappedCheapest(CARDS[c].costPacked, s.coins[p] - coinCost, cap);
  if (pay !== NO_PAYMENT) out[k++] = encodeMove(c, ACTION_BUILD, paymentLeft(pay), paymentRight(pay));
  // Olympia's free build, as the rules offer it: when building would cost something or be impossible.
  if (freeBuildReady && !(pay === 0 && coinCost === 0)) out[k++] = encodeMove(c, ACTION_FREE_BUILD);
  return k;
}

/** cheapestStagePayment with the payment search capped at `cap` nodes (0: none); loadSeat(s, p) done. */
export function cappedStagePayment(s: GameState, p: number, cap: number): number {
  if (cap === 0) return cheapestStagePayment(s, p);
  const stage = nextStage(s, p);
  return stage ? cappedCheapest(stage.costPacked, s.coins[p], cap) : NO_PAYMENT;
}

/** Per cap, the pricing a lazy draw (drawUniformMove) uses: made once, a draw runs at every playout step. */
const pricings = new Map<number, DrawPricing>([[0, RULES_PRICING]]);

/** The draw pricing of a playout whose payment search is capped at `cap` nodes (0: the rules'). */
export function cappedPricing(cap: number): DrawPricing {
  let pricing = pricings.get(cap);
  if (!pricing) {
    pricing = {
      builds: (s, p, c, freeBuildReady, out, k) => writeCappedBuilds(s, p, c, freeBuildReady, out, k, cap),
      stage: (s, p) => cappedStagePayment(s, p, cap),
    };
    pricings.set(cap, pricing);
  }
  return pricing;
}
