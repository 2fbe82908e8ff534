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
import { DISCOUNT_MANUFACTURED, DISCOUNT_RAW_LEFT, DISCOUNT_RAW_RIGHT, packResources } from './catalog.js';
import { MAX_CHOICES, choiceBase, resourceIndex, type GameState } from './state.js';

/** A payment packed into one number: left in the low byte, right in the next. */
export const packPayment = (left: number, right: number): number => left | (right << 8);
export const paymentLeft = (pay: number): number => pay & 0xff;
export const paymentRight = (pay: number): number => (pay >> 8) & 0xff;
export const NO_PAYMENT = -1;

const MAX_UNITS = 16;
const MAX_SOURCES = MAX_CHOICES + 2 + 2 * MAX_CHOICES;

// The seat being paid for (loadSeat), read once per legal-move generation.
const priceLeft = new Int32Array(7);
const priceRight = new Int32Array(7);
/** Union of all one-of masks: a cost missing none of them needs no search. */
let choiceUnion = 0;
/** Resources each party can give at all. */
let ownHas = 0;
let leftHas = 0;
let rightHas = 0;

// Scratch state for one search. Sources: own one-of productions first (free), then each side's
// fixed production and one-of productions; `orderLeftFirst` / `orderRightFirst` list them with
// the cheaper side first, so the first complete payment found is already a good bound.
const unitRes = new Int32Array(MAX_UNITS);
/** Position in the unit's source order of the source that covers it. */
const unitPos = new Int32Array(MAX_UNITS);
/** Lower bound on what units u.. will cost at least. */
const lowerBound = new Int32Array(MAX_UNITS + 1);
const srcMask = new Int32Array(MAX_SOURCES);
/** 0 = own (free), 1 = left, 2 = right. */
const srcSide = new Int32Array(MAX_SOURCES);
/** 1 for a neighbour's fixed production (reusable while its count lasts). */
const srcFixed = new Uint8Array(MAX_SOURCES);
const srcUsed = new Uint8Array(MAX_SOURCES);
const orderLeftFirst = new Int32Array(MAX_SOURCES);
const orderRightFirst = new Int32Array(MAX_SOURCES);
const leftFixed = new Int32Array(7);
const rightFixed = new Int32Array(7);
let numUnits = 0;
let numSources = 0;
let budget = 0;
let allMode = false;
let bestTotal = 0;
let bestLeft = 0;
let bestRight = 0;
const found: number[] = [];
/** The cap of the running cheapest-payment search (0: none) and the nodes it has visited. */
let branchLimit = 0;
let branches = 0;

function dfs(u: number, paidLeft: number, paidRight: number): void {
  if (branchLimit !== 0 && !allMode && ++branches > branchLimit) return;
  if (u === numUnits) {
    if (allMode) {
      found.push(packPayment(paidLeft, paidRight));
    } else {
      const total = paidLeft + paidRight;
      // Least total; ties go to the payment that pays the right neighbour least.
      if (total < bestTotal || (total === bestTotal && paidRight < bestRight)) {
        bestTotal = total;
        bestLeft = paidLeft;
        bestRight = paidRight;
      }
    }
    return;
  }
  const r = unitRes[u];
  const bit = 1 << r;
  const order = priceRight[r] < priceLeft[r] ? orderRightFirst : orderLeftFirst;
  const rest = lowerBound[u + 1];
  // Units of one resource take sources in non-decreasing order: no permutations of one choice.
  const first = u > 0 && unitRes[u - 1] === r ? unitPos[u - 1] : 0;
  for (let pos = first; pos < numSources; pos++) {
    const k = order[pos];
    if (!(srcMask[k] & bit)) continue;
    const side = srcSide[k];
    const fixed = srcFixed[k];
    if (fixed) {
      if ((side === 1 ? leftFixed[r] : rightFixed[r]) === 0) continue;
    } else if (srcUsed[k]) {
      continue;
    }
    let l = paidLeft;
    let rt = paidRight;
    if (side === 1) l += priceLeft[r];
    else if (side === 2) rt += priceRight[r];
    const bound = l + rt + rest;
    if (bound > budget) continue;
    if (!allMode && (bound > bestTotal || (bound === bestTotal && rt >= bestRight))) continue;
    unitPos[u] = pos;
    if (fixed) {
      if (side === 1) leftFixed[r]--;
      else rightFixed[r]--;
      dfs(u + 1, l, rt);
      if (side === 1) leftFixed[r]++;
      else rightFixed[r]++;
    } else {
      srcUsed[k] = 1;
      dfs(u + 1, l, rt);
      srcUsed[k] = 0;
    }
  }
}

