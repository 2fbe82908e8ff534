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
  GREEN,
  NUM_CARD_TYPES,
  NUM_RESOURCES,
  RED,
  choiceBase,
  moveAction,
  moveCard,
  resourceIndex,
  type GameState,
  type Rng,
} from '../engine/index.js';
import { resourceMask, resourceTypes, resourceUnits } from './features.js';

const MASK = new Uint8Array(NUM_CARD_TYPES);
const MULTI = new Uint8Array(NUM_CARD_TYPES);
for (const card of CARDS) {
  MASK[card.id] = resourceMask(card.id);
  MULTI[card.id] = resourceUnits(card.id) >= 2 || resourceTypes(card.id) >= 2 ? 1 : 0;
}

const candidates: number[] = [];

/** Resources seat p produces itself (fixed or one-of). */
export function producedBy(s: GameState, p: number): number {
  let mask = 0;
  for (let r = 0; r < NUM_RESOURCES; r++) if (s.fixed[resourceIndex(p, r)] > 0) mask |= 1 << r;
  for (let i = 0; i < s.choiceLen[p]; i++) mask |= s.choices[choiceBase(p) + i];
  return mask;
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
  const card = CARDS[c];
  if (MULTI[c]) return 1;
  if (MASK[c] & ~have) return 2;
  if (card.colour === RED && !strongest) return 3;
  if (card.colour === BLUE) return 5;
  if (card.colour === GREEN) return 6;
  return 7;
}

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
  out.length = 0;
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
      if (rule === 5) vp = CARDS[c].vp;
    }
    if (rule > bestRule) continue;
    if (rule < bestRule || (rule === 5 && vp > bestVp)) {
      bestRule = rule;
      bestVp = vp;
      out.length = 0;
    } else if (rule === 5 && vp < bestVp) continue;
    out.push(m);
  }
  return bestRule;
}

/** A move of the thesis's rule-based player for seat p of s, drawn with rng. */
export function thesisRulesMove(s: GameState, p: number, legal: readonly number[], rng: Rng): number {
  thesisRuleCandidates(s, p, legal, candidates);
  return candidates[rng.int(candidates.length)];
}
