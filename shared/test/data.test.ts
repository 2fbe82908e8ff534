/**
 * The engine's data tables against the facts of the game: every card and every board, compared
 * field by field and effect by effect, plus the deck sizes and the deal.
 *
 * The facts are the repository's (fixtures/card-facts.json, see card-facts.ts), so the comparison
 * runs on any clone; where the reference they come from sits beside the repository
 * (`../shared/reference`), the fixture is checked against it too.
 */
import { describe, expect, it } from 'vitest';
import { factsFromReference, fixtureFacts, referenceExists, type RefCard, type RefCost, type RefEffect } from './card-facts.js';
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  BOARDS,
  BROWN,
  CARDS,
  DISCOUNT_MANUFACTURED,
  DISCOUNT_RAW_LEFT,
  DISCOUNT_RAW_RIGHT,
  GREY,
  GUILD_IDS,
  HAND_SIZE,
  handBase,
  MAX_CHOICES,
  NUM_NAMES,
  PHASE_TURN,
  RESOURCE_NAMES,
  Rng,
  SCIENCE_NAMES,
  SCIENCE_WILD,
  actingSeats,
  ageDeckWithoutGuilds,
  encodeMove,
  findBoard,
  findCard,
  legalMoves,
  newGame,
  placeCard,
  productionChanged,
  step,
  type CardType,
  type Counter,
  type Effect,
  type GameState,
  type StageType,
} from '../src/engine/index.js';

// ── The facts ───────────────────────────────────────────────────────────────

const facts = fixtureFacts();
const refCards = facts.cards;
const refBoards = facts.boards;

describe.skipIf(!referenceExists())('the card facts against the reference beside the repository', () => {
  it('fixtures/card-facts.json says what the reference says (npx tsx shared/test/card-facts.ts writes it again)', () => {
    expect(facts).toEqual(factsFromReference());
  });
});

// ── Canonical forms ─────────────────────────────────────────────────────────

function resourceIndex(name: string): number {
  const r = (RESOURCE_NAMES as readonly string[]).indexOf(name);
  if (r < 0) throw new Error(`unknown resource '${name}' in the reference`);
  return r;
}

/** { wood: 2, ore: 1 } as a 7-vector. */
function vectorOf(resources: Record<string, number>): number[] {
  const v = [0, 0, 0, 0, 0, 0, 0];
  for (const [name, k] of Object.entries(resources)) v[resourceIndex(name)] += k;
  return v;
}

function maskOf(names: readonly string[]): number {
  let m = 0;
  for (const name of names) m |= 1 << resourceIndex(name);
  return m;
}

/** Our resource letters ("WSCO") as a mask. */
function maskOfLetters(letters: string): number {
  let m = 0;
  for (const ch of letters) m |= 1 << 'WSCOGPL'.indexOf(ch);
  return m;
}

function vectorOfLetters(letters: string): number[] {
  const v = [0, 0, 0, 0, 0, 0, 0];
  for (const ch of letters) v['WSCOGPL'.indexOf(ch)]++;
  return v;
}

/** The reference's list of cities counted, in our words. */
function boardsOf(list: readonly string[] | undefined): string {
  const key = [...(list ?? [])].sort().join('+');
  if (key === 'self') return 'self';
  if (key === 'left+right') return 'neighbours';
  if (key === 'left+right+self') return 'all';
  return `?${key}`;
}

function sidesOf(list: readonly string[] | undefined): string {
  const key = [...(list ?? [])].sort().join('+');
  return key === 'left+right' ? 'both' : key;
}

function refCounter(e: RefEffect): string {
  const boards = boardsOf(e.boards);
  if (e.per === 'card') return `cards[${[...(e.colours ?? [])].sort().join(',')}] of ${boards}`;
  if (e.per === 'builtWonderStage') return `stages of ${boards}`;
  if (e.per === 'defeatToken') return `defeats of ${boards}`;
  return `?${e.per}`;
}

