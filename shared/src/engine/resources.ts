/**
 * Resources, colours and science symbols: the small closed vocabularies of the game, as indices.
 *
 * Resource vectors are always 7 numbers in the order below; a set of resources (the options of a
 * choice card, the kinds a discount applies to) is a 7-bit mask with bit r for resource r.
 */

export const RESOURCE_NAMES = ['wood', 'stone', 'clay', 'ore', 'glass', 'papyrus', 'loom'] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];
export const NUM_RESOURCES = 7;

/** One letter per resource, used by the data tables: W S C O G P L. */
export const RESOURCE_LETTERS = 'WSCOGPL';

export const COLOUR_NAMES = ['brown', 'grey', 'blue', 'yellow', 'green', 'red', 'purple'] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];
export const NUM_COLOURS = 7;
export const BROWN = 0;
export const GREY = 1;
export const BLUE = 2;
export const YELLOW = 3;
export const GREEN = 4;
export const RED = 5;
export const PURPLE = 6;

export const SCIENCE_NAMES = ['compass', 'gear', 'tablet'] as const;
export type ScienceName = (typeof SCIENCE_NAMES)[number];
/** Index of the wild-symbol counter next to the three symbol counters. */
export const SCIENCE_WILD = 3;

/** Parses a resource string such as "WOO" (one wood, two ore) into a count vector. */
export function resourceVector(letters: string): number[] {
  const v = [0, 0, 0, 0, 0, 0, 0];
  for (const ch of letters) {
    const r = RESOURCE_LETTERS.indexOf(ch);
    if (r < 0) throw new Error(`unknown resource letter '${ch}' in '${letters}'`);
    v[r]++;
  }
  return v;
}

/** Parses a resource string such as "WSCO" into a mask of those kinds. */
export function resourceMask(letters: string): number {
  let m = 0;
  for (const r of resourceVector(letters).keys()) if (letters.includes(RESOURCE_LETTERS[r])) m |= 1 << r;
  return m;
}
