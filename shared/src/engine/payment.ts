/**
 * Paying a resource cost: from the city's own production (fixed and one-of), then by buying from
 * the two neighbours. A payment is the pair (coins to the left neighbour, coins to the right one).
 *
 * What can be bought: a neighbour's tradable production only (its board resource, brown and grey
 * cards, one-of brown cards included) — never Forum, Caravansery or wonder-stage production. The
 * neighbour's own use never limits it. A unit costs 2 coins, or 1 with the matching discount
 * (West Trading Post: raw materials from the left; East Trading Post: raw from the right;
 * Marketplace: manufactured goods from both; Olympia B: raw from both).
 *
 * The search assigns each missing unit a source (an own one-of card, a neighbour's fixed
 * production, a neighbour's one-of card) by depth-first search with symmetry breaking; costs are
 * at most seven units, so this is small. It uses module-level scratch buffers: it allocates
 * nothing, and it is not re-entrant.
 */
import { CHOICE_MASKS, CHOICE_MASK_INDEX, DISCOUNT_MANUFACTURED, DISCOUNT_RAW_LEFT, DISCOUNT_RAW_RIGHT, packResources } from './catalog.js';
import {
  MAX_CHOICES,
  MAX_PLAYERS,
  PACKED_OWN_CHOICES,
  PACKED_OWN_FIXED,
  PACKED_TRADE_CHOICES,
  PACKED_TRADE_FIXED,
  choiceBase,
  nonZeroLanes,
  packedIndex,
  resourceIndex,
  type GameState,
} from './state.js';
import { NUM_RESOURCES } from './resources.js';

/** A payment packed into one number: left in the low byte, right in the next. */
export const packPayment = (left: number, right: number): number => left | (right << 8);
export const paymentLeft = (pay: number): number => pay & 0xff;
export const paymentRight = (pay: number): number => (pay >> 8) & 0xff;
export const NO_PAYMENT = -1;

const MAX_UNITS = 16;
const MAX_SOURCES = MAX_CHOICES + 2 + 2 * MAX_CHOICES;

/*
 * What the search reads of a seat's side of a payment: its own one-of productions and its
 * neighbours' tradable production as sources, in both orders, and the prices its discounts give.
 * Every seat has a block of its own in these arrays, refilled only when the seat's source stamp
 * (GameState.sourceStamps) has changed since it was read: most turns change few seats' sources.
 * Sources: own one-of productions first (free), then each side's fixed production and one-of
 * productions; `orderLeftFirst` / `orderRightFirst` list them (by index into the source arrays)
 * with the cheaper side first, so the first complete payment found is already a good bound. Seat
 * p's block starts at p × MAX_SOURCES in the source and order arrays and at resourceIndex(p, 0)
 * in the per-resource ones (laid out as the state's), so the search indexes them with no copy.
 */
const priceLeft = new Int32Array(MAX_PLAYERS * NUM_RESOURCES);
const priceRight = new Int32Array(MAX_PLAYERS * NUM_RESOURCES);
/** Units of each resource the neighbours make outright; the search lends them out and back. */
const leftFixed = new Int32Array(MAX_PLAYERS * NUM_RESOURCES);
const rightFixed = new Int32Array(MAX_PLAYERS * NUM_RESOURCES);
const srcMask = new Int32Array(MAX_PLAYERS * MAX_SOURCES);
/** 0 = own (free), 1 = left, 2 = right. */
const srcSide = new Int32Array(MAX_PLAYERS * MAX_SOURCES);
/** 1 for a neighbour's fixed production (reusable while its count lasts). */
const srcFixed = new Uint8Array(MAX_PLAYERS * MAX_SOURCES);
const srcUsed = new Uint8Array(MAX_PLAYERS * MAX_SOURCES);
const orderLeftFirst = new Int32Array(MAX_PLAYERS * MAX_SOURCES);
const orderRightFirst = new Int32Array(MAX_PLAYERS * MAX_SOURCES);
/** Per seat: the source stamp its block was read at (−1: never), and the state's player count. */
const readStamp = new Float64Array(MAX_PLAYERS).fill(-1);
const readPlayers = new Uint8Array(MAX_PLAYERS);
/** Per seat: its number of sources, and the masks below. */
const sourceCount = new Int32Array(MAX_PLAYERS);
const seatOwnHas = new Int32Array(MAX_PLAYERS);
const seatLeftHas = new Int32Array(MAX_PLAYERS);
const seatRightHas = new Int32Array(MAX_PLAYERS);
const seatChoiceUnion = new Int32Array(MAX_PLAYERS);

