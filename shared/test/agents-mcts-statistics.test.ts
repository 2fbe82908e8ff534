/**
 * The MCTS agent's root statistics (AgentOptions.searchStatistics, Decision.search): the most
 * visited root moves with their visits and mean reward. Asking for them never changes a move
 * or draws from the agent's RNG; what they say is bounded, sorted and true to the search.
 */
import { describe, expect, it } from 'vitest';
import { MctsAgent, createAgent, decisionContext, type Decision, type DecisionContext } from '../src/agents/index.js';
import { SEARCH_TOP_MOVES, searchStatistics } from '../src/agents/mcts/statistics.js';
import { Rng, actingSeats, legalMoves, moveAction, moveCard, newGame, step } from '../src/engine/index.js';
import { isArm } from '../src/agents/mcts/arms.js';
import { randomPosition } from './random-positions.js';

/** One spec per way the search can shape its root: arms, payments, trees, votes, the final choice, reuse. */
const SPECS = [
  'mcts(it=60)',
  'mcts(it=60,det=is)',
  'mcts(it=60,arms=all)',
  'mcts(it=60,tree=seats,trades=all,pw=0.35)',
  'mcts(it=60,det=pimc,worlds=4)',
  'mcts(it=60,final=mean)',
  'mcts(it=60,det=is,reuse=on)',
];

/** A seeded game of `spec` at seat 0 against random seats: every decision of seat 0, and its RNG's state at the end. */
function play(spec: string, searchStatistics: boolean, seed: number): { decisions: (Decision & { legal: number[] })[]; rngState: number[] } {
  const s = newGame({ players: 3, seed });
  const agent = createAgent(spec, { searchStatistics });
  const rng = new Rng(seed * 13 + 1);
  const others = new Rng(seed * 17 + 5);
  const moves = new Int32Array(3);
  const decisions: (Decision & { legal: number[] })[] = [];
  while (!s.isOver()) {
    for (const p of actingSeats(s)) {
      if (p === 0) {
        const legal = legalMoves(s, 0, agent.moveMode, []);
        const decision = agent.decide(decisionContext(s, 0, legal, rng, false));
        decisions.push({ ...decision, legal });
        moves[0] = decision.move;
      } else {
        const legal = legalMoves(s, p, 'cheapest');
        moves[p] = legal[others.int(legal.length)];
      }
    }
    step(s, moves);
  }
  return { decisions, rngState: Array.from(rng.s) };
}

describe('asking for the statistics changes nothing the agent does', () => {
  it('the same seed plays the same moves with the same iterations, and leaves the RNG where it was', () => {
    for (const [i, spec] of SPECS.entries()) {
      const plain = play(spec, false, 30 + i);
      const explained = play(spec, true, 30 + i);
      expect(explained.decisions.map((d) => d.move), spec).toEqual(plain.decisions.map((d) => d.move));
      expect(explained.decisions.map((d) => d.iterations), spec).toEqual(plain.decisions.map((d) => d.iterations));
      expect(explained.rngState, spec).toEqual(plain.rngState);
      expect(plain.decisions.every((d) => d.search === undefined), `${spec}: not asked, none given`).toBe(true);
    }
  });

  it('it samples no world of its own: the search samples as many as without', () => {
    const s = randomPosition(4, 12, 13, 3);
    for (const spec of ['mcts(it=40,det=is)', 'mcts(it=40,det=pimc,worlds=5)']) {
      const counts = [false, true].map((searchStatistics) => {
        const agent = createAgent(spec, { searchStatistics });
        const base = decisionContext(s, 1, legalMoves(s, 1, agent.moveMode, []), new Rng(3), false);
        let calls = 0;
        const ctx: DecisionContext = { ...base, sampleWorld: (r: Rng) => (calls++, base.sampleWorld(r)) };
        agent.decide(ctx);
        return calls;
      });
      expect(counts[1], spec).toBe(counts[0]);
    }
  });
});

