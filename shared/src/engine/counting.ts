/**
 * Counting for "per" effects (coins when built, VP at game end): cards of some colours, wonder
 * stages, defeat tokens, in the own city and/or the two neighbouring ones.
 */
import type { Counter } from './effects.js';
import { COLOUR_NAMES, type ColourName } from './resources.js';
import { colourIndex, tokenBase, type GameState } from './state.js';

/** Colour indices by name, so that counting does not search COLOUR_NAMES on every call. */
const COLOUR_INDEX = Object.fromEntries(COLOUR_NAMES.map((name, i) => [name, i])) as Record<ColourName, number>;

export function defeatTokens(s: GameState, p: number): number {
  let d = 0;
  for (let i = tokenBase(p), end = tokenBase(p + 1); i < end; i++) if (s.tokens[i] < 0) d++;
  return d;
}

/** The count an effect multiplies, in seat q's city alone. */
function countAt(s: GameState, q: number, per: Counter): number {
  if (per.of === 'stages') return s.stages[q];
  if (per.of === 'defeats') return defeatTokens(s, q);
  let total = 0;
  for (const colour of per.colours) total += s.colourCount[colourIndex(q, COLOUR_INDEX[colour])];
  return total;
}

/**
 * The count an effect multiplies, seen from seat p. Without a list of the seats looked at: it runs
 * for every yellow and purple card at the end of every simulated game and at every build of a
 * card that pays per card.
 */
export function count(s: GameState, p: number, per: Counter): number {
  if (per.boards === 'self') return countAt(s, p, per);
  const neighbours = countAt(s, s.left(p), per) + countAt(s, s.right(p), per);
  return per.boards === 'all' ? neighbours + countAt(s, p, per) : neighbours;
}
