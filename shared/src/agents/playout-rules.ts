/**
 * The thesis's rule-based player as a playout policy: the same rules as ThesisRuleBasedAgent
 * (rulebased.ts), read straight from a GameState without building an observation and without
 * allocating, so that it can play inside MCTS simulations. Where a card can be built both paid
 * and with Olympia's free build, both moves are candidates.
 */
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  BLUE,
  CARDS,
  CARD_COLOUR,
  CARD_VP,
  GREEN,
  NO_PAYMENT,
  CHOICE_UNION,
  PHASE_TURN,
  RED,
  distinctHandCards,
  encodeMove,
  hasFreeBuild,
  loadSeat,
  moveAction,
  moveCard,
  paymentLeft,
  paymentRight,
  setListLength,
  nonZeroLanes,
  packedIndex,
  PACKED_OWN_CHOICES,
  PACKED_OWN_FIXED,
  type GameState,
  type Rng,
} from '../engine/index.js';
import { resourceMask, resourceTypes, resourceUnits } from './features.js';
import { playoutMoves } from './playout-moves.js';
import { cappedStagePayment, writeCappedBuilds } from './playout-payment.js';

// What the rules read of a card, as typed arrays: the rules run for every card of every hand at
// every step of a playout.
const MULTI = Uint8Array.from(CARDS, (card) => (resourceUnits(card.id) >= 2 || resourceTypes(card.id) >= 2 ? 1 : 0));

const candidates: number[] = [];

/** Resources seat p produces itself (fixed or one-of), read off its packed production. */
export function producedBy(s: GameState, p: number): number {
  return nonZeroLanes(s.packed[packedIndex(p, PACKED_OWN_FIXED)]) | CHOICE_UNION[nonZeroLanes(s.packed[packedIndex(p, PACKED_OWN_CHOICES)])];
}

/** Whether seat p has strictly the most shields. */
export function strongestInWar(s: GameState, p: number): boolean {
  for (let q = 0; q < s.n; q++) if (q !== p && s.shields[q] >= s.shields[p]) return false;
  return true;
}

/**
 * The thesis rule (1, 2, 3, 5, 6 or 7) that building card c falls under for a seat producing
 * `have` (producedBy) that is or is not `strongest` (strongestInWar).
 */
export function thesisBuildRule(c: number, have: number, strongest: boolean): number {
  // One load from the table instead of a chain of branches on the card, which the cards of a hand
  // mispredicted: `needs` is 1 where the card gives a resource the seat lacks (masks are 7 bits).
  const needs = ((resourceMask(c) & ~have & 0x7f) + 0x7f) >> 7;
  return RULE_BY_CASE[(c << 2) | (needs << 1) | (strongest ? 1 : 0)];
}

/** The thesis rule of building card c, for a seat that lacks one of its resources or not, strongest or not. */
function ruleOfCase(c: number, needs: boolean, strongest: boolean): number {
  if (MULTI[c]) return 1;
  if (needs) return 2;
  const colour = CARD_COLOUR[c];
  if (colour === RED && !strongest) return 3;
  if (colour === BLUE) return 5;
  if (colour === GREEN) return 6;
  return 7;
}

/** ruleOfCase per card and case, at (card << 2) | (needs << 1) | strongest. */
const RULE_BY_CASE = Uint8Array.from({ length: CARDS.length << 2 }, (_, i) => ruleOfCase(i >> 2, (i & 2) !== 0, (i & 1) !== 0));

/**
 * Fills `out` with the moves of the first thesis rule (1–8) that has any, for seat p of s given
 * its `legal` moves (cheapest mode); returns that rule's number.
 */
export function thesisRuleCandidates(s: GameState, p: number, legal: readonly number[], out: number[]): number {
  const len = legal.length;
  const have = producedBy(s, p);
  const strongest = strongestInWar(s, p);
  let bestRule = 9;
  let bestVp = -1;
  let k = 0;
  for (let i = 0; i < len; i++) {
    const m = legal[i];
    const a = moveAction(m);
    let rule: number;
    let vp = 0;
    if (a === ACTION_DISCARD) rule = 8;
    else if (a === ACTION_STAGE) rule = 4;
    else {
      const c = moveCard(m);
      rule = thesisBuildRule(c, have, strongest);
      if (rule === 5) vp = CARD_VP[c];
    }
    if (rule > bestRule) continue;
    if (rule < bestRule || (rule === 5 && vp > bestVp)) {
      bestRule = rule;
      bestVp = vp;
      k = 0;
    } else if (rule === 5 && vp < bestVp) continue;
    out[k++] = m;
  }
  setListLength(out, k);
  return bestRule;
}