// The loaded seat's block: where it starts, and its end in the order arrays.
let resBase = 0;
let srcBase = 0;
let srcEnd = 0;
/** Union of all one-of masks: a cost missing none of them needs no search. */
let choiceUnion = 0;
/** Resources each party can give at all. */
let ownHas = 0;
let leftHas = 0;
let rightHas = 0;

// Scratch state for one search.
const unitRes = new Int32Array(MAX_UNITS);
/** resBase + the unit's resource: its index into the per-resource arrays. */
const unitAt = new Int32Array(MAX_UNITS);
/** Position in the order arrays of the source that covers the unit. */
const unitPos = new Int32Array(MAX_UNITS);
/** Lower bound on what units u.. will cost at least. */
const lowerBound = new Int32Array(MAX_UNITS + 1);
let numUnits = 0;
let budget = 0;
let allMode = false;
let bestTotal = 0;
let bestLeft = 0;
let bestRight = 0;
/**
 * What an allMode search found, per payment to the left neighbour: the least payment to the right
 * one that goes with it (NONE_FOUND: none). Only those can be on the Pareto front. Payments per
 * side are at most 2 coins × MAX_UNITS.
 */
const rightForLeft = new Int32Array(2 * MAX_UNITS + 1);
const NONE_FOUND = 0x7fffffff;
/** The Pareto front allForLoaded reads off rightForLeft, before writing it out reversed. */
const frontBuf = new Int32Array(2 * MAX_UNITS + 1);
/**
 * Whether the running search keeps a trail (cheapestSearchTrail): the nodes it has visited, and
 * each payment that beat the ones found before, with the node it was found at.
 */
let tracing = false;
let nodesVisited = 0;
let trailHorizon = Infinity;
let trailLength = 0;
let trailPays: number[] = [];
let trailNodes: number[] = [];

function dfs(u: number, paidLeft: number, paidRight: number): void {
  // A trail's horizon: the nodes past it are not visited (their payments are not asked for).
  if (tracing && ++nodesVisited > trailHorizon) return;
  if (u === numUnits) {
    if (allMode) {
      if (paidRight < rightForLeft[paidLeft]) rightForLeft[paidLeft] = paidRight;
    } else {
      const total = paidLeft + paidRight;
      // Least total; ties go to the payment that pays the right neighbour least.
      if (total < bestTotal || (total === bestTotal && paidRight < bestRight)) {
        bestTotal = total;
        bestLeft = paidLeft;
        bestRight = paidRight;
        if (tracing) {
          trailPays[trailLength] = packPayment(paidLeft, paidRight);
          trailNodes[trailLength++] = nodesVisited;
        }
      }
    }
    return;
  }
  const r = unitRes[u];
  const at = unitAt[u];
  const bit = 1 << r;
  const order = priceRight[at] < priceLeft[at] ? orderRightFirst : orderLeftFirst;
  const rest = lowerBound[u + 1];
  // Units of one resource take sources in non-decreasing order: no permutations of one choice.
  const first = u > 0 && unitRes[u - 1] === r ? unitPos[u - 1] : srcBase;
  for (let pos = first; pos < srcEnd; pos++) {
    const k = order[pos];
    if (!(srcMask[k] & bit)) continue;
    const side = srcSide[k];
    const fixed = srcFixed[k];
    // takeSource and giveBackSource inlined with these locals: the calls cost a random game 2–3 %.
    if (fixed) {
      if ((side === 1 ? leftFixed[at] : rightFixed[at]) === 0) continue;
    } else if (srcUsed[k]) {
      continue;
    }
    let l = paidLeft;
    let rt = paidRight;
    if (side === 1) l += priceLeft[at];
    else if (side === 2) rt += priceRight[at];
    const bound = l + rt + rest;
    if (bound > budget) continue;
    if (!allMode && (bound > bestTotal || (bound === bestTotal && rt >= bestRight))) continue;
    unitPos[u] = pos;
    if (fixed) {
      if (side === 1) leftFixed[at]--;
      else rightFixed[at]--;
      dfs(u + 1, l, rt);
      if (side === 1) leftFixed[at]++;
      else rightFixed[at]++;
    } else {
      srcUsed[k] = 1;
      dfs(u + 1, l, rt);
      srcUsed[k] = 0;
    }
  }
}