function ourCounter(c: Counter): string {
  if (c.of === 'cards') return `cards[${[...c.colours].sort().join(',')}] of ${c.boards}`;
  return `${c.of} of ${c.boards}`;
}

/** A reference effect as one comparable line. */
function refEffectKey(e: RefEffect): string {
  switch (e.kind) {
    case 'produce':
      return `produce ${vectorOf(e.resources as Record<string, number>).join('')}`;
    case 'produceChoice':
      return `choice of ${maskOf(e.options ?? [])} x${e.amount ?? 1}`;
    case 'victoryPoints':
      return `vp ${e.amount}`;
    case 'shields':
      return `shields ${e.amount}`;
    case 'science':
      return `science ${e.symbol}`;
    case 'coins':
      return `coins ${e.amount}`;
    case 'tradeDiscount':
      return `discount ${maskOf(e.resources as string[])} from ${sidesOf(e.neighbours)} at ${e.pricePerUnit}`;
    case 'coinsPer':
      return `coins ${e.amount} per ${refCounter(e)}`;
    case 'victoryPointsPer':
      return `vp ${e.amount} per ${refCounter(e)}`;
    case 'playSeventh':
    case 'freeBuildPerAge':
    case 'copyGuild':
      return e.kind;
    case 'buildDiscard':
      return 'buildFromDiscard';
    default:
      return `unknown reference effect ${e.kind}`;
  }
}

/** One of our effects as one comparable line. */
function ourEffectKey(e: Effect): string {
  switch (e.kind) {
    case 'produce':
      return `produce ${vectorOfLetters(e.resources).join('')}`;
    case 'choice':
      return `choice of ${maskOfLetters(e.options)} x1`;
    case 'vp':
      return `vp ${e.amount}`;
    case 'shields':
      return `shields ${e.amount}`;
    case 'science':
      return `science ${e.symbol}`;
    case 'coins':
      return `coins ${e.amount}`;
    case 'discount':
      // Our discounts always make a unit cost 1 coin.
      return `discount ${maskOfLetters(e.resources)} from ${e.sides} at 1`;
    case 'coinsPer':
      return `coins ${e.amount} per ${ourCounter(e.per)}`;
    case 'vpPer':
      return `vp ${e.amount} per ${ourCounter(e.per)}`;
    default:
      return e.kind;
  }
}

const effectKeys = <T>(effects: readonly T[], key: (e: T) => string): string[] => effects.map(key).sort();

/** What our compiled card or stage fields must be, worked out from the reference's effects. */
function compiledFromReference(effects: readonly RefEffect[], cost: RefCost) {
  const produces = [0, 0, 0, 0, 0, 0, 0];
  let choiceMask = 0;
  let vp = 0;
  let shields = 0;
  let science = -1;
  let coins = 0;
  let discount = 0;
  for (const e of effects) {
    if (e.kind === 'produce') vectorOf(e.resources as Record<string, number>).forEach((k, r) => (produces[r] += k));
    if (e.kind === 'produceChoice') choiceMask = maskOf(e.options ?? []);
    if (e.kind === 'victoryPoints') vp += e.amount ?? 0;
    if (e.kind === 'shields') shields += e.amount ?? 0;
    if (e.kind === 'science') science = e.symbol === 'any' ? SCIENCE_WILD : (SCIENCE_NAMES as readonly string[]).indexOf(e.symbol!);
    if (e.kind === 'coins') coins += e.amount ?? 0;
    if (e.kind === 'tradeDiscount') {
      const raw = maskOf(e.resources as string[]) & 0b0001111;
      const sides = e.neighbours ?? [];
      if (raw) {
        if (sides.includes('left')) discount |= DISCOUNT_RAW_LEFT;
        if (sides.includes('right')) discount |= DISCOUNT_RAW_RIGHT;
      } else {
        discount |= DISCOUNT_MANUFACTURED;
      }
    }
  }
  const costVector = vectorOf(cost.resources);
  return {
    cost: costVector,
    costUnits: costVector.reduce((a, b) => a + b, 0),
    produces,
    choiceMask,
    vp,
    shields,
    science,
    coins,
    discount,
  };
}

