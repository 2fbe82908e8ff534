/**
 * The three rule-based agents (agents/rulebased.ts), rule by rule: each test builds a position in
 * which the rule under test is the FIRST that applies (the earlier rules find nothing) and checks
 * the move chosen and the `reason` naming the rule. Where a rule draws among several candidates,
 * either the candidate is unique or the choice is checked over many seeds.
 *
 * Seat 0 is always the agent. players[i + 1] is player i's LEFT neighbour: seat 0's left is
 * seat 1, its right the last seat.
 *
 * Board resources: Alexandria G, Babylon C, Ephesos P, Gizah S, Halikarnassos L, Olympia W,
 * Rhodos O. Shields come from built red cards and Rhodes' stages (A: 2 after stage 2; B: 1 a stage).
 */
import { describe, expect, it } from 'vitest';
import {
  DawieangRuleBasedAgent,
  RobilliardRuleBasedAgent,
  ThesisRuleBasedAgent,
  type Agent,
} from '../src/agents/index.js';
import {
  ACTION_FREE_BUILD,
  Rng,
  actingSeats,
  decodeMove,
  legalMoves,
  moveAction,
  movePayLeft,
  movePayRight,
  newGame,
  step,
  stateFromPosition,
  type DecodedMove,
  type GameState,
  type PositionPlayer,
} from '../src/engine/index.js';
import { decisionContext } from '../src/agents/index.js';
import { position } from './rules-helpers.js';

type AgentFactory = () => Agent;
const thesis: AgentFactory = () => new ThesisRuleBasedAgent();
const robilliard: AgentFactory = () => new RobilliardRuleBasedAgent();
const robilliardNoTrade: AgentFactory = () => new RobilliardRuleBasedAgent({ trades: false });
const dawieang: AgentFactory = () => new DawieangRuleBasedAgent();

interface Chosen extends DecodedMove {
  move: number;
  reason: string | undefined;
}

function state(age: 1 | 2 | 3, players: PositionPlayer[]): GameState {
  return stateFromPosition(position(age, players));
}

/** The decision of a fresh agent at seat `seat` of `s`, with its RNG seeded by `seed`. */
function decide(make: AgentFactory, s: GameState, seed = 1, seat = 0): Chosen {
  const agent = make();
  const legal = legalMoves(s, seat, agent.moveMode, []);
  const d = agent.decide(decisionContext(s, seat, legal, new Rng(seed), false));
  expect(legal).toContain(d.move);
  return { move: d.move, reason: d.reason, ...decodeMove(d.move) };
}

/** The decisions over seeds 1..n. */
function overSeeds(make: AgentFactory, s: GameState, n = 40): Chosen[] {
  return Array.from({ length: n }, (_, i) => decide(make, s, i + 1));
}

const cards = (xs: Chosen[]) => [...new Set(xs.map((x) => x.card))].sort();

/** The (card, action) pairs seat 0 may play other than discards: to check a position's premise. */
const offered = (s: GameState) =>
  legalMoves(s, 0, 'cheapest')
    .map(decodeMove)
    .filter((m) => m.action !== 'discard')
    .map((m) => `${m.card}:${m.action}`)
    .sort();

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Shared positions
// ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Rhodes B complete (no stage), no coins, neighbours Ephesos (P) and Halikarnassos (L): nobody
 * has stone, clay or glass, so Baths (S), Guard Tower (C) and Workshop (G) cannot be built.
 */
const stuck = (hand: string[]) =>
  state(1, [
    { wonder: 'Rhodes', side: 'B', stages: 2, coins: 0, hand },
    { wonder: 'Ephesus' },
    { wonder: 'Halicarnassus' },
  ]);

/** Olympia A (W) with neighbours Rhodes (O) and Gizah (S): no wood to buy, so no stage (WW). */
const olympiaNoStage = (extra: Partial<PositionPlayer>, left: PositionPlayer = { wonder: 'Rhodes' }) =>
  state(1, [
    { wonder: 'Olympia', side: 'A', hand: ['Stockade', 'Altar', 'Tavern'], ...extra },
    left,
    { wonder: 'Gizah' },
  ]);

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Minenko's thesis bot ('rulebased')
// ─────────────────────────────────────────────────────────────────────────────────────────────

