/**
 * The facts of the game that data.test.ts checks the engine's tables against, kept in the
 * repository (fixtures/card-facts.json) so that the check runs on any clone. They are derived from
 * the reference files beside the repository (../shared/reference/cards.json and wonders.json: 7
 * Wonders, original 2010 edition) by keeping only the fields the test compares; where that
 * reference exists, the test checks that the fixture still says what it says.
 *
 * Run this file (npx tsx shared/test/card-facts.ts) to write the fixture again from the reference.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RefEffect {
  kind: string;
  amount?: number;
  resources?: Record<string, number> | string[];
  options?: string[];
  symbol?: string;
  neighbours?: string[];
  pricePerUnit?: number;
  per?: string;
  colours?: string[];
  boards?: string[];
  tradableToNeighbours?: boolean;
}

export interface RefCost {
  coins: number;
  resources: Record<string, number>;
}

export interface RefCard {
  name: string;
  age: 1 | 2 | 3;
  colour: string;
  minPlayers: number[] | null;
  copiesByPlayerCount: Record<string, number> | null;
  cost: RefCost;
  chainFrom: string[];
  chainTo: string[];
  effects: RefEffect[];
  aliases?: string[];
}

export interface RefStage {
  stage: number;
  cost: RefCost;
  effects: RefEffect[];
}

export interface RefBoard {
  city: string;
  wonder: string;
  aliases: string[];
  startingResource: { resource: string; amount: number; tradableToNeighbours: boolean };
  sides: { A: { stages: RefStage[] }; B: { stages: RefStage[] } };
}

export interface CardFacts {
  /** Where the facts come from. */
  source: string;
  cards: RefCard[];
  boards: RefBoard[];
}

export const FIXTURE = fileURLToPath(new URL('fixtures/card-facts.json', import.meta.url));
/** The reference directory beside the repository (not part of it). */
export const REFERENCE = fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
export const referenceExists = (): boolean => existsSync(`${REFERENCE}cards.json`) && existsSync(`${REFERENCE}wonders.json`);

const SOURCE =
  "Derived from the reference files beside the repository (../shared/reference/cards.json and wonders.json: 7 Wonders, original 2010 edition) by shared/test/card-facts.ts, which keeps the fields data.test.ts compares; data.test.ts checks this file against them where they exist.";

/** An object with only these keys, in this order (those it has). */
function only<T>(from: Record<string, unknown>, keys: readonly (keyof T & string)[]): T {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]])) as T;
}

const EFFECT_KEYS = ['kind', 'amount', 'resources', 'options', 'symbol', 'neighbours', 'pricePerUnit', 'per', 'colours', 'boards', 'tradableToNeighbours'] as const;
const effects = (list: Record<string, unknown>[]): RefEffect[] => list.map((e) => only<RefEffect>(e, EFFECT_KEYS));

/** The facts the test needs, from the reference's two files as parsed. */
export function cardFacts(cardsJson: { cards: Record<string, unknown>[] }, wondersJson: { boards: Record<string, unknown>[] }): CardFacts {
  const cards = cardsJson.cards.map((c) => ({
    ...only<RefCard>(c, ['name', 'age', 'colour', 'minPlayers', 'copiesByPlayerCount', 'cost', 'chainFrom', 'chainTo', 'aliases']),
    effects: effects(c.effects as Record<string, unknown>[]),
  }));
  const boards = wondersJson.boards.map((b) => {
    const side = (s: { stages: Record<string, unknown>[] }) => ({ stages: s.stages.map((st) => ({ ...only<RefStage>(st, ['stage', 'cost']), effects: effects(st.effects as Record<string, unknown>[]) })) });
    const sides = b.sides as { A: { stages: Record<string, unknown>[] }; B: { stages: Record<string, unknown>[] } };
    return { ...only<RefBoard>(b, ['city', 'wonder', 'aliases', 'startingResource']), sides: { A: side(sides.A), B: side(sides.B) } };
  });
  return { source: SOURCE, cards, boards };
}

/** The facts as the reference gives them today. */
export function factsFromReference(): CardFacts {
  const read = (file: string) => JSON.parse(readFileSync(`${REFERENCE}${file}`, 'utf8'));
  return cardFacts(read('cards.json'), read('wonders.json'));
}

/** The fixture as committed. */
export function fixtureFacts(): CardFacts {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as CardFacts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!referenceExists()) throw new Error(`no reference at ${REFERENCE}: the fixture is derived from it`);
  // A card or a board to a line: a change to the facts is a change to its lines.
  const facts = factsFromReference();
  const list = (items: unknown[]) => `[\n${items.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n ]`;
  writeFileSync(FIXTURE, `{\n "source": ${JSON.stringify(facts.source)},\n "cards": ${list(facts.cards)},\n "boards": ${list(facts.boards)}\n}\n`);
  console.log(`wrote ${FIXTURE}`);
}