function compiledOf(x: CardType | StageType) {
  return {
    cost: [...x.cost],
    costUnits: x.costUnits,
    produces: [...x.produces],
    choiceMask: x.choiceMask,
    vp: x.vp,
    shields: x.shields,
    science: x.science,
    coins: x.coins,
    discount: x.discount,
  };
}

const nameOfNameId = (nameId: number): string => CARDS.find((c) => c.nameId === nameId)!.name;

/** Our card for a reference card: found by name and Age. */
function ourCard(ref: RefCard): CardType {
  const id = findCard(ref.name, ref.age);
  expect(id, `${ref.name} (Age ${ref.age}) is in our table`).toBeDefined();
  const card = CARDS[id!];
  expect(card.age, `${ref.name}: the Age ${ref.age} card`).toBe(ref.age);
  return card;
}

// ── Cards ───────────────────────────────────────────────────────────────────

describe('cards against the card facts', () => {
  it('the same cards: one of ours for every reference card and no other', () => {
    expect(refCards.length).toBeGreaterThan(0);
    const matched = refCards.map((ref) => ourCard(ref).id);
    expect(new Set(matched).size, 'no two reference cards map to one of ours').toBe(refCards.length);
    expect(CARDS.length).toBe(refCards.length);
    for (const c of CARDS) {
      expect(
        refCards.some((ref) => ref.name === c.name && ref.age === c.age),
        `${c.name} (Age ${c.age}) is in the reference`,
      ).toBe(true);
    }
  });

  it.each(refCards.map((ref) => [`${ref.name} (Age ${ref.age})`, ref] as const))('%s', (_, ref) => {
    const card = ourCard(ref);
    expect(card.name).toBe(ref.name);
    expect(card.colourName, 'colour').toBe(ref.colour);
    expect(card.isGuild, 'guild').toBe(ref.colour === 'purple');

    // Copies per player count.
    if (ref.minPlayers === null) {
      expect(card.isGuild, 'only guilds have no copies column').toBe(true);
      expect(card.copies).toEqual([]);
    } else {
      expect([...card.copies].sort(), 'minimum player count of each copy').toEqual([...ref.minPlayers].sort());
      for (let n = 3; n <= 7; n++) {
        expect(card.copies.filter((m) => m <= n).length, `copies at ${n} players`).toBe(ref.copiesByPlayerCount![String(n)]);
      }
    }

    // Cost.
    expect([...card.cost], 'resource cost').toEqual(vectorOf(ref.cost.resources));
    expect(card.coinCost, 'coin cost').toBe(ref.cost.coins);

    // Chains, both ways.
    expect(card.chainFrom.map(nameOfNameId).sort(), 'chains from').toEqual([...ref.chainFrom].sort());
    const chainsTo = [...new Set(CARDS.filter((c) => c.chainFrom.includes(card.nameId)).map((c) => c.name))].sort();
    expect(chainsTo, 'chains to').toEqual([...ref.chainTo].sort());

    // Effects, as data and as compiled for the rules.
    expect(effectKeys(card.effects, ourEffectKey), 'effects').toEqual(effectKeys(ref.effects, refEffectKey));
    expect(compiledOf(card), 'compiled fields').toEqual(compiledFromReference(ref.effects, ref.cost));

    // Aliases (the reference's spellings that are names, not descriptions) find the card.
    for (const alias of ref.aliases ?? []) {
      if (alias.includes('/')) continue;
      expect(CARDS[findCard(alias)!]?.nameId, `alias '${alias}'`).toBe(card.nameId);
    }
  });

  it('production is tradable exactly as the reference says (brown and grey cards only)', () => {
    for (const ref of refCards) {
      const card = ourCard(ref);
      const production = ref.effects.filter((e) => e.kind === 'produce' || e.kind === 'produceChoice');
      if (production.length === 0) continue;
      const s = newGame({ players: 3, seed: 1 });
      const fixedBefore = Array.from(s.tradeFixed.subarray(0, 7));
      const choicesBefore = s.tradeChoiceLen[0];
      placeCard(s, 0, card.id);
      for (const e of production) {
        const tradable = e.tradableToNeighbours === true;
        expect(tradable, `${ref.name}: tradable as brown/grey`).toBe(card.colour === BROWN || card.colour === GREY);
        if (e.kind === 'produce') {
          const want = vectorOf(e.resources as Record<string, number>).map((k, r) => fixedBefore[r] + (tradable ? k : 0));
          expect(Array.from(s.tradeFixed.subarray(0, 7)), `${ref.name}: production neighbours may buy`).toEqual(want);
        } else {
          expect(s.tradeChoiceLen[0] - choicesBefore, `${ref.name}: one-of production neighbours may buy`).toBe(tradable ? 1 : 0);
          expect(s.choices[s.choiceLen[0] - 1], `${ref.name}: own one-of production`).toBe(maskOf(e.options ?? []));
        }
      }
    }
  });

  it('deck sizes from the reference: 7 cards per player in every Age, guilds included', () => {
    for (let n = 3; n <= 7; n++) {
      for (const age of [1, 2, 3] as const) {
        const ofAge = refCards.filter((c) => c.age === age && c.copiesByPlayerCount);
        const copies = ofAge.reduce((k, c) => k + c.copiesByPlayerCount![String(n)], 0);
        expect(copies, `reference non-guild cards, Age ${age}, ${n} players`).toBe(age === 3 ? 7 * n - (n + 2) : 7 * n);
        expect(ageDeckWithoutGuilds(age, n).length).toBe(copies);
      }
      expect(refCards.filter((c) => c.colour === 'purple').length).toBe(GUILD_IDS.length);
    }
  });
});