/** Appends a source to the block being read; returns the index after it. */
function addSource(k: number, mask: number, side: number, fixed: number): number {
  srcMask[k] = mask;
  srcSide[k] = side;
  srcFixed[k] = fixed;
  srcUsed[k] = 0;
  return k + 1;
}

/** Appends seat's one-of productions (masks[choiceBase(seat) ..] of length len) as sources of `side`. */
function addChoices(k: number, masks: Uint8Array, len: number, seat: number, side: number): number {
  for (let i = 0; i < len; i++) k = addSource(k, masks[choiceBase(seat) + i], side, 0);
  return k;
}

/** The resources any of seat's one-of productions can give. */
function unionOf(masks: Uint8Array, len: number, seat: number): number {
  let union = 0;
  for (let i = 0; i < len; i++) union |= masks[choiceBase(seat) + i];
  return union;
}

/**
 * Reads what seat p can pay with: own production, the neighbours' tradable production, the prices,
 * and the sources in both orders. Valid until the state changes; the functions below that take
 * (s, p) call it, and legalMoves calls it once for all the cards of a hand.
 */
export function loadSeat(s: GameState, p: number): void {
  ownFixedPacked = s.packed[packedIndex(p, PACKED_OWN_FIXED)];
  // Only when it changes, as uniform-draw.ts stores its state: the write barrier's slow path.
  if (loadedState !== s) loadedState = s;
  loadedSeat = p;
  neighboursLoaded = false;
}

const GUARDS = 0x8888888;
const LOW_BITS = 0x7777777;
let ownFixedPacked = 0;
let loadedState: GameState | undefined;
let loadedSeat = 0;
let neighboursLoaded = false;

/** The neighbours' side of loadSeat, read only when some cost is not covered outright. */
function loadNeighbours(): void {
  neighboursLoaded = true;
  const s = loadedState!;
  const p = loadedSeat;
  if (readStamp[p] !== s.sourceStamps[p] || readPlayers[p] !== s.n) readSources(s, p);
  resBase = resourceIndex(p, 0);
  srcBase = p * MAX_SOURCES;
  srcEnd = srcBase + sourceCount[p];
  choiceUnion = seatChoiceUnion[p];
  ownHas = seatOwnHas[p];
  leftHas = seatLeftHas[p];
  rightHas = seatRightHas[p];
}

/** Fills seat p's block from s. */
function readSources(s: GameState, p: number): void {
  readStamp[p] = s.sourceStamps[p];
  readPlayers[p] = s.n;
  const left = s.left(p);
  const right = s.right(p);
  const d = s.discount[p];
  const rb = resourceIndex(p, 0);
  let lHas = 0;
  let rHas = 0;
  for (let r = 0; r < 7; r++) {
    const l = (leftFixed[rb + r] = s.tradeFixed[resourceIndex(left, r)]);
    const rt = (rightFixed[rb + r] = s.tradeFixed[resourceIndex(right, r)]);
    if (l) lHas |= 1 << r;
    if (rt) rHas |= 1 << r;
    if (r < 4) {
      priceLeft[rb + r] = d & DISCOUNT_RAW_LEFT ? 1 : 2;
      priceRight[rb + r] = d & DISCOUNT_RAW_RIGHT ? 1 : 2;
    } else {
      priceLeft[rb + r] = priceRight[rb + r] = d & DISCOUNT_MANUFACTURED ? 1 : 2;
    }
  }
  const base = p * MAX_SOURCES;
  let k = addChoices(base, s.choices, s.choiceLen[p], p, 0);
  const ownEnd = k;
  k = addSource(k, 0x7f, 1, 1);
  k = addChoices(k, s.tradeChoices, s.tradeChoiceLen[left], left, 1);
  const rightStart = k;
  k = addSource(k, 0x7f, 2, 1);
  k = addChoices(k, s.tradeChoices, s.tradeChoiceLen[right], right, 2);
  const own = unionOf(s.choices, s.choiceLen[p], p);
  const leftChoices = unionOf(s.tradeChoices, s.tradeChoiceLen[left], left);
  const rightChoices = unionOf(s.tradeChoices, s.tradeChoiceLen[right], right);
  sourceCount[p] = k - base;
  seatOwnHas[p] = own;
  seatLeftHas[p] = lHas | leftChoices;
  seatRightHas[p] = rHas | rightChoices;
  seatChoiceUnion[p] = own | leftChoices | rightChoices;
  // Own sources first in both orders, then the cheaper side's.
  for (let i = base; i < ownEnd; i++) orderLeftFirst[i] = orderRightFirst[i] = i;
  const leftLen = rightStart - ownEnd;
  const rightLen = k - rightStart;
  for (let i = 0; i < leftLen; i++) {
    orderLeftFirst[ownEnd + i] = ownEnd + i;
    orderRightFirst[ownEnd + rightLen + i] = ownEnd + i;
  }
  for (let i = 0; i < rightLen; i++) {
    orderLeftFirst[ownEnd + leftLen + i] = rightStart + i;
    orderRightFirst[ownEnd + i] = rightStart + i;
  }
}

