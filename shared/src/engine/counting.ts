/**
 * Counting for "per" effects (coins when built, VP at game end): cards of some colours, wonder
 * stages, defeat tokens, in the own city and/or the two neighbouring ones.
 */
import type { Counter } from './effects.js';
import { COLOUR_NAMES } from './resources.js';
import { colourIndex, tokenBase, type GameState } from './state.js';

function seatsOf(s: GameState, p: number, boards: Counter['boards']): number[] {
  if (boards === 'self') return [p];
  if (boards === 'neighbours') return [s.left(p), s.right(p)];
  return [s.left(p), p, s.right(p)];
}

export function defeatTokens(s: GameState, p: number): number {
  let d = 0;
  for (let i = tokenBase(p), end = tokenBase(p + 1); i < end; i++) if (s.tokens[i] < 0) d++;
  return d;
}

/** The count an effect multiplies, seen from seat p. */
export function count(s: GameState, p: number, per: Counter): number {
  let total = 0;
  for (const q of seatsOf(s, p, per.boards)) {
    if (per.of === 'cards') {
      for (const colour of per.colours) total += s.colourCount[colourIndex(q, COLOUR_NAMES.indexOf(colour))];
    } else if (per.of === 'stages') {
      total += s.stages[q];
    } else {
      total += defeatTokens(s, q);
    }
  }
  return total;
}