// ── Boards ──────────────────────────────────────────────────────────────────

/** A 3-player game with `board` at seat 0 on `side`, every other seat discarding. */
function gameWithBoard(board: number, side: 'A' | 'B'): GameState {
  const others = BOARDS.map((b) => b.id).filter((b) => b !== board);
  return newGame({ players: 3, seed: board * 2 + (side === 'A' ? 0 : 1), boards: [board, others[0], others[1]], sides: side });
}

interface StageOutcome {
  coins: number;
  shields: number;
  choices: number;
  tradeChoices: number;
}

/**
 * Builds seat 0's next stage for free (its production is topped up to the stage's cost first) while
 * the others discard; returns what seat 0 gained by that step, before any build from the discard
 * pile that the stage allows is resolved.
 */
function buildNextStage(s: GameState): StageOutcome {
  const stage = BOARDS[s.board[0]].sides[s.side[0]][s.stages[0]];
  for (let r = 0; r < 7; r++) s.fixed[r] = Math.max(s.fixed[r], stage.cost[r]); // seat 0's block
  productionChanged(s);
  const moves = new Int32Array(s.n);
  for (const p of actingSeats(s)) {
    const hand = s.hands[handBase(s, p)];
    moves[p] = p === 0 ? encodeMove(hand, ACTION_STAGE) : encodeMove(hand, ACTION_DISCARD);
  }
  expect(legalMoves(s, 0, 'cheapest'), 'the stage is legal and free').toContain(moves[0]);
  const before: StageOutcome = {
    coins: s.coins[0],
    shields: s.shields[0],
    choices: s.choiceLen[0],
    tradeChoices: s.tradeChoiceLen[0],
  };
  step(s, moves);
  const gained: StageOutcome = {
    coins: s.coins[0] - before.coins,
    shields: s.shields[0] - before.shields,
    choices: s.choiceLen[0] - before.choices,
    tradeChoices: s.tradeChoiceLen[0] - before.tradeChoices,
  };
  // Let a build from the discard pile pass (any card will do) to get back to a normal turn.
  while (s.phase !== PHASE_TURN && !s.isOver()) {
    const m = new Int32Array(s.n);
    for (const p of actingSeats(s)) m[p] = legalMoves(s, p, 'cheapest')[0];
    step(s, m);
  }
  return gained;
}