/**
 * The units of a packed cost not covered by the loaded seat's fixed production, packed the same
 * way (0: covered). SWAR: with a guard bit set in every 4-bit lane, (cost | guards) − fixed leaves
 * a lane's guard set exactly where cost ≥ fixed, and its low bits then hold cost − fixed.
 */
function missingPacked(costPacked: number): number {
  const x = (costPacked | GUARDS) - ownFixedPacked;
  const ge = (x & GUARDS) >>> 3;
  return x & LOW_BITS & (ge * 7);
}

/**
 * What of a packed cost seat p (loaded with loadSeat) must find beyond its fixed production, packed
 * the same way (0: nothing). With s.sourceStamps[p] it names everything a payment search for that
 * cost reads, so that a caller may keep the search's answers (agents/playout-payment.ts does).
 */
export function missingForLoaded(costPacked: number): number {
  return missingPacked(costPacked);
}

/** Lists the missing units (resources in increasing order); returns their mask. */
function missingUnits(missing: number): number {
  numUnits = 0;
  let mask = 0;
  while (missing !== 0) {
    const r = (31 - Math.clz32(missing & -missing)) >> 2;
    const k = (missing >>> (4 * r)) & 7;
    mask |= 1 << r;
    for (let i = 0; i < k; i++) {
      unitAt[numUnits] = resBase + r;
      unitRes[numUnits++] = r;
    }
    missing &= ~(0xf << (4 * r));
  }
  return mask;
}

/** Lower bounds on the cost of units u.. ; false when some missing unit has no source at all. */
function setLowerBounds(): boolean {
  lowerBound[numUnits] = 0;
  for (let u = numUnits - 1; u >= 0; u--) {
    const at = unitAt[u];
    const bit = 1 << unitRes[u];
    let cheapest: number;
    if (ownHas & bit) cheapest = 0;
    else if (leftHas & bit) cheapest = rightHas & bit ? Math.min(priceLeft[at], priceRight[at]) : priceLeft[at];
    else if (rightHas & bit) cheapest = priceRight[at];
    else return false;
    lowerBound[u] = lowerBound[u + 1] + cheapest;
  }
  return true;
}

/**
 * Without one-of sources each resource is bought on its own: the cheaper side first (the left one
 * on equal prices), as far as its production goes. Sets bestLeft/bestRight; false if impossible.
 */
function buyWithoutChoices(): boolean {
  let paidLeft = 0;
  let paidRight = 0;
  for (let u = 0; u < numUnits; ) {
    const r = unitRes[u];
    const at = unitAt[u];
    let k = 0;
    while (u + k < numUnits && unitRes[u + k] === r) k++;
    u += k;
    const leftFirst = priceLeft[at] <= priceRight[at];
    const firstSupply = leftFirst ? leftFixed[at] : rightFixed[at];
    const secondSupply = leftFirst ? rightFixed[at] : leftFixed[at];
    if (k > firstSupply + secondSupply) return false;
    const fromFirst = Math.min(k, firstSupply);
    const fromSecond = k - fromFirst;
    if (leftFirst) {
      paidLeft += fromFirst * priceLeft[at];
      paidRight += fromSecond * priceRight[at];
    } else {
      paidRight += fromFirst * priceRight[at];
      paidLeft += fromSecond * priceLeft[at];
    }
  }
  bestLeft = paidLeft;
  bestRight = paidRight;
  bestTotal = paidLeft + paidRight;
  return true;
}