function addSource(mask: number, side: number, fixed: number): void {
  srcMask[numSources] = mask;
  srcSide[numSources] = side;
  srcFixed[numSources] = fixed;
  srcUsed[numSources++] = 0;
}

function addChoices(masks: Uint8Array, len: number, seat: number, side: number): number {
  let union = 0;
  const base = choiceBase(seat);
  for (let i = 0; i < len; i++) {
    const mask = masks[base + i];
    union |= mask;
    addSource(mask, side, 0);
  }
  return union;
}

/**
 * Reads what seat p can pay with: own production, the neighbours' tradable production, the prices,
 * and the sources in both orders. Valid until the state changes; the functions below that take
 * (s, p) call it, and legalMoves calls it once for all the cards of a hand.
 */
export function loadSeat(s: GameState, p: number): void {
  let packed = 0;
  for (let r = 0; r < 7; r++) {
    const k = s.fixed[resourceIndex(p, r)];
    packed |= (k > 7 ? 7 : k) << (4 * r);
  }
  ownFixedPacked = packed;
  loadedState = s;
  loadedSeat = p;
  neighboursLoaded = false;
}

const GUARDS = 0x8888888;
const LOW_BITS = 0x7777777;
let ownFixedPacked = 0;
/** The discount flags priceLeft/priceRight were filled for (−1: not yet). */
let pricedDiscount = -1;
let loadedState: GameState | undefined;
let loadedSeat = 0;
let neighboursLoaded = false;

