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
import { DISCOUNT_MANUFACTURED, DISCOUNT_RAW_LEFT, DISCOUNT_RAW_RIGHT } from './catalog.js';
import { MAX_CHOICES, type GameState } from './state.js';

/** A payment packed into one number: left in the low byte, right in the next. */
export const packPayment = (left: number, right: number): number => left | (right << 8);
export const paymentLeft = (pay: number): number => pay & 0xff;
export const paymentRight = (pay: number): number => (pay >> 8) & 0xff;
export const NO_PAYMENT = -1;

const MAX_UNITS = 16;
const MAX_SOURCES = MAX_CHOICES + 2 + 2 * MAX_CHOICES;

// Scratch state for one search.
const unitRes = new Int32Array(MAX_UNITS);
const unitSrc = new Int32Array(MAX_UNITS);
const srcMask = new Int32Array(MAX_SOURCES);
/** 0 = own one-of (free), 1 = left, 2 = right. */
const srcSide = new Int32Array(MAX_SOURCES);
const srcUsed = new Uint8Array(MAX_SOURCES);
const leftFixed = new Int32Array(7);
const rightFixed = new Int32Array(7);
const priceLeft = new Int32Array(7);
const priceRight = new Int32Array(7);
let numUnits = 0;
let numSources = 0;
let leftFixedSrc = 0;
let rightFixedSrc = 0;
let budget = 0;
let allMode = false;
let bestTotal = 0;
let bestLeft = 0;
let bestRight = 0;
const found: number[] = [];

function dfs(u: number, paidLeft: number, paidRight: number): void {
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
  const first = u > 0 && unitRes[u - 1] === r ? unitSrc[u - 1] : 0;
  for (let k = first; k < numSources; k++) {
    let l = paidLeft;
    let rt = paidRight;
    if (k === leftFixedSrc) {
      if (leftFixed[r] === 0) continue;
      l += priceLeft[r];
    } else if (k === rightFixedSrc) {
      if (rightFixed[r] === 0) continue;
      rt += priceRight[r];
    } else {
      if (srcUsed[k] || !(srcMask[k] & bit)) continue;
      const side = srcSide[k];
      if (side === 1) l += priceLeft[r];
      else if (side === 2) rt += priceRight[r];
    }
    const total = l + rt;
    if (total > budget) continue;
    if (!allMode && (total > bestTotal || (total === bestTotal && rt >= bestRight))) continue;
    unitSrc[u] = k;
    if (k === leftFixedSrc) {
      leftFixed[r]--;
      dfs(u + 1, l, rt);
      leftFixed[r]++;
    } else if (k === rightFixedSrc) {
      rightFixed[r]--;
      dfs(u + 1, l, rt);
      rightFixed[r]++;
    } else {
      srcUsed[k] = 1;
      dfs(u + 1, l, rt);
      srcUsed[k] = 0;
    }
  }
}

/**
 * Sets up the scratch buffers for seat p paying `cost`; returns false when the cost is already
 * covered by fixed production (no search needed).
 */
function prepare(s: GameState, p: number, cost: readonly number[]): boolean {
  const base = p * 7;
  numUnits = 0;
  for (let r = 0; r < 7; r++) {
    const missing = cost[r] - s.fixed[base + r];
    for (let i = 0; i < missing; i++) unitRes[numUnits++] = r;
  }
  if (numUnits === 0) return false;
  const left = s.left(p);
  const right = s.right(p);
  numSources = 0;
  const own = s.choiceLen[p];
  for (let i = 0; i < own; i++) {
    srcMask[numSources] = s.choices[p * MAX_CHOICES + i];
    srcSide[numSources] = 0;
    srcUsed[numSources++] = 0;
  }
  leftFixedSrc = numSources++;
  rightFixedSrc = numSources++;
  addNeighbourChoices(s, left, 1);
  addNeighbourChoices(s, right, 2);
  const d = s.discount[p];
  for (let r = 0; r < 7; r++) {
    leftFixed[r] = s.tradeFixed[left * 7 + r];
    rightFixed[r] = s.tradeFixed[right * 7 + r];
    if (r < 4) {
      priceLeft[r] = d & DISCOUNT_RAW_LEFT ? 1 : 2;
      priceRight[r] = d & DISCOUNT_RAW_RIGHT ? 1 : 2;
    } else {
      priceLeft[r] = priceRight[r] = d & DISCOUNT_MANUFACTURED ? 1 : 2;
    }
  }
  return true;
}

function addNeighbourChoices(s: GameState, seat: number, side: number): void {
  const len = s.tradeChoiceLen[seat];
  for (let i = 0; i < len; i++) {
    srcMask[numSources] = s.tradeChoices[seat * MAX_CHOICES + i];
    srcSide[numSources] = side;
    srcUsed[numSources++] = 0;
  }
}

/**
 * The cheapest payment for seat p to pay `cost` with at most `maxCoins` coins of trade, or
 * NO_PAYMENT. Ties between equal totals go to the split that pays the right neighbour least
 * (so the left neighbour most).
 */
export function cheapestPayment(s: GameState, p: number, cost: readonly number[], maxCoins: number): number {
  if (maxCoins < 0) return NO_PAYMENT;
  if (!prepare(s, p, cost)) return 0;
  allMode = false;
  budget = maxCoins;
  bestTotal = maxCoins + 1;
  bestLeft = 0;
  bestRight = maxCoins + 1;
  dfs(0, 0, 0);
  return bestTotal <= maxCoins ? packPayment(bestLeft, bestRight) : NO_PAYMENT;
}

/**
 * Every undominated payment (no other one pays both neighbours at most as much) within
 * `maxCoins`, appended to `out` sorted by payment to the left neighbour, descending. Returns how
 * many were appended.
 */
export function allPayments(s: GameState, p: number, cost: readonly number[], maxCoins: number, out: number[]): number {
  if (maxCoins < 0) return 0;
  if (!prepare(s, p, cost)) {
    out.push(0);
    return 1;
  }
  allMode = true;
  budget = maxCoins;
  found.length = 0;
  dfs(0, 0, 0);
  if (found.length === 0) return 0;
  // Pareto front: sort by left descending, then right ascending; keep strictly falling rights
  // when read from the cheapest-left end.
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
  front.reverse();
  for (const pay of front) out.push(pay);
  return front.length;
}

/** Whether (left, right) is one of seat p's undominated-or-dominated feasible payments. */
export function canPay(s: GameState, p: number, cost: readonly number[], left: number, right: number): boolean {
  if (!prepare(s, p, cost)) return left === 0 && right === 0;
  allMode = true;
  budget = left + right;
  found.length = 0;
  dfs(0, 0, 0);
  const want = packPayment(left, right);
  return found.includes(want);
}