describe('boards against the card facts', () => {
  it('the same seven boards', () => {
    expect(refBoards.length).toBe(7);
    expect(BOARDS.length).toBe(refBoards.length);
    const ids = refBoards.map((b) => findBoard(b.city));
    expect(new Set(ids).size).toBe(7);
  });

  it.each(refBoards.map((ref) => [ref.city, ref] as const))('%s', (_, ref) => {
    const id = findBoard(ref.city);
    expect(id, `${ref.city} is one of our boards`).toBeDefined();
    const board = BOARDS[id!];
    expect(board.city).toBe(ref.city);
    expect(board.wonder).toBe(ref.wonder);
    for (const alias of [ref.wonder, ...ref.aliases]) expect(findBoard(alias), `alias '${alias}'`).toBe(board.id);

    // Starting resource: one unit, which neighbours may buy.
    expect(RESOURCE_NAMES[board.resource], 'starting resource').toBe(ref.startingResource.resource);
    expect(ref.startingResource.amount).toBe(1);
    expect(ref.startingResource.tradableToNeighbours).toBe(true);
    const s = gameWithBoard(board.id, 'A');
    const want = [0, 0, 0, 0, 0, 0, 0];
    want[board.resource] = 1;
    expect(Array.from(s.fixed.subarray(0, 7)), 'produced from the start').toEqual(want);
    expect(Array.from(s.tradeFixed.subarray(0, 7)), 'neighbours may buy it').toEqual(want);

    for (const [i, sideName] of (['A', 'B'] as const).entries()) {
      const refStages = ref.sides[sideName].stages;
      const stages = board.sides[i];
      expect(stages.length, `side ${sideName}: stages`).toBe(refStages.length);
      refStages.forEach((refStage, k) => {
        const stage = stages[k];
        const where = `side ${sideName} stage ${k + 1}`;
        expect(refStage.stage).toBe(k + 1);
        expect(refStage.cost.coins, `${where}: stages cost no coins`).toBe(0);
        expect([...stage.cost], `${where}: cost`).toEqual(vectorOf(refStage.cost.resources));
        expect(effectKeys(stage.effects, ourEffectKey), `${where}: effects`).toEqual(
          effectKeys(refStage.effects, refEffectKey),
        );
        expect(compiledOf(stage), `${where}: compiled fields`).toEqual(compiledFromReference(refStage.effects, refStage.cost));
        const kinds = refStage.effects.map((e) => e.kind);
        expect(stage.freeBuildPerAge, `${where}: free build`).toBe(kinds.includes('freeBuildPerAge'));
        expect(stage.playSeventh, `${where}: seventh card`).toBe(kinds.includes('playSeventh'));
        expect(stage.copyGuild, `${where}: copy a guild`).toBe(kinds.includes('copyGuild'));
        expect(stage.buildFromDiscard, `${where}: build from the discard pile`).toBe(kinds.includes('buildDiscard'));
      });
    }
  });

  it('stages do in a game what the reference says: coins, shields, one-of production neighbours cannot buy', () => {
    for (const ref of refBoards) {
      const board = BOARDS[findBoard(ref.city)!];
      for (const sideName of ['A', 'B'] as const) {
        const s = gameWithBoard(board.id, sideName);
        for (const [k, refStage] of ref.sides[sideName].stages.entries()) {
          const where = `${ref.city} ${sideName} stage ${k + 1}`;
          const gained = buildNextStage(s);
          expect(s.stages[0], where).toBe(k + 1);
          const sum = (kind: string) => refStage.effects.filter((e) => e.kind === kind).reduce((a, e) => a + (e.amount ?? 0), 0);
          expect(gained.coins, `${where}: coins`).toBe(sum('coins'));
          expect(gained.shields, `${where}: shields`).toBe(sum('shields'));
          const choices = refStage.effects.filter((e) => e.kind === 'produceChoice');
          expect(gained.choices, `${where}: own one-of production`).toBe(choices.length);
          for (const e of choices) expect(e.tradableToNeighbours, `${where}: reference says not tradable`).toBe(false);
          expect(gained.tradeChoices, `${where}: neighbours cannot buy stage production`).toBe(0);
          expect(s.choiceLen[0]).toBeLessThanOrEqual(MAX_CHOICES);
        }
      }
    }
  });
});