/**
 * The cheapest way to cover a single missing unit, at any price: an own one-of production (free),
 * else the cheaper neighbour that makes it (the left one on equal prices, as the search's tie rule
 * of paying the right neighbour least gives). Sets bestLeft/bestRight/bestTotal as the search
 * does; IMPOSSIBLE when no one makes it. Most searches of a playout are for one unit, and this
 * answers them without setting up the search.
 */
function cheapestSingleUnit(): number {
  const at = unitAt[0];
  const bit = 1 << unitRes[0];
  bestLeft = bestRight = 0;
  if (!(ownHas & bit)) {
    const left = (leftHas & bit) !== 0;
    const right = (rightHas & bit) !== 0;
    if (left && (!right || priceLeft[at] <= priceRight[at])) bestLeft = priceLeft[at];
    else if (right) bestRight = priceRight[at];
    else return IMPOSSIBLE;
  }
  bestTotal = bestLeft + bestRight;
  return packPayment(bestLeft, bestRight);
}

/*
 * Kept results of uncapped cheapest-payment searches, named by what decides them: the missing
 * units, and of the seat's sources only what can give one of those units — its prices for the
 * missing resources, its neighbours' tradable fixed units of them (as many as are missing at most)
 * and the counts of its own and its neighbours' one-of productions that offer any of them. Two
 * seats, states or games with the same name have the same cheapest payment, so the answers serve
 * every world of a search and every game of a thread: 85 % of the payments a 3-player random game
 * or an `mcts-strong` iteration asks are found kept (kept per seat and source stamp instead, as
 * before, 11–19 %; with the payments answered at no cost, the `mcts` first decision ran 1.8 times
 * as fast). The answer does not depend on the budget: the cheapest payment is the same whatever the
 * coins, only whether it is affordable changes. A search that found nothing within its budget keeps
 * that budget instead.
 *
 * The name is six 32-bit words, compared in full (no hash decides an answer), read off the
 * state's packed production (GameState.packed):
 *   0: the missing units (7 lanes of 4 bits) and the discounts that price them (3 bits above);
 *   1, 2: the left and right neighbours' tradable fixed units, per missing lane the least of
 *      theirs and the units missing;
 *   3, 4, 5: the counts of own one-of productions, and of the left and right neighbours'
 *      tradable ones, of the masks that offer a missing resource (4 bits a mask).
 */
/** Per set of missing resources: the 4-bit count fields of the one-of masks that offer one of them. */
const FIELDS_MEETING = Int32Array.from({ length: 128 }, (_, missing) => CHOICE_MASKS.reduce((f, m, i) => (m & missing ? f | (15 << (4 * i)) : f), 0));
const RAW_LANES = 0xffff;
const MANUFACTURED_LANES = 0xfff0000;

/** Per lane of two packed costs, the lesser (lanes hold 0–7). */
function laneMin(a: number, b: number): number {
  const aAtLeastB = ((((a | GUARDS) - b) & GUARDS) >>> 3) * 7;
  return (b & aAtLeastB) | (a & (LOW_BITS ^ aAtLeastB));
}

/** A name's word 0: the missing units `packed` and, above them, the discounts `d` that price them. */
function pricedUnits(packed: number, d: number): number {
  const prices = (packed & RAW_LANES ? d & (DISCOUNT_RAW_LEFT | DISCOUNT_RAW_RIGHT) : 0) | (packed & MANUFACTURED_LANES ? d & DISCOUNT_MANUFACTURED : 0);
  return packed | (prices << 28);
}

const KEPT_BITS = 16;
/** Kept best: no payment at any price. */
const IMPOSSIBLE = -1;
/** Kept best: none within keptBudget (the search stopped there). */
const ABOVE_BUDGET = -2;
/**
 * The kept answers, a slot of KEPT_STRIDE words each: the name's six words, the best payment and
 * the budget it was searched within. One array, so that a lookup reads one cache line (with an
 * array per word, the lookup's compare was a quarter of the function's time, stalled on memory). A
 * name's word 0 is never negative: −1 marks an empty slot.
 */
const KEPT_STRIDE = 8;
const KEPT_BEST = 6;
const KEPT_BUDGET = 7;
const kept = new Int32Array(KEPT_STRIDE << KEPT_BITS);
for (let i = 0; i < kept.length; i += KEPT_STRIDE) kept[i] = -1;