/** A move of the thesis's rule-based player for seat p of s, drawn with rng. */
export function thesisRulesMove(s: GameState, p: number, legal: readonly number[], rng: Rng): number {
  thesisRuleCandidates(s, p, legal, candidates);
  return candidates[rng.int(candidates.length)];
}

const legalBuf: number[] = [];
/** The distinct cards of the hand being looked at, in hand order. */
const handCards = new Int32Array(7);
/** Per thesis build rule (1–7), the mask of the indices in handCards of the cards under it. */
const ruleCards = new Int32Array(8);

/** The index of the lowest set bit of a non-zero mask. */
const lowestIndex = (m: number): number => 31 - Math.clz32(m & -m);

/**
 * thesisRulesMove without listing every legal move first: the same move, drawn with the same
 * number from rng, for seat p of s in cheapest mode with the payment search capped at
 * `branchLimit` (0: none). The rules look at the cards in their order and stop at the first rule
 * that has a move, so only the cards of the rules tried have their payments searched; a playout
 * step that lists every card's payments spends most of its time there. Outside a normal turn it
 * lists the legal moves as thesisRulesMove does.
 */
export function thesisRulesMoveLazily(s: GameState, p: number, rng: Rng, branchLimit = 0): number {
  if (s.phase !== PHASE_TURN) {
    playoutMoves(s, p, legalBuf, branchLimit);
    return thesisRulesMove(s, p, legalBuf, rng);
  }
  const have = producedBy(s, p);
  const strongest = strongestInWar(s, p);
  const count = distinctHandCards(s, p, handCards);
  // Per rule, the hand's cards under it as a mask of their indices: each rule's pass below visits
  // its own cards, in hand order, instead of scanning the hand for them.
  for (let rule = 1; rule <= 7; rule++) ruleCards[rule] = 0;
  for (let i = 0; i < count; i++) ruleCards[thesisBuildRule(handCards[i], have, strongest)] |= 1 << i;
  loadSeat(s, p);
  const freeBuildReady = hasFreeBuild(s, p);
  // The candidates are out[0..k).
  const out = candidates;
  let k = 0;
  // Rules 1–3: builds of the cards that fall under them.
  for (let rule = 1; rule <= 3; rule++) {
    for (let m = ruleCards[rule]; m !== 0; m &= m - 1) k = writeCappedBuilds(s, p, handCards[lowestIndex(m)], freeBuildReady, out, k, branchLimit);
    if (k > 0) return out[rng.int(k)];
  }
  // Rule 4: a wonder stage, with any card (each card is a move of its own, as in the legal list).
  const stagePay = cappedStagePayment(s, p, branchLimit);
  if (stagePay !== NO_PAYMENT) {
    for (let i = 0; i < count; i++) out[k++] = encodeMove(handCards[i], ACTION_STAGE, paymentLeft(stagePay), paymentRight(stagePay));
    return out[rng.int(k)];
  }
  // Rule 5: the buildable blue cards worth the most VP.
  let bestVp = -1;
  for (let m = ruleCards[5]; m !== 0; m &= m - 1) {
    const c = handCards[lowestIndex(m)];
    const vp = CARD_VP[c];
    if (vp < bestVp) continue;
    const before = k;
    k = writeCappedBuilds(s, p, c, freeBuildReady, out, k, branchLimit);
    if (k === before) continue;
    if (vp > bestVp) {
      // Drop the cheaper blue cards' moves, keeping this card's, in their order.
      // (A loop: Array.prototype.copyWithin is generic and slow on a plain array.)
      for (let j = before; j < k; j++) out[j - before] = out[j];
      k -= before;
      bestVp = vp;
    }
  }
  if (k > 0) return out[rng.int(k)];
  // Rules 6 and 7.
  for (let rule = 6; rule <= 7; rule++) {
    for (let m = ruleCards[rule]; m !== 0; m &= m - 1) k = writeCappedBuilds(s, p, handCards[lowestIndex(m)], freeBuildReady, out, k, branchLimit);
    if (k > 0) return out[rng.int(k)];
  }
  // Rule 8: discard any card.
  for (let i = 0; i < count; i++) out[k++] = encodeMove(handCards[i], ACTION_DISCARD);
  return out[rng.int(k)];
}