// ── Decks and the deal (no reference needed) ────────────────────────────────

const sorted = (a: readonly number[]): number[] => [...a].sort((x, y) => x - y);

function allHands(s: GameState): number[] {
  const cards: number[] = [];
  for (let p = 0; p < s.n; p++) {
    expect(s.handLen[p], `seat ${p} holds 7 cards`).toBe(HAND_SIZE);
    cards.push(...s.hands.subarray(handBase(s, p), handBase(s, p) + HAND_SIZE));
  }
  return cards;
}

describe('decks and the deal', () => {
  it('Age I and II decks have 7n cards and Age III 7n − (n + 2) non-guild cards, n = 3..7', () => {
    expect(GUILD_IDS.length).toBe(10);
    for (let n = 3; n <= 7; n++) {
      expect(ageDeckWithoutGuilds(1, n).length, `Age I, ${n} players`).toBe(7 * n);
      expect(ageDeckWithoutGuilds(2, n).length, `Age II, ${n} players`).toBe(7 * n);
      expect(ageDeckWithoutGuilds(3, n).length, `Age III, ${n} players`).toBe(7 * n - (n + 2));
      for (const age of [1, 2, 3]) {
        for (const c of ageDeckWithoutGuilds(age, n)) {
          expect(CARDS[c].age).toBe(age);
          expect(CARDS[c].isGuild).toBe(false);
        }
      }
    }
  });

  it('a new game deals 7 cards to each seat, and each Age deals its whole deck', () => {
    for (let n = 3; n <= 7; n++) {
      for (const seed of [1, 2, 3]) {
        const s = newGame({ players: n, seed: seed * 100 + n });
        expect(sorted(allHands(s)), `Age I deal, ${n} players`).toEqual(sorted(ageDeckWithoutGuilds(1, n)));
        expect(Array.from(s.coins)).toEqual(new Array(n).fill(3));
        const rng = new Rng(seed);
        const moves = new Int32Array(n);
        let age = 1;
        while (!s.isOver()) {
          for (const p of actingSeats(s)) {
            const legal = legalMoves(s, p, 'cheapest');
            moves[p] = legal[rng.int(legal.length)];
          }
          step(s, moves);
          if (s.age !== age && !s.isOver()) {
            age = s.age;
            expect(s.turn).toBe(1);
            const cards = allHands(s);
            const guilds = cards.filter((c) => CARDS[c].isGuild);
            const others = cards.filter((c) => !CARDS[c].isGuild);
            expect(sorted(others), `Age ${age} deal, ${n} players`).toEqual(sorted(ageDeckWithoutGuilds(age, n)));
            expect(guilds.length, `guilds in the Age ${age} deal`).toBe(age === 3 ? n + 2 : 0);
            expect(new Set(guilds).size).toBe(guilds.length);
          }
        }
        expect(age).toBe(3);
      }
    }
  });

  it('names: every building name is one id, and common spellings are found', () => {
    expect(NUM_NAMES).toBe(new Set(CARDS.map((c) => c.name)).size);
    for (const [alias, name] of [
      ['Caravanserai', 'Caravansery'],
      ['Bazaar', 'Bazar'],
      ['Theatre', 'Theater'],
      ["Craftsmen's Guild", 'Craftsmens Guild'],
      ["Workers' Guild", 'Workers Guild'],
    ]) {
      expect(CARDS[findCard(alias)!]?.name, alias).toBe(name);
    }
    for (const [alias, city] of [
      ['Rhodes', 'Rhodos'],
      ['Giza', 'Gizah'],
      ['Ephesus', 'Ephesos'],
      ['Halicarnassus', 'Halikarnassos'],
    ]) {
      expect(BOARDS[findBoard(alias)!]?.city, alias).toBe(city);
    }
  });
});