describe('what the statistics say', () => {
  it('every decision with a choice has them: at most 8 legal, distinct moves, most visited first, the move played among them', () => {
    for (const [i, spec] of SPECS.entries()) {
      const { decisions } = play(spec, true, 50 + i);
      for (const [k, d] of decisions.entries()) {
        const where = `${spec}, decision ${k}`;
        if (d.legal.length === 1) {
          expect(d.search, `${where}: a forced move has no search`).toBeUndefined();
          continue;
        }
        const search = d.search!;
        expect(search, where).toBeDefined();
        expect(search.iterations, where).toBe(d.iterations);
        expect(search.moves.length, where).toBeGreaterThan(0);
        expect(search.moves.length, where).toBeLessThanOrEqual(SEARCH_TOP_MOVES);
        const visits = search.moves.map((m) => m.visits);
        expect(visits, `${where}: sorted by visits`).toEqual([...visits].sort((a, b) => b - a));
        expect(visits.reduce((t, v) => t + v, 0), where).toBeLessThanOrEqual(search.iterations + (search.carried ?? 0));
        for (const m of search.moves) {
          expect(d.legal, where).toContain(m.move);
          expect(m.value, where).toBeGreaterThanOrEqual(0);
          expect(m.value, where).toBeLessThanOrEqual(1);
        }
        expect(new Set(search.moves.map((m) => m.move)).size, where).toBe(search.moves.length);
        expect(search.moves.map((m) => m.move), where).toContain(d.move);
        const { det, worlds } = (createAgent(spec) as MctsAgent).params;
        expect(search.moves.some((m) => m.votes !== undefined), `${where}: votes only with det=pimc over more than one world`).toBe(det === 'pimc' && worlds > 1);
      }
    }
  });

  it('they are the search’s own root statistics: with a few moves, every move and all the visits', () => {
    // Age I's last turn: two cards in hand, so every root move fits in the list.
    const s = randomPosition(3, 7, 8, 5);
    const agent = createAgent('mcts(it=50,arms=all)', { searchStatistics: true }) as MctsAgent;
    const legal = legalMoves(s, 0, agent.moveMode, []);
    expect(legal.length).toBeLessThanOrEqual(SEARCH_TOP_MOVES);
    const d = agent.decide(decisionContext(s, 0, legal, new Rng(2), false));
    expect(d.search!.moves.reduce((t, m) => t + m.visits, 0)).toBe(50);
    const byMove = new Map(agent.lastSearch.map((r) => [r.move, r]));
    for (const m of d.search!.moves) {
      expect(m.visits).toBe(byMove.get(m.move)!.visits);
      expect(m.value).toBe(byMove.get(m.move)!.value);
    }
  });

  it('tree keys are shown as the legal moves they stand for: a grouped arm as a card of its action', () => {
    let arms = 0;
    for (let i = 0; i < 8; i++) {
      const s = randomPosition(3, 60 + i, 61 + i, i);
      const agent = createAgent('mcts(it=80,arms=grouped)', { searchStatistics: true }) as MctsAgent;
      const legal = legalMoves(s, 0, agent.moveMode, []);
      const d = agent.decide(decisionContext(s, 0, legal, new Rng(i), false));
      // The same selection over the tree keys themselves (the key played is ranked first).
      const keys = searchStatistics({ ranked: agent.lastSearch, chosen: agent.lastSearch[0].move, moveOf: (k) => k, iterations: 0, carried: 0, votes: false }).moves.map((m) => m.move);
      const shown = d.search!.moves.map((m) => m.move);
      expect(shown.length).toBe(keys.length);
      keys.forEach((key, j) => {
        expect(legal).toContain(shown[j]);
        expect(moveAction(shown[j]), `position ${i}, move ${j}`).toBe(moveAction(key));
        if (isArm(key)) arms++;
        else expect(moveCard(shown[j]), `position ${i}, move ${j}`).toBe(moveCard(key));
      });
    }
    expect(arms, 'the positions had grouped arms to show').toBeGreaterThan(0);
  });

  it('reuse=on says how many visits the kept subtree brought', () => {
    const { decisions } = play('mcts(it=60,det=is,reuse=on)', true, 9);
    const withChoice = decisions.filter((d) => d.search);
    expect(withChoice[0].search!.carried).toBeUndefined();
    expect(withChoice.slice(1).some((d) => (d.search!.carried ?? 0) > 0)).toBe(true);
    const { decisions: off } = play('mcts(it=60,det=is)', true, 9);
    expect(off.every((d) => d.search?.carried === undefined)).toBe(true);
  });
});

describe('searchStatistics', () => {
  const ranked = [
    { move: 1, visits: 5, value: 0.9, votes: 3 },
    { move: 2, visits: 40, value: 0.5, votes: 1 },
    { move: 3, visits: 30, value: 0.4, votes: 0 },
    { move: 4, visits: 30, value: 0.45, votes: 0 },
    { move: 5, visits: 10, value: 0.2, votes: 0 },
  ];
  const input = { ranked, chosen: 1, moveOf: (k: number) => k * 100, iterations: 115, carried: 0, votes: false };

  it('most visited first, equal visits in the ranking’s order, keys turned into moves', () => {
    const stats = searchStatistics({ ...input, limit: 8 });
    expect(stats).toEqual({
      iterations: 115,
      moves: [
        { move: 200, visits: 40, value: 0.5 },
        { move: 300, visits: 30, value: 0.4 },
        { move: 400, visits: 30, value: 0.45 },
        { move: 500, visits: 10, value: 0.2 },
        { move: 100, visits: 5, value: 0.9 },
      ],
    });
  });

  it('cut to the limit, the move played kept in the last place; votes and carried visits when there are some', () => {
    const stats = searchStatistics({ ...input, limit: 3, votes: true, carried: 12 });
    expect(stats.carried).toBe(12);
    expect(stats.moves.map((m) => m.move)).toEqual([200, 300, 100]);
    expect(stats.moves.map((m) => m.votes)).toEqual([1, 0, 3]);
    expect(searchStatistics({ ...input, chosen: 3, limit: 3 }).moves.map((m) => m.move)).toEqual([200, 300, 400]);
  });
});