describe('ThesisRuleBasedAgent (rulebased)', () => {
  it('rule 1: Tree Farm (a choice of two resources) before everything else', () => {
    // Gizah (S): Lumber Yard-free hand; Tree Farm costs 1 coin, Stockade needs wood, Altar is blue.
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Tree Farm', 'Stockade', 'Altar'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({
      card: 'Tree Farm',
      action: 'build',
      payLeft: 0,
      payRight: 0,
      reason: 'rule 1: two or more resources',
    });
  });

  it('rule 1: Sawmill (two units of one resource), even when the resource is already produced', () => {
    // Olympia (W) already has wood; Aqueduct is free through Baths, but rule 1 comes first.
    const s = state(2, [
      { wonder: 'Olympia', built: ['Baths'], hand: ['Sawmill', 'Aqueduct', 'School'] },
      { wonder: 'Rhodes' },
      { wonder: 'Gizah' },
    ]);
    expect(decide(thesis, s)).toMatchObject({ card: 'Sawmill', action: 'build', reason: 'rule 1: two or more resources' });
  });

  it('rule 2: a card giving a resource the city lacks (Lumber Yard, not Stone Pit for Gizah)', () => {
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Lumber Yard', 'Stone Pit', 'Altar'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({ card: 'Lumber Yard', action: 'build', reason: 'rule 2: a missing resource' });
  });

  it('rule 3: military when not the strongest, buying the wood from the left neighbour', () => {
    // Gizah needs wood for the Stockade: only the left neighbour (Olympia) has it, at 2 coins.
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Stockade', 'Altar', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({
      card: 'Stockade',
      action: 'build',
      payLeft: 2,
      payRight: 0,
      reason: 'rule 3: military',
    });
  });

  it('rule 3: military when tied for the most shields', () => {
    // Seat 0 and its left neighbour both have 1 shield.
    const s = olympiaNoStage({ built: ['Barracks'] }, { wonder: 'Rhodes', built: ['Guard Tower'] });
    expect(decide(thesis, s)).toMatchObject({ card: 'Stockade', action: 'build', reason: 'rule 3: military' });
  });

  it('rule 3 is skipped when the agent already has strictly the most shields', () => {
    // 1 shield against 0 and 0; no stage (no wood to buy): rule 5 takes the Altar.
    const s = olympiaNoStage({ built: ['Barracks'] });
    expect(offered(s)).toEqual(['Altar:build', 'Stockade:build', 'Tavern:build']);
    expect(decide(thesis, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 5: civilian with most VP' });
  });

  it('rule 3: "the strongest" is among all players, not only the neighbours (4 players)', () => {
    // Seat 0 has 1 shield, its neighbours (seats 1 and 3) none, but seat 2 (Rhodes A, 2 stages) has 2.
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', built: ['Barracks'], hand: ['Stockade', 'Altar', 'Tavern'] },
      { wonder: 'Gizah' },
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({ card: 'Stockade', reason: 'rule 3: military' });
  });

  it('rule 4: a wonder stage (Olympia A stage 1, WW from board and Lumber Yard)', () => {
    const hand = ['Altar', 'Theater', 'Tavern'];
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', built: ['Lumber Yard'], hand },
      { wonder: 'Rhodes' },
      { wonder: 'Gizah' },
    ]);
    for (const d of overSeeds(thesis, s, 20)) {
      expect(d).toMatchObject({ action: 'stage', payLeft: 0, payRight: 0, reason: 'rule 4: wonder stage' });
      expect(hand).toContain(d.card);
    }
  });

  it('rule 5: the civilian card with the most VP (Baths 3 over Altar 2 and Theater 2)', () => {
    // Gizah A complete: no stage. Baths needs stone: Gizah's own.
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Altar', 'Baths', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    for (const d of overSeeds(thesis, s, 10)) {
      expect(d).toMatchObject({ card: 'Baths', action: 'build', reason: 'rule 5: civilian with most VP' });
    }
  });

  it('rule 5: ties at the top VP are drawn at random (Baths or Pawnshop, never Altar)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Altar', 'Baths', 'Pawnshop'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    const ds = overSeeds(thesis, s);
    for (const d of ds) expect(d.reason).toBe('rule 5: civilian with most VP');
    expect(cards(ds)).toEqual(['Baths', 'Pawnshop']);
  });

  it('rule 5 only counts cards that can be built (Baths without stone is passed over)', () => {
    // Rhodes B complete, no coins, no stone around: Baths is unbuildable, Altar is the best blue.
    const s = stuck(['Baths', 'Altar', 'Tavern']);
    expect(offered(s)).toEqual(['Altar:build', 'Tavern:build']);
    expect(decide(thesis, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 5: civilian with most VP' });
  });

  it('rule 6: science', () => {
    // Alexandria A complete (G of its own): Workshop is buildable; the rest is yellow.
    const s = state(1, [
      { wonder: 'Alexandria', side: 'A', stages: 3, hand: ['Tavern', 'Workshop', 'Marketplace'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({ card: 'Workshop', action: 'build', reason: 'rule 6: science' });
  });

  it('rule 5 comes before science: Altar over Workshop', () => {
    const s = state(1, [
      { wonder: 'Alexandria', side: 'A', stages: 3, hand: ['Tavern', 'Workshop', 'Altar'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(thesis, s)).toMatchObject({ card: 'Altar', reason: 'rule 5: civilian with most VP' });
  });

  it('rule 7: any card (the only buildable one, Tavern)', () => {
    const s = stuck(['Baths', 'Tavern', 'Guard Tower']);
    expect(decide(thesis, s)).toMatchObject({ card: 'Tavern', action: 'build', reason: 'rule 7: any card' });
  });

  it('rule 7: any card, drawn among several', () => {
    const hand = ['Tavern', 'Marketplace', 'East Trading Post'];
    const ds = overSeeds(thesis, stuck(hand));
    for (const d of ds) expect(d).toMatchObject({ action: 'build', reason: 'rule 7: any card' });
    expect(cards(ds)).toEqual([...hand].sort());
  });

  it('rule 8: sell a card when nothing can be built', () => {
    const hand = ['Baths', 'Guard Tower', 'Workshop'];
    expect(offered(stuck(hand))).toEqual([]);
    const ds = overSeeds(thesis, stuck(hand));
    for (const d of ds) {
      expect(d).toMatchObject({ action: 'discard', reason: 'rule 8: sell a card' });
      expect(hand).toContain(d.card);
    }
    expect(cards(ds).length).toBeGreaterThan(1);
  });

  describe('Olympia A free build', () => {
    // Olympia A with stage 2 built has the once-per-Age free build.
    const olympia = (extra: Partial<PositionPlayer>) =>
      state(1, [
        { wonder: 'Olympia', side: 'A', stages: 2, ...extra },
        { wonder: 'Rhodes' },
        { wonder: 'Babylon' },
      ]);

    it('is used for a card that costs a coin (Tree Farm, rule 1)', () => {
      const d = decide(thesis, olympia({ hand: ['Tree Farm', 'Altar', 'Theater'] }));
      expect(d).toMatchObject({ card: 'Tree Farm', action: 'freeBuild', reason: 'rule 1: two or more resources' });
      expect(moveAction(d.move)).toBe(ACTION_FREE_BUILD);
    });

    it('is used for a card that would be bought from a neighbour (Guard Tower, rule 3)', () => {
      // Guard Tower needs clay: 2 coins to the right neighbour (Babylon) without the free build.
      const s = olympia({ hand: ['Guard Tower', 'Altar', 'Tavern'] });
      expect(legalMoves(s, 0, 'cheapest').map(decodeMove)).toContainEqual(
        expect.objectContaining({ card: 'Guard Tower', action: 'build', payRight: 2 }),
      );
      expect(decide(thesis, s)).toMatchObject({ card: 'Guard Tower', action: 'freeBuild', reason: 'rule 3: military' });
    });

    it('once used this Age, the paid build is chosen', () => {
      const d = decide(thesis, olympia({ hand: ['Tree Farm', 'Altar', 'Theater'], freeBuildUsed: true }));
      expect(d).toMatchObject({ card: 'Tree Farm', action: 'build', reason: 'rule 1: two or more resources' });
    });

    it('is not spent on a card that is free anyway (Stone Pit, rule 2)', () => {
      const d = decide(thesis, olympia({ hand: ['Stone Pit', 'Altar', 'Theater'] }));
      expect(d).toMatchObject({ card: 'Stone Pit', action: 'build', payLeft: 0, payRight: 0, reason: 'rule 2: a missing resource' });
    });
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Robilliard, Fonlupt and Teytaud (2014)
// ─────────────────────────────────────────────────────────────────────────────────────────────

describe('RobilliardRuleBasedAgent (rulebased-robilliard)', () => {
  it('rule 1: a card of two or more resource types (Tree Farm)', () => {
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Lumber Yard', 'Tree Farm', 'Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Tree Farm', action: 'build', reason: 'rule 1: two or more resource types' });
  });

  it('rule 1 does not cover Sawmill (one type); with wood already produced it is not rule 2 either', () => {
    // Same position as the thesis bot's Sawmill test: here rule 4 takes the Aqueduct (free chain).
    const s = state(2, [
      { wonder: 'Olympia', built: ['Baths'], hand: ['Sawmill', 'Aqueduct', 'School'] },
      { wonder: 'Rhodes' },
      { wonder: 'Gizah' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Aqueduct', action: 'build', payLeft: 0, payRight: 0, reason: 'rule 4: civilian with most VP' });
  });

  it('rule 2: a single-type card giving a lacking resource (Lumber Yard for Gizah)', () => {
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Stone Pit', 'Lumber Yard', 'Altar'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Lumber Yard', action: 'build', reason: 'rule 2: a lacking resource' });
  });

  it('rule 2: Sawmill when wood is lacking', () => {
    const s = state(2, [
      { wonder: 'Gizah', hand: ['Quarry', 'Sawmill', 'School'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Sawmill', action: 'build', reason: 'rule 2: a lacking resource' });
  });

  it('rule 3: military when nobody has shields (the card makes it a leader)', () => {
    const s = olympiaNoStage({});
    expect(decide(robilliard, s)).toMatchObject({ card: 'Stockade', action: 'build', reason: 'rule 3: military' });
  });

  it('rule 3: military buying from a neighbour (Gizah buys the Stockade’s wood from the left)', () => {
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Stockade', 'Altar', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Stockade', payLeft: 2, payRight: 0, reason: 'rule 3: military' });
  });

  it('without trades (rulebased-robilliard-notrade) the Stockade that needs bought wood is passed over for rule 4', () => {
    const s = state(1, [
      { wonder: 'Gizah', hand: ['Stockade', 'Altar', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    const ds = overSeeds(robilliardNoTrade, s, 20);
    for (const d of ds) expect(d).toMatchObject({ action: 'build', payLeft: 0, payRight: 0, reason: 'rule 4: civilian with most VP' });
    expect(cards(ds)).toEqual(['Altar', 'Theater']);
  });

  it('without trades, no move over whole games pays a neighbour, where the trading player does', () => {
    let traded = 0;
    let decisions = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const s = newGame({ players: 3, seed, sides: 'A' });
      const rng = new Rng(seed);
      const agents = [robilliardNoTrade(), robilliard(), robilliard()];
      const moves = new Int32Array(3);
      while (!s.isOver()) {
        for (const p of actingSeats(s)) {
          const legal = legalMoves(s, p, 'cheapest', []);
          moves[p] = agents[p].decide(decisionContext(s, p, legal, rng, false)).move;
          expect(legal).toContain(moves[p]);
          if (movePayLeft(moves[p]) + movePayRight(moves[p]) > 0) {
            expect(p, `seat ${p} paid a neighbour`).not.toBe(0);
            traded++;
          }
          if (p === 0) decisions++;
        }
        step(s, moves);
      }
    }
    expect(decisions).toBeGreaterThan(100);
    expect(traded).toBeGreaterThan(0);
  });

  it('rule 3 is skipped when the card would not make it one of the leaders (Stockade: 1 < 2)', () => {
    // The left neighbour (Rhodes A, 2 stages) has 2 shields.
    const s = olympiaNoStage({}, { wonder: 'Rhodes', side: 'A', stages: 2 });
    expect(offered(s)).toContain('Stockade:build');
    expect(decide(robilliard, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 4: civilian with most VP' });
  });

  it('rule 3: Walls (2 shields) ties the leader with 2: played', () => {
    // Gizah: board S + Quarry SS = the Walls' SSS.
    const s = state(2, [
      { wonder: 'Gizah', built: ['Quarry'], hand: ['Walls', 'School', 'Vineyard'] },
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Walls', action: 'build', reason: 'rule 3: military' });
  });

  it('rule 3 is skipped when the agent is already the only leader', () => {
    const s = olympiaNoStage({ built: ['Barracks'] });
    expect(decide(robilliard, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 4: civilian with most VP' });
  });

  it('rule 3: military when tied for the lead', () => {
    const s = olympiaNoStage({ built: ['Barracks'] }, { wonder: 'Rhodes', built: ['Guard Tower'] });
    expect(decide(robilliard, s)).toMatchObject({ card: 'Stockade', reason: 'rule 3: military' });
  });

  it('rule 4: the civilian card with the most VP (Baths)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Altar', 'Baths', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    for (const d of overSeeds(robilliard, s, 10)) {
      expect(d).toMatchObject({ card: 'Baths', action: 'build', reason: 'rule 4: civilian with most VP' });
    }
  });

  it('has no wonder rule in Ages I–II: a free stage is passed over for a civilian card', () => {
    // Olympia A stage 1 (WW) is free with the Lumber Yard; the thesis bot would build it (rule 4).
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', built: ['Lumber Yard'], hand: ['Altar', 'Tavern', 'Marketplace'] },
      { wonder: 'Rhodes' },
      { wonder: 'Gizah' },
    ]);
    expect(legalMoves(s, 0, 'cheapest').map(decodeMove)).toContainEqual(
      expect.objectContaining({ action: 'stage', payLeft: 0, payRight: 0 }),
    );
    expect(decide(robilliard, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 4: civilian with most VP' });
  });

  it('rule 5: science', () => {
    const s = state(1, [
      { wonder: 'Alexandria', side: 'A', stages: 3, hand: ['Tavern', 'Workshop', 'Marketplace'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Workshop', action: 'build', reason: 'rule 5: science' });
  });

  it('rule 6: any card (the only buildable one, Tavern)', () => {
    const s = stuck(['Baths', 'Tavern', 'Guard Tower']);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Tavern', action: 'build', reason: 'rule 6: any card' });
  });

  it('rule 6: any card, drawn among several', () => {
    const hand = ['Tavern', 'Marketplace', 'East Trading Post'];
    const ds = overSeeds(robilliard, stuck(hand));
    for (const d of ds) expect(d).toMatchObject({ action: 'build', reason: 'rule 6: any card' });
    expect(cards(ds)).toEqual([...hand].sort());
  });

  it('rule 7: discard when nothing can be built', () => {
    const hand = ['Baths', 'Guard Tower', 'Workshop'];
    for (const d of overSeeds(robilliard, stuck(hand), 20)) {
      expect(d).toMatchObject({ action: 'discard', reason: 'rule 7: discard' });
      expect(hand).toContain(d.card);
    }
  });

  it('Olympia A: the free build instead of a build paid with a coin (Tree Farm, rule 1)', () => {
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', stages: 2, hand: ['Tree Farm', 'Altar', 'Theater'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(robilliard, s)).toMatchObject({ card: 'Tree Farm', action: 'freeBuild', reason: 'rule 1: two or more resource types' });
  });

  describe('Age III: best immediate VP', () => {
    it('Pantheon (7 VP) over Senate (6) and Gardens (5), all free through chains', () => {
      const s = state(3, [
        {
          wonder: 'Babylon', side: 'A', stages: 3, coins: 0,
          built: ['Temple', 'Library', 'Statue'],
          hand: ['Gardens', 'Senate', 'Pantheon'],
        },
        { wonder: 'Rhodes', hand: ['Lodge', 'Study', 'Arena'] },
        { wonder: 'Gizah', hand: ['Haven', 'Academy', 'Circus'] },
      ]);
      for (const d of overSeeds(robilliard, s, 5)) {
        expect(d).toMatchObject({ card: 'Pantheon', action: 'build', reason: 'age III: best immediate VP' });
      }
    });

    it('Haven with 8 brown cards (8 VP + 8 coins) over Pantheon (7 VP): immediate VP, not printed VP', () => {
      const s = state(3, [
        {
          wonder: 'Babylon', side: 'A', stages: 3, coins: 0,
          built: ['Forum', 'Temple', 'Lumber Yard', 'Stone Pit', 'Clay Pool', 'Ore Vein', 'Tree Farm', 'Excavation', 'Clay Pit', 'Timber Yard'],
          hand: ['Pantheon', 'Haven', 'Gardens'],
        },
        { wonder: 'Rhodes', hand: ['Lodge', 'Study', 'Arena'] },
        { wonder: 'Gizah', hand: ['Lighthouse', 'Academy', 'Circus'] },
      ]);
      expect(decide(robilliard, s)).toMatchObject({ card: 'Haven', action: 'build', reason: 'age III: best immediate VP' });
    });
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────
// dawieang (2021)
// ─────────────────────────────────────────────────────────────────────────────────────────────

describe('DawieangRuleBasedAgent (rulebased-dawieang)', () => {
  it('rule 1: a free wonder stage comes before everything (even Tree Farm and military)', () => {
    const hand = ['Tree Farm', 'Stockade', 'Altar'];
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', built: ['Lumber Yard'], hand },
      { wonder: 'Rhodes' },
      { wonder: 'Gizah' },
    ]);
    const ds = overSeeds(dawieang, s);
    for (const d of ds) {
      expect(d).toMatchObject({ action: 'stage', payLeft: 0, payRight: 0, reason: 'rule 1: free wonder stage' });
      expect(hand).toContain(d.card);
    }
  });

  it('rule 1a: a paid stage on a coin toss; otherwise the later rules (over many seeds, both)', () => {
    // Olympia A stage 1 (WW): one wood of its own, one bought from the left (Babylon's Lumber Yard).
    const hand = ['Altar', 'Theater', 'Tavern'];
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', hand },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
      { wonder: 'Gizah' },
    ]);
    const ds = overSeeds(dawieang, s, 200);
    const staged = ds.filter((d) => d.reason === 'rule 1a: paid wonder stage');
    const other = ds.filter((d) => d.reason !== 'rule 1a: paid wonder stage');
    for (const d of staged) {
      expect(d).toMatchObject({ action: 'stage', payLeft: 2, payRight: 0 });
      expect(hand).toContain(d.card);
    }
    for (const d of other) {
      expect(d).toMatchObject({ action: 'build', reason: 'rule 7: civilian' });
      expect(['Altar', 'Theater']).toContain(d.card);
    }
    // A fair coin: both outcomes, roughly half each.
    expect(staged.length).toBeGreaterThan(60);
    expect(other.length).toBeGreaterThan(60);
  });

  it('rule 2: three or more resource types (Forum, free through the East Trading Post)', () => {
    // Babylon A complete: no stage. Sawmill (missing wood) would be rule 4.
    const s = state(2, [
      { wonder: 'Babylon', side: 'A', stages: 3, built: ['East Trading Post'], hand: ['Sawmill', 'Forum', 'School'] },
      { wonder: 'Olympia' },
      { wonder: 'Gizah' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Forum', action: 'build', payLeft: 0, payRight: 0, reason: 'rule 2: three or more resource types' });
  });

  it('rule 3: a mixed resource of two types (Tree Farm over the missing Lumber Yard)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Lumber Yard', 'Tree Farm', 'Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Tree Farm', action: 'build', reason: 'rule 3: mixed resource' });
  });

  it('rule 4: a missing resource (Lumber Yard, not Stone Pit, for Gizah)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Stone Pit', 'Lumber Yard', 'Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Lumber Yard', action: 'build', reason: 'rule 4: a missing resource' });
  });

  it('rule 4: Sawmill (two units of a missing resource)', () => {
    const s = state(2, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Quarry', 'Sawmill', 'School'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Sawmill', action: 'build', reason: 'rule 4: a missing resource' });
  });

  it('rule 5: military that overtakes a neighbour (all at 0)', () => {
    const s = olympiaNoStage({});
    expect(decide(dawieang, s)).toMatchObject({ card: 'Stockade', action: 'build', reason: 'rule 5: military overtaking a neighbour' });
  });

  it('rule 5: military that overtakes a neighbour tied with it (1 → 2 against 1)', () => {
    const s = olympiaNoStage({ built: ['Barracks'] }, { wonder: 'Rhodes', built: ['Guard Tower'] });
    expect(decide(dawieang, s)).toMatchObject({ card: 'Stockade', reason: 'rule 5: military overtaking a neighbour' });
  });

  it('rule 5: military bought from a neighbour (Gizah buys the Stockade’s wood from the left)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Stockade', 'Altar', 'Theater'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Stockade', payLeft: 2, payRight: 0, reason: 'rule 5: military overtaking a neighbour' });
  });

  it('rule 5 is skipped when already ahead of both neighbours', () => {
    const s = olympiaNoStage({ built: ['Barracks'] });
    expect(decide(dawieang, s)).toMatchObject({ card: 'Altar', action: 'build', reason: 'rule 7: civilian' });
  });

  it('rule 5 is skipped when the card overtakes no neighbour (1 shield against 2 and 2)', () => {
    const s = olympiaNoStage({}, { wonder: 'Rhodes', side: 'A', stages: 2 });
    // Right neighbour Gizah gets 2 shields too.
    const s2 = state(1, [
      { wonder: 'Olympia', side: 'A', hand: ['Stockade', 'Altar', 'Tavern'] },
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Gizah', built: ['Walls'] },
    ]);
    // With only the left neighbour ahead, the right one (0) is still overtaken.
    expect(decide(dawieang, s)).toMatchObject({ card: 'Stockade', reason: 'rule 5: military overtaking a neighbour' });
    expect(offered(s2)).toContain('Stockade:build');
    expect(decide(dawieang, s2)).toMatchObject({ card: 'Altar', reason: 'rule 7: civilian' });
  });

  it('rule 5 looks at the neighbours only (4 players: a stronger seat across the table does not count)', () => {
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', built: ['Barracks'], hand: ['Stockade', 'Altar', 'Tavern'] },
      { wonder: 'Gizah' },
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Altar', reason: 'rule 7: civilian' });
  });

  it('rule 6: science, before civilian cards (Workshop over Altar)', () => {
    const s = state(1, [
      { wonder: 'Alexandria', side: 'A', stages: 3, hand: ['Tavern', 'Workshop', 'Altar'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Workshop', action: 'build', reason: 'rule 6: science' });
  });

  it('rule 7: a civilian card (any blue, not the most VP)', () => {
    const s = state(1, [
      { wonder: 'Gizah', side: 'A', stages: 3, hand: ['Altar', 'Baths', 'Tavern'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    const ds = overSeeds(dawieang, s);
    for (const d of ds) expect(d).toMatchObject({ action: 'build', reason: 'rule 7: civilian' });
    expect(cards(ds)).toEqual(['Altar', 'Baths']);
  });

  it('rule 8: any non-discard move (the only buildable card, Tavern)', () => {
    const s = stuck(['Baths', 'Tavern', 'Guard Tower']);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Tavern', action: 'build', reason: 'rule 8: any non-discard' });
  });

  it('rule 9: anything (a discard when nothing can be built)', () => {
    const hand = ['Baths', 'Guard Tower', 'Workshop'];
    for (const d of overSeeds(dawieang, stuck(hand), 20)) {
      expect(d).toMatchObject({ action: 'discard', reason: 'rule 9: anything' });
      expect(hand).toContain(d.card);
    }
  });

  it('Olympia A: the free build instead of a build paid with a coin (Tree Farm, rule 3)', () => {
    // Olympia A with 3 stages: complete, so no stage rule; the free build still holds.
    const s = state(1, [
      { wonder: 'Olympia', side: 'A', stages: 3, hand: ['Tree Farm', 'Altar', 'Theater'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(decide(dawieang, s)).toMatchObject({ card: 'Tree Farm', action: 'freeBuild', reason: 'rule 3: mixed resource' });
  });

  describe('Age III: best immediate VP (no stage rule first)', () => {
    // Olympia A with a Lumber Yard: stage 1 (WW, 3 VP) is free. Neighbours Rhodes and Gizah.
    const olympia3 = (hand: string[]) =>
      state(3, [
        { wonder: 'Olympia', side: 'A', coins: 3, built: ['Lumber Yard', 'Temple'], hand },
        { wonder: 'Rhodes', hand: ['Lodge', 'Study', 'Arena'] },
        { wonder: 'Gizah', hand: ['Haven', 'Academy', 'Circus'] },
      ]);

    it('Pantheon (7 VP, chained from Temple) over a free stage worth 3', () => {
      for (const d of overSeeds(dawieang, olympia3(['Gardens', 'Pantheon', 'Arsenal']), 5)) {
        expect(d).toMatchObject({ card: 'Pantheon', action: 'build', reason: 'age III: best immediate VP' });
      }
    });

    it('the stage (3 VP) when no card is worth more', () => {
      // Gardens (WCC) and Arsenal (WWOL) cannot be built; a discard gives only +1 VP of coins.
      const s = olympia3(['Gardens', 'Arsenal', 'Lodge']);
      expect(offered(s)).toEqual(['Arsenal:stage', 'Gardens:stage', 'Lodge:stage']);
      const d = decide(dawieang, s);
      expect(d).toMatchObject({ action: 'stage', reason: 'age III: best immediate VP' });
    });
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Determinism
// ─────────────────────────────────────────────────────────────────────────────────────────────

describe('same seed, same decision', () => {
  // Positions in which the chosen rule draws among several candidates.
  const anyCard = () => stuck(['Tavern', 'Marketplace', 'East Trading Post']);
  const paidStage = () =>
    state(1, [
      { wonder: 'Olympia', side: 'A', hand: ['Altar', 'Theater', 'Tavern'] },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
      { wonder: 'Gizah' },
    ]);
  const ageThree = () =>
    state(3, [
      { wonder: 'Babylon', side: 'A', stages: 3, coins: 0, hand: ['Lodge', 'Study', 'Arena'] },
      { wonder: 'Rhodes', hand: ['Gardens', 'Senate', 'Pantheon'] },
      { wonder: 'Gizah', hand: ['Haven', 'Academy', 'Circus'] },
    ]);

  const cases: [string, AgentFactory, () => GameState][] = [
    ['thesis, rule 7', thesis, anyCard],
    ['robilliard, rule 6', robilliard, anyCard],
    ['robilliard, Age III', robilliard, ageThree],
    ['dawieang, coin toss', dawieang, paidStage],
    ['dawieang, Age III', dawieang, ageThree],
  ];

  for (const [name, make, build] of cases) {
    it(name, () => {
      const first = overSeeds(make, build(), 30);
      const again = overSeeds(make, build(), 30);
      expect(again).toEqual(first);
      // The seed does matter where the rule draws among several moves.
      if (!name.includes('Age III')) expect(new Set(first.map((d) => d.move)).size).toBeGreaterThan(1);
    });
  }
});
