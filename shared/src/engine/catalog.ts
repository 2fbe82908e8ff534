/**
 * The data tables compiled into the indexed form the rules use: every card type and wonder stage
 * gets a number, its cost a resource vector, and each effect the fields the hot loop reads.
 *
 * A *card type* is one row of the card table (Loom of Age I and Loom of Age II are two types);
 * a *name id* identifies a building by name (both Looms share one), which is what the
 * "never two buildings of the same name" rule and chains look at.
 */
import { CARD_DATA, type CardData } from './data/cards.js';
import { BOARD_DATA, type BoardData } from './data/wonders.js';
import type { Effect } from './effects.js';
import {
  COLOUR_NAMES,
  NUM_RESOURCES,
  PURPLE,
  RESOURCE_LETTERS,
  SCIENCE_NAMES,
  SCIENCE_WILD,
  resourceMask,
  resourceVector,
} from './resources.js';

/** Discount flags: raw materials from the left / right neighbour, manufactured goods from both. */
export const DISCOUNT_RAW_LEFT = 1;
export const DISCOUNT_RAW_RIGHT = 2;
export const DISCOUNT_MANUFACTURED = 4;

/** What building a card or a stage does, in the form the rules read. */
export interface Compiled {
  cost: readonly number[];
  /** Total resource units in the cost: 0 means free of resources. */
  costUnits: number;
  /** The cost packed 4 bits per resource (see payment.ts), for a quick "already covered" test. */
  costPacked: number;
  effects: readonly Effect[];
  /** Fixed production vector. */
  produces: readonly number[];
  /** Mask of a one-of production (0 when there is none). */
  choiceMask: number;
  vp: number;
  shields: number;
  /** Science symbol index (0 compass, 1 gear, 2 tablet, 3 wild), or -1. */
  science: number;
  /** Plain coins from the bank when built. */
  coins: number;
  discount: number;
}

export interface CardType extends Compiled {
  id: number;
  nameId: number;
  name: string;
  age: 1 | 2 | 3;
  colour: number;
  colourName: (typeof COLOUR_NAMES)[number];
  copies: readonly number[];
  coinCost: number;
  /** Name ids of the buildings that make this card free. */
  chainFrom: readonly number[];
  isGuild: boolean;
  aliases: readonly string[];
}

export interface StageType extends Compiled {
  freeBuildPerAge: boolean;
  playSeventh: boolean;
  copyGuild: boolean;
  buildFromDiscard: boolean;
}

export interface Board {
  id: number;
  city: string;
  wonder: string;
  aliases: readonly string[];
  resource: number;
  sides: readonly [readonly StageType[], readonly StageType[]];
}

/** Packs a resource vector 4 bits per resource (counts capped at 7). */
export function packResources(v: ArrayLike<number>): number {
  let packed = 0;
  for (let r = 0; r < 7; r++) packed |= Math.min(v[r], 7) << (4 * r);
  return packed;
}

function compile(cost: string, effects: readonly Effect[]): Compiled {
  const c: Compiled = {
    cost: resourceVector(cost),
    costUnits: cost.length,
    costPacked: packResources(resourceVector(cost)),
    effects,
    produces: [0, 0, 0, 0, 0, 0, 0],
    choiceMask: 0,
    vp: 0,
    shields: 0,
    science: -1,
    coins: 0,
    discount: 0,
  };
  const produces = c.produces as number[];
  for (const e of effects) {
    switch (e.kind) {
      case 'produce':
        resourceVector(e.resources).forEach((n, r) => (produces[r] += n));
        break;
      case 'choice':
        c.choiceMask = resourceMask(e.options);
        break;
      case 'vp':
        c.vp += e.amount;
        break;
      case 'shields':
        c.shields += e.amount;
        break;
      case 'science':
        c.science = e.symbol === 'any' ? SCIENCE_WILD : SCIENCE_NAMES.indexOf(e.symbol);
        break;
      case 'coins':
        c.coins += e.amount;
        break;
      case 'discount': {
        const raw = resourceMask(e.resources) & 0b0001111 ? 1 : 0;
        if (raw) {
          if (e.sides !== 'right') c.discount |= DISCOUNT_RAW_LEFT;
          if (e.sides !== 'left') c.discount |= DISCOUNT_RAW_RIGHT;
        } else {
          c.discount |= DISCOUNT_MANUFACTURED;
        }
        break;
      }
      default:
        break;
    }
  }
  return c;
}

/**
 * A card's or stage's compiled cost and effects with its own fields added after them. Added to the
 * compiled object in place (Object.assign), in the order `own` lists them: objects built alike
 * then share one hidden class. (A spread into a new literal did not: each card got a map of its own.)
 */
function compiledWith<T extends object>(cost: string, effects: readonly Effect[], own: T): Compiled & T {
  return Object.assign(compile(cost, effects), own);
}