/** cheapestPayment for the seat last loaded with loadSeat. */
export function cheapestForLoaded(costPacked: number, maxCoins: number): number {
  if (maxCoins < 0) return NO_PAYMENT;
  const packed = missingPacked(costPacked);
  if (packed === 0) return 0;
  const s = loadedState!;
  const p = loadedSeat;
  const left = s.left(p);
  const right = s.right(p);
  const fields = FIELDS_MEETING[nonZeroLanes(packed)];
  const w0 = pricedUnits(packed, s.discount[p]);
  const w1 = laneMin(packed, s.packed[packedIndex(left, PACKED_TRADE_FIXED)]);
  const w2 = laneMin(packed, s.packed[packedIndex(right, PACKED_TRADE_FIXED)]);
  const w3 = s.packed[packedIndex(p, PACKED_OWN_CHOICES)] & fields;
  const w4 = s.packed[packedIndex(left, PACKED_TRADE_CHOICES)] & fields;
  const w5 = s.packed[packedIndex(right, PACKED_TRADE_CHOICES)] & fields;
  const at =
    (Math.imul(w0 ^ Math.imul(w1, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35) ^ Math.imul(w3, 0x27d4eb2f) ^ Math.imul(w4, 0x165667b1) ^ Math.imul(w5, 0x7feb352d), 0x9e3779b1) >>>
      (32 - KEPT_BITS)) *
    KEPT_STRIDE;
  if (kept[at] === w0 && kept[at + 1] === w1 && kept[at + 2] === w2 && kept[at + 3] === w3 && kept[at + 4] === w4 && kept[at + 5] === w5) {
    const best = kept[at + KEPT_BEST];
    if (best >= 0) return paymentLeft(best) + paymentRight(best) <= maxCoins ? best : NO_PAYMENT;
    if (best === IMPOSSIBLE || maxCoins <= kept[at + KEPT_BUDGET]) return NO_PAYMENT;
  }
  const answer = searchForLoaded(packed, maxCoins);
  kept[at] = w0;
  kept[at + 1] = w1;
  kept[at + 2] = w2;
  kept[at + 3] = w3;
  kept[at + 4] = w4;
  kept[at + 5] = w5;
  kept[at + KEPT_BEST] = foundBest;
  kept[at + KEPT_BUDGET] = maxCoins;
  return answer;
}

/** What the last searchForLoaded found: a payment, IMPOSSIBLE, or ABOVE_BUDGET. */
let foundBest = IMPOSSIBLE;

/** The cheapest payment of the missing units `packed` (not 0) within maxCoins, or NO_PAYMENT; sets foundBest. */
function searchForLoaded(packed: number, maxCoins: number): number {
  if (!neighboursLoaded) loadNeighbours();
  const missing = missingUnits(packed);
  let best: number;
  if (numUnits === 1) {
    best = cheapestSingleUnit();
  } else if ((choiceUnion & missing) === 0) {
    best = buyWithoutChoices() ? packPayment(bestLeft, bestRight) : IMPOSSIBLE;
  } else if (!setLowerBounds()) {
    best = IMPOSSIBLE;
  } else {
    searchCheapest(maxCoins);
    best = bestTotal <= maxCoins ? packPayment(bestLeft, bestRight) : ABOVE_BUDGET;
  }
  foundBest = best;
  return best >= 0 && bestTotal <= maxCoins ? best : NO_PAYMENT;
}

/** The depth-first search for the cheapest payment of the listed units within maxCoins. */
function searchCheapest(maxCoins: number): void {
  allMode = false;
  budget = maxCoins;
  bestTotal = maxCoins + 1;
  bestLeft = 0;
  bestRight = maxCoins + 1;
  dfs(0, 0, 0);
}

/**
 * The way cheapestForLoaded's search goes to its answer, for a caller that would stop the search
 * early and take the best payment found by then: writes to `pays` each payment that beat the ones
 * found before it, in the order found, and to `nodes` how many search nodes had been visited when
 * it was found; returns how many (0: no payment within maxCoins). The last one is
 * cheapestForLoaded's answer. The search runs without the kept results: a payment that needs no
 * search (one the seat's fixed production covers, or one with no one-of source to choose, each
 * resource then bought on its own) counts as found at node 0, and one unit's at node 2. With a
 * `horizon`, only the trail of its first `horizon` nodes is asked for, and the nodes after them
 * are not visited (a caller that stops the search early needs no more, and a full search can cost
 * many times as much). The rules never stop it early; the agents' playouts do
 * (agents/playout-payment.ts).
 */
