/**
 * stop=settled: a decision's search ends once the root move with the most visits cannot be
 * caught by the iterations left, and plays the root move the whole budget would have played.
 */
import { describe, expect, it } from 'vitest';
import { MctsAgent, createAgent, decisionContext, parseAgentSpec } from '../src/agents/index.js';
import { Node, rootSettled } from '../src/agents/mcts/tree.js';
import { Rng, actingSeats, legalMoves } from '../src/engine/index.js';
import { randomPosition } from './random-positions.js';
import { useFixtureModels } from './fixture-models.js';

useFixtureModels();

/** A root with seat 0's children of the given moves and visits. */
function rootWith(children: [move: number, visits: number, mover?: number][]): Node {
  const root = new Node(-1, -1);
  for (const [move, visits, mover = 0] of children) {
    const child = new Node(move, mover);
    child.visits = visits;
    root.children.push(child);
  }
  return root;
}

describe('rootSettled', () => {
  const allowed = new Set([1, 2, 3]);

  it('holds only when the leader is ahead of every other move by more than the iterations left', () => {
    const root = rootWith([
      [1, 5],
      [2, 10],
      [3, 3],
    ]);
    expect(rootSettled(root, 0, allowed, 4)).toBe(true);
    // 5 more visits to move 1 would tie it with move 2: a tie is drawn, so not settled.
    expect(rootSettled(root, 0, allowed, 5)).toBe(false);
    expect(rootSettled(root, 0, allowed, 0)).toBe(true);
  });

  it('counts only the seat\'s moves that are legal now', () => {
    // Move 9 (not legal at this decision) and another seat's move do not compete.
    const root = rootWith([
      [2, 10],
      [9, 30],
      [1, 20, 1],
      [3, 2],
    ]);
    expect(rootSettled(root, 0, allowed, 7)).toBe(true);
    expect(rootSettled(root, 0, allowed, 8)).toBe(false);
  });

  it('is never settled between equal leaders, nor with no legal move visited', () => {
    expect(
      rootSettled(
        rootWith([
          [1, 6],
          [2, 6],
        ]),
        0,
        allowed,
        0,
      ),
    ).toBe(false);
    expect(rootSettled(rootWith([[9, 6]]), 0, allowed, 0)).toBe(false);
  });
});

describe('stop=settled', () => {
  it('is refused where a lead in visits does not bound the move played', () => {
    expect(() => parseAgentSpec('mcts-strong(stop=settled,final=mean)')).toThrow(/stop: 'settled' needs final=visits/);
    expect(() => parseAgentSpec('mcts(stop=settled,worlds=4)')).toThrow(/stop: 'settled' needs .* one tree/);
    expect(() => parseAgentSpec('mcts(stop=settled)')).not.toThrow();
    expect(() => parseAgentSpec('mcts(stop=fast)')).toThrow(/stop/);
  });

  /** Per position, `bases`' searches with stop=budget and stop=settled: how many decisions, and how many settled early. */
  function compare(bases: string[], players: (i: number) => number, positions: number): { decisions: number; fewer: number } {
    let fewer = 0;
    let decisions = 0;
    for (let i = 0; i < positions; i++) {
      const s = randomPosition(players(i), 300 + i, 7 * i + 5, (i * 7) % 17);
      if (s.isOver()) continue;
      const seats = actingSeats(s);
      const seat = seats[i % seats.length];
      const legal = legalMoves(s, seat, 'cheapest', []);
      if (legal.length < 2) continue;
      for (const base of bases) {
        const run = (stop: string) => {
          const agent = createAgent(base.replace(')', `,stop=${stop})`)) as MctsAgent;
          const decision = agent.decide(decisionContext(s, seat, legal, new Rng(1000 + i), false));
          return { iterations: decision.iterations!, key: agent.lastSearch[0].move };
        };
        const whole = run('budget');
        const settled = run('settled');
        expect(settled.key).toBe(whole.key);
        expect(settled.iterations).toBeLessThanOrEqual(whole.iterations);
        decisions++;
        if (settled.iterations < whole.iterations) fewer++;
      }
    }
    return { decisions, fewer };
  }

  it('plays the root move the whole budget plays, from fewer iterations', () => {
    const { decisions, fewer } = compare(['mcts-strong(it=80,time=0)', 'mcts(it=80,time=0)'], (i) => 3 + (i % 3), 24);
    expect(decisions).toBeGreaterThan(30);
    // Most decisions settle before their budget is spent: that is the option's point.
    expect(fewer).toBeGreaterThan(decisions / 2);
  });

  it('settles between batches of network calls too', () => {
    // batch=4: the check comes after each call's leaves are backed up, with the budget left then.
    const { decisions, fewer } = compare(['mcts-strong(it=60,time=0,model=net-3p.onnx,eval=mix,prior=net,batch=4)'], () => 3, 12);
    expect(decisions).toBeGreaterThan(8);
    expect(fewer).toBeGreaterThan(0);
  });
});