/** The neighbours' side of loadSeat, read only when some cost is not covered outright. */
function loadNeighbours(): void {
  neighboursLoaded = true;
  const s = loadedState!;
  const p = loadedSeat;
  const left = s.left(p);
  const right = s.right(p);
  const d = s.discount[p];
  leftHas = 0;
  rightHas = 0;
  // The search restores these counts as it backtracks, so one copy serves every cost.
  for (let r = 0; r < 7; r++) {
    const l = (leftFixed[r] = s.tradeFixed[resourceIndex(left, r)]);
    const rt = (rightFixed[r] = s.tradeFixed[resourceIndex(right, r)]);
    if (l) leftHas |= 1 << r;
    if (rt) rightHas |= 1 << r;
  }
  if (d !== pricedDiscount) {
    pricedDiscount = d;
    for (let r = 0; r < 7; r++) {
      if (r < 4) {
        priceLeft[r] = d & DISCOUNT_RAW_LEFT ? 1 : 2;
        priceRight[r] = d & DISCOUNT_RAW_RIGHT ? 1 : 2;
      } else {
        priceLeft[r] = priceRight[r] = d & DISCOUNT_MANUFACTURED ? 1 : 2;
      }
    }
  }
  numSources = 0;
  ownHas = addChoices(s.choices, s.choiceLen[p], p, 0);
  const ownCount = numSources;
  const leftStart = numSources;
  addSource(0x7f, 1, 1);
  const leftChoices = addChoices(s.tradeChoices, s.tradeChoiceLen[left], left, 1);
  leftHas |= leftChoices;
  const rightStart = numSources;
  addSource(0x7f, 2, 1);
  const rightChoices = addChoices(s.tradeChoices, s.tradeChoiceLen[right], right, 2);
  rightHas |= rightChoices;
  choiceUnion = ownHas | leftChoices | rightChoices;
  let pos = 0;
  for (let k = 0; k < ownCount; k++) orderLeftFirst[pos] = orderRightFirst[pos++] = k;
  const leftLen = rightStart - leftStart;
  const rightLen = numSources - rightStart;
  for (let i = 0; i < leftLen; i++) {
    orderLeftFirst[ownCount + i] = leftStart + i;
    orderRightFirst[ownCount + rightLen + i] = leftStart + i;
  }
  for (let i = 0; i < rightLen; i++) {
    orderLeftFirst[ownCount + leftLen + i] = rightStart + i;
    orderRightFirst[ownCount + i] = rightStart + i;
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

/** Lists the missing units (resources in increasing order); returns their mask. */
function missingUnits(missing: number): number {
  numUnits = 0;
  let mask = 0;
  while (missing !== 0) {
    const r = (31 - Math.clz32(missing & -missing)) >> 2;
    const k = (missing >>> (4 * r)) & 7;
    mask |= 1 << r;
    for (let i = 0; i < k; i++) unitRes[numUnits++] = r;
    missing &= ~(0xf << (4 * r));
  }
  return mask;
}

/** Lower bounds on the cost of units u.. ; false when some missing unit has no source at all. */
function setLowerBounds(): boolean {
  lowerBound[numUnits] = 0;
  for (let u = numUnits - 1; u >= 0; u--) {
    const r = unitRes[u];
    const bit = 1 << r;
    let cheapest: number;
    if (ownHas & bit) cheapest = 0;
    else if (leftHas & bit) cheapest = rightHas & bit ? Math.min(priceLeft[r], priceRight[r]) : priceLeft[r];
    else if (rightHas & bit) cheapest = priceRight[r];
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
    let k = 0;
    while (u + k < numUnits && unitRes[u + k] === r) k++;
    u += k;
    const leftFirst = priceLeft[r] <= priceRight[r];
    const firstSupply = leftFirst ? leftFixed[r] : rightFixed[r];
    const secondSupply = leftFirst ? rightFixed[r] : leftFixed[r];
    if (k > firstSupply + secondSupply) return false;
    const fromFirst = Math.min(k, firstSupply);
    const fromSecond = k - fromFirst;
    if (leftFirst) {
      paidLeft += fromFirst * priceLeft[r];
      paidRight += fromSecond * priceRight[r];
    } else {
      paidRight += fromFirst * priceRight[r];
      paidLeft += fromSecond * priceLeft[r];
    }
  }
  bestLeft = paidLeft;
  bestRight = paidRight;
  bestTotal = paidLeft + paidRight;
  return true;
}

/**
 * cheapestPayment for the seat last loaded with loadSeat. `limit` caps the search nodes visited
 * (0: none): Robilliard et al. (2014) cap the trade branches their playouts explore per card to
 * speed them up, and a card whose payment is not found within the cap counts as unaffordable. Our
 * search is ordered cheapest first, so the cap rarely binds; it exists to reproduce that
 * approximation.
 */
export function cheapestForLoaded(costPacked: number, maxCoins: number, limit = 0): number {
  if (maxCoins < 0) return NO_PAYMENT;
  const packed = missingPacked(costPacked);
  if (packed === 0) return 0;
  if (!neighboursLoaded) loadNeighbours();
  const missing = missingUnits(packed);
  if ((choiceUnion & missing) === 0) {
    if (!buyWithoutChoices()) return NO_PAYMENT;
  } else {
    if (!setLowerBounds()) return NO_PAYMENT;
    allMode = false;
    budget = maxCoins;
    bestTotal = maxCoins + 1;
    bestLeft = 0;
    bestRight = maxCoins + 1;
    branches = 0;
    branchLimit = limit > 0 ? limit : 0;
    dfs(0, 0, 0);
  }
  return bestTotal <= maxCoins ? packPayment(bestLeft, bestRight) : NO_PAYMENT;
}

/** allPayments for the seat last loaded with loadSeat. */
export function allForLoaded(costPacked: number, maxCoins: number, out: number[]): number {
  if (maxCoins < 0) return 0;
  const packed = missingPacked(costPacked);
  if (!neighboursLoaded && packed !== 0) loadNeighbours();
  const missing = missingUnits(packed);
  if (missing === 0) {
    out.push(0);
    return 1;
  }
  if (!setLowerBounds()) return 0;
  allMode = true;
  budget = maxCoins;
  branchLimit = 0;
  found.length = 0;
  dfs(0, 0, 0);
  if (found.length === 0) return 0;
  // Pareto front: sorted by left ascending (then right), keep each payment whose right part is
  // below every earlier one's.
  found.sort((a, b) => paymentLeft(a) - paymentLeft(b) || paymentRight(a) - paymentRight(b));
  const front: number[] = [];
  let minRight = Infinity;
  for (const pay of found) {
    const r = paymentRight(pay);
    if (r < minRight) {
      front.push(pay);
      minRight = r;
    }
  }
  for (let i = front.length - 1; i >= 0; i--) out.push(front[i]);
  return front.length;
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