export function cheapestSearchTrail(costPacked: number, maxCoins: number, pays: number[], nodes: number[], horizon = Infinity): number {
  if (maxCoins < 0) return 0;
  const packed = missingPacked(costPacked);
  if (packed === 0) return trailOfOne(0, 0, pays, nodes, horizon);
  if (!neighboursLoaded) loadNeighbours();
  const missing = missingUnits(packed);
  const noChoices = (choiceUnion & missing) === 0;
  // One unit, answered by cheapestSingleUnit (playouts ask mostly these, and it is the cheaper
  // step): with no one-of source to choose it needs no search (node 0), and otherwise the
  // search's first leaf, at its second node, is already the cheapest.
  if (numUnits === 1) {
    const best = cheapestSingleUnit();
    return best !== IMPOSSIBLE && bestTotal <= maxCoins ? trailOfOne(best, noChoices ? 0 : 2, pays, nodes, horizon) : 0;
  }
  if (noChoices) {
    return buyWithoutChoices() && bestTotal <= maxCoins ? trailOfOne(packPayment(bestLeft, bestRight), 0, pays, nodes, horizon) : 0;
  }
  if (!setLowerBounds()) return 0;
  tracing = true;
  trailHorizon = horizon;
  nodesVisited = 0;
  trailLength = 0;
  trailPays = pays;
  trailNodes = nodes;
  searchCheapest(maxCoins);
  tracing = false;
  return trailLength;
}

/** The words of a trail's name (trailNameForLoaded). */
export const TRAIL_NAME_WORDS = 7;

/** No trail name (trailNameForLoaded): no search is needed, or a list would not fit its word. */
export const NO_TRAIL_NAME = -1;

/**
 * Words naming the trail cheapestSearchTrail walks for a packed cost within maxCoins, for the seat
 * loaded with loadSeat: two calls with the same name walk the same trail (the same payments found
 * at the same nodes), whatever seat, state or game they are for, so that a caller who stops the
 * search early may keep what it found by this name (agents/playout-payment.ts). Writes
 * TRAIL_NAME_WORDS words into `name` and returns a hash of them (≥ 0) for the caller's table; or
 * returns NO_TRAIL_NAME, writing nothing of use, when the cost needs no search (the seat's fixed
 * production covers it, or maxCoins < 0) or when a party has more than eight one-of productions
 * that offer a missing resource.
 *
 * The name is the uncapped search's (cheapestForLoaded) with the order added: the search meets
 * the sources in the order they were gained and counts its nodes as it goes, so a trail depends
 * on which one-of productions come first, not only on how many there are. Its words:
 *   0, 1, 2: cheapestForLoaded's words 0, 1, 2 (the missing units and their prices, the
 *      neighbours' tradable fixed units of them);
 *   3, 4, 5: the own, left and right (tradable) one-of productions that offer a missing resource,
 *      in the order the seats gained them, 4 bits each (CHOICE_MASK_INDEX + 1; 0 ends the list);
 *   6: the budget as far as it can prune: maxCoins, or twice the units missing when that is
 *      less (no payment costs more, so a larger budget prunes nothing more).
 */