function buildCards(data: readonly CardData[]): CardType[] {
  const nameIds = new Map<string, number>();
  for (const d of data) if (!nameIds.has(d.name)) nameIds.set(d.name, nameIds.size);
  return data.map((d, id) => {
    const colour = COLOUR_NAMES.indexOf(d.colour);
    // Every field in one order (the compiled ones first, then these), so all card types share one
    // hidden class and property reads in the hot loop stay monomorphic.
    return compiledWith(d.cost, d.effects, {
      id,
      nameId: nameIds.get(d.name)!,
      name: d.name,
      age: d.age,
      colour,
      colourName: d.colour,
      copies: d.copies,
      coinCost: d.coinCost,
      chainFrom: d.chainFrom.map((n) => {
        const nid = nameIds.get(n);
        if (nid === undefined) throw new Error(`card ${d.name} chains from unknown ${n}`);
        return nid;
      }),
      isGuild: colour === PURPLE,
      aliases: d.aliases,
    });
  });
}

function buildBoards(data: readonly BoardData[]): Board[] {
  const side = (stages: BoardData['sides']['A']): StageType[] =>
    stages.map((st) => {
      const has = (k: Effect['kind']) => st.effects.some((e) => e.kind === k);
      return compiledWith(st.cost, st.effects, {
        freeBuildPerAge: has('freeBuildPerAge'),
        playSeventh: has('playSeventh'),
        copyGuild: has('copyGuild'),
        buildFromDiscard: has('buildFromDiscard'),
      });
    });
  return data.map((b, id) => ({
    id,
    city: b.city,
    wonder: b.wonder,
    aliases: b.aliases,
    resource: RESOURCE_LETTERS.indexOf(b.resource),
    sides: [side(b.sides.A), side(b.sides.B)] as const,
  }));
}

export const CARDS: readonly CardType[] = buildCards(CARD_DATA);
export const NUM_CARD_TYPES = CARDS.length;
export const NUM_NAMES = Math.max(...CARDS.map((c) => c.nameId)) + 1;
export const BOARDS: readonly Board[] = buildBoards(BOARD_DATA);
export const GUILD_IDS: readonly number[] = CARDS.filter((c) => c.isGuild).map((c) => c.id);

/**
 * Every one-of production mask the catalogue has (cards' and wonder stages'), in first-seen order;
 * CHOICE_MASK_INDEX gives a mask's place (−1: no such mask). A city's one-of productions are
 * counted per mask in GameState.packed, four bits a mask, so there may be at most eight.
 */
export const CHOICE_MASKS: readonly number[] = [
  ...new Set([...CARDS.map((c) => c.choiceMask), ...BOARDS.flatMap((b) => b.sides.flatMap((side) => side.map((stage) => stage.choiceMask)))].filter((m) => m !== 0)),
];
if (CHOICE_MASKS.length > 8) throw new Error(`a city's one-of productions are counted for 8 masks; the catalogue has ${CHOICE_MASKS.length}`);
export const CHOICE_MASK_INDEX = new Int8Array(128).fill(-1);
CHOICE_MASKS.forEach((m, i) => (CHOICE_MASK_INDEX[m] = i));
/** Per set of CHOICE_MASKS indices (bit i for index i): the resources any of those masks offers. */
export const CHOICE_UNION = Uint8Array.from({ length: 256 }, (_, set) => CHOICE_MASKS.reduce((union, m, i) => (set & (1 << i) ? union | m : union), 0));

/** Card type ids of the deck for one Age at this player count, guilds excluded, in table order. */
export function ageDeckWithoutGuilds(age: number, players: number): number[] {
  const deck: number[] = [];
  for (const c of CARDS) {
    if (c.age !== age || c.isGuild) continue;
    for (const min of c.copies) if (min <= players) deck.push(c.id);
  }
  return deck;
}

function normaliseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const cardNameIndex = new Map<string, number>();
for (const c of CARDS) {
  // Names shared by two Ages resolve to the Age I type: both have the same effects.
  for (const n of [c.name, ...c.aliases]) {
    const key = normaliseName(n);
    if (!cardNameIndex.has(key)) cardNameIndex.set(key, c.id);
  }
}

/** Card type id for a name or alias (case, apostrophes and spacing ignored), or undefined. */
export function findCard(name: string, age?: number): number | undefined {
  const id = cardNameIndex.get(normaliseName(name));
  if (id === undefined || age === undefined || CARDS[id].age === age) return id;
  const nameId = CARDS[id].nameId;
  return CARDS.find((c) => c.nameId === nameId && c.age === age)?.id ?? id;
}

const boardNameIndex = new Map<string, number>();
for (const b of BOARDS) {
  for (const n of [b.city, b.wonder, ...b.aliases]) boardNameIndex.set(normaliseName(n), b.id);
}

/** Board id for a city or wonder name or alias, or undefined. */
export function findBoard(name: string): number | undefined {
  return boardNameIndex.get(normaliseName(name));
}

export { NUM_RESOURCES };
