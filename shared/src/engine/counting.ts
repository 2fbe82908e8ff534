/**
 * Counting for "per" effects (coins when built, VP at game end): cards of some colours, wonder
 * stages, defeat tokens, in the own city and/or the two neighbouring ones.
 *
 * A counter is compiled once into a number (counterCode), and each card's effects of one kind into
 * a table (PerEffects): counting runs for every yellow and purple card at the end of every
 * simulated game and at every build of a card that pays per card, and reading the counters'
 * objects and colour names there was a visible part of a search's playout.
 */
import { CARDS } from './catalog.js';
import type { Counter } from './effects.js';
import { COLOUR_NAMES, NUM_COLOURS, type ColourName } from './resources.js';
import { colourIndex, tokenBase, type GameState } from './state.js';

// A counter's code: what it counts in the low two bits, whose cities in the next two, and for
// cards the colours' mask (bit = colour index) above them.
const OF_CARDS = 0;
const OF_STAGES = 1;
const OF_DEFEATS = 2;
const BOARDS_SELF = 0;
const BOARDS_NEIGHBOURS = 1;
const BOARDS_ALL = 2;
const COLOURS_SHIFT = 4;

/** Colour indices by name. */
const COLOUR_INDEX = Object.fromEntries(COLOUR_NAMES.map((name, i) => [name, i])) as Record<ColourName, number>;

/** A counter as the number count() takes. */
function counterCode(per: Counter): number {
  const boards = per.boards === 'self' ? BOARDS_SELF : per.boards === 'neighbours' ? BOARDS_NEIGHBOURS : BOARDS_ALL;
  if (per.of === 'stages') return OF_STAGES | (boards << 2);
  if (per.of === 'defeats') return OF_DEFEATS | (boards << 2);
  let mask = 0;
  for (const colour of per.colours) {
    const bit = 1 << COLOUR_INDEX[colour];
    // A mask counts a colour once: a list naming one twice would be read two ways.
    if (mask & bit) throw new Error(`a counter lists the colour ${colour} twice`);
    mask |= bit;
  }
  return OF_CARDS | (boards << 2) | (mask << COLOURS_SHIFT);
}

function defeatTokens(s: GameState, p: number): number {
  let d = 0;
  for (let i = tokenBase(p), end = tokenBase(p + 1); i < end; i++) if (s.tokens[i] < 0) d++;
  return d;
}

/** The count a counter (its code) multiplies, in seat q's city alone. */
function countAt(s: GameState, q: number, code: number): number {
  const of = code & 3;
  if (of === OF_STAGES) return s.stages[q];
  if (of === OF_DEFEATS) return defeatTokens(s, q);
  const mask = code >> COLOURS_SHIFT;
  let total = 0;
  for (let colour = 0; colour < NUM_COLOURS; colour++) if (mask & (1 << colour)) total += s.colourCount[colourIndex(q, colour)];
  return total;
}

/** The count a counter (its code, counterCode) multiplies, seen from seat p. */
function count(s: GameState, p: number, code: number): number {
  const boards = (code >> 2) & 3;
  if (boards === BOARDS_SELF) return countAt(s, p, code);
  const neighbours = countAt(s, s.left(p), code) + countAt(s, s.right(p), code);
  return boards === BOARDS_ALL ? neighbours + countAt(s, p, code) : neighbours;
}

/**
 * Every card's effects of one "per" kind, flattened: card c's are amount / code[start[c] …
 * start[c + 1]).
 */
export interface PerEffects {
  readonly start: Int32Array;
  readonly amount: Int32Array;
  readonly code: Int32Array;
}

/** The table of every card's `kind` effects (vpPer: VP at the end; coinsPer: coins when built). */
export function perEffects(kind: 'vpPer' | 'coinsPer'): PerEffects {
  const start = new Int32Array(CARDS.length + 1);
  const amount: number[] = [];
  const code: number[] = [];
  for (let c = 0; c < CARDS.length; c++) {
    start[c] = amount.length;
    for (const e of CARDS[c].effects) {
      if (e.kind !== kind) continue;
      amount.push(e.amount);
      code.push(counterCode(e.per));
    }
  }
  start[CARDS.length] = amount.length;
  return { start, amount: Int32Array.from(amount), code: Int32Array.from(code) };
}

/** Card c's effects of a table, summed for seat p: each amount times its count. */
export function perTotal(table: PerEffects, s: GameState, p: number, c: number): number {
  let total = 0;
  for (let i = table.start[c], end = table.start[c + 1]; i < end; i++) total += table.amount[i] * count(s, p, table.code[i]);
  return total;
}