export function trailNameForLoaded(costPacked: number, maxCoins: number, name: Int32Array): number {
  if (maxCoins < 0) return NO_TRAIL_NAME;
  const packed = missingPacked(costPacked);
  if (packed === 0) return NO_TRAIL_NAME;
  const s = loadedState!;
  const p = loadedSeat;
  const left = s.left(p);
  const right = s.right(p);
  const resources = nonZeroLanes(packed);
  const fields = FIELDS_MEETING[resources];
  // Most parties have no one-of production that offers a missing resource: their counts say so
  // without a look at the list.
  const own = s.packed[packedIndex(p, PACKED_OWN_CHOICES)] & fields ? orderedMeeting(s.choices, s.choiceLen[p], p, resources) : 0;
  const fromLeft = s.packed[packedIndex(left, PACKED_TRADE_CHOICES)] & fields ? orderedMeeting(s.tradeChoices, s.tradeChoiceLen[left], left, resources) : 0;
  const fromRight = s.packed[packedIndex(right, PACKED_TRADE_CHOICES)] & fields ? orderedMeeting(s.tradeChoices, s.tradeChoiceLen[right], right, resources) : 0;
  if (own < 0 || fromLeft < 0 || fromRight < 0) return NO_TRAIL_NAME;
  const w0 = pricedUnits(packed, s.discount[p]);
  const w1 = laneMin(packed, s.packed[packedIndex(left, PACKED_TRADE_FIXED)]);
  const w2 = laneMin(packed, s.packed[packedIndex(right, PACKED_TRADE_FIXED)]);
  // The units missing, the sum of the lanes: pairs of lanes summed into bytes, then the bytes.
  const pairs = (packed & 0x0f0f0f0f) + ((packed >>> 4) & 0x0f0f0f0f);
  const w6 = Math.min(maxCoins, 2 * (Math.imul(pairs, 0x01010101) >>> 24));
  name[0] = w0;
  name[1] = w1;
  name[2] = w2;
  name[3] = own;
  name[4] = fromLeft;
  name[5] = fromRight;
  name[6] = w6;
  return (
    Math.imul(w0 ^ Math.imul(w1, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35) ^ Math.imul(own, 0x27d4eb2f) ^ Math.imul(fromLeft, 0x165667b1) ^ Math.imul(fromRight, 0x7feb352d) ^ Math.imul(w6, 0x2545f491), 0x9e3779b1) >>> 1
  );
}

/** seat's one-of masks in `masks` (choiceBase, len of them) that offer any of `resources`, in order, 4 bits each (CHOICE_MASK_INDEX + 1); −1 past eight. */
function orderedMeeting(masks: Uint8Array, len: number, seat: number, resources: number): number {
  let list = 0;
  let k = 0;
  for (let i = 0; i < len; i++) {
    const mask = masks[choiceBase(seat) + i];
    if (!(mask & resources)) continue;
    if (k === 8) return -1;
    list |= (CHOICE_MASK_INDEX[mask] + 1) << (4 * k++);
  }
  return list;
}

/** A trail of the one payment found at `node` (none when that is past the horizon). */
function trailOfOne(pay: number, node: number, pays: number[], nodes: number[], horizon: number): number {
  if (node > horizon) return 0;
  pays[0] = pay;
  nodes[0] = node;
  return 1;
}

/**
 * allPayments for the seat last loaded with loadSeat, written over out[at..) (entries from there
 * on are overwritten, the list is not cut); returns how many. Allocates nothing: a search lists
 * every payment at each node of its tree on every iteration.
 */
export function allForLoaded(costPacked: number, maxCoins: number, out: number[], at = out.length): number {
  if (maxCoins < 0) return 0;
  const packed = missingPacked(costPacked);
  if (!neighboursLoaded && packed !== 0) loadNeighbours();
  const missing = missingUnits(packed);
  if (missing === 0) {
    out[at] = 0;
    return 1;
  }
  if (!setLowerBounds()) return 0;
  allMode = true;
  budget = maxCoins;
  rightForLeft.fill(NONE_FOUND);
  dfs(0, 0, 0);
  // Pareto front: by payment to the left ascending, each one whose right part is below every
  // earlier one's; written out left descending.
  let k = 0;
  let minRight = NONE_FOUND;
  for (let left = 0; left < rightForLeft.length; left++) {
    const right = rightForLeft[left];
    if (right < minRight) {
      frontBuf[k++] = packPayment(left, right);
      minRight = right;
    }
  }
  for (let i = 0; i < k; i++) out[at + i] = frontBuf[k - 1 - i];
  return k;
}

/**
 * The cheapest payment for seat p to pay `cost` with at most `maxCoins` coins of trade, or
 * NO_PAYMENT. Ties between equal totals go to the split that pays the right neighbour least
 * (so the left neighbour most).
 */
export function cheapestPayment(s: GameState, p: number, cost: readonly number[], maxCoins: number): number {
  loadSeat(s, p);
  return cheapestForLoaded(packResources(cost), maxCoins);
}

/**
 * Every undominated payment (no other one pays both neighbours at most as much) within
 * `maxCoins`, appended to `out` sorted by payment to the left neighbour, descending. Returns how
 * many were appended.
 */
export function allPayments(s: GameState, p: number, cost: readonly number[], maxCoins: number, out: number[]): number {
  loadSeat(s, p);
  return allForLoaded(packResources(cost), maxCoins, out);
}
