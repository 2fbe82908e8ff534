/**
 * Every design choice of the MCTS search is an option (agents/params.ts); each test here fails
 * when its option does nothing: grouped arms in the tree and in playouts, no-discard playouts,
 * the rewards, MAST, PIMC, tree reuse, random tie-breaking, and the search reading
 * only what the agent may know.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MctsAgent, createAgent, decisionContext, parseAgentSpec, thesisRuleCandidates, type DecisionContext } from '../src/agents/index.js';
import { ARM_CARD, armOf, groupArms, isArm, resolveArm } from '../src/agents/mcts/arms.js';
import { Mast, Playouts } from '../src/agents/mcts/policies.js';
import { MARGIN_SPAN, fillRewards } from '../src/agents/mcts/reward.js';
import { randomPosition } from './random-positions.js';
import { Node, rankRootMoves, selectChild } from '../src/agents/mcts/tree.js';
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_STAGE,
  MAX_PLAYERS,
  PHASE_TURN,
  Rng,
  actingSeats,
  determinize,
  handView,
  legalMoves,
  moveAction,
  moveCard,
  newGame,
  step,
  type GameState,
} from '../src/engine/index.js';

function mctsParams(text: string) {
  const spec = parseAgentSpec(text);
  if (!('params' in spec)) throw new Error(text);
  return spec.params;
}

/** Positions across the game: 3–5 players, every Age. */
function positions(count: number): GameState[] {
  return Array.from({ length: count }, (_, i) => randomPosition(3 + (i % 3), 100 + i, (100 + i) * 7 + 1, (i * 5) % 19));
}

/** A seat that acts at s, varying with i. */
function actor(s: GameState, i: number): number {
  const seats = actingSeats(s);
  return seats[i % seats.length];
}

function searchAt(spec: string, s: GameState, seat: number, seed: number): { agent: MctsAgent; move: number } {
  const agent = createAgent(spec) as MctsAgent;
  const ctx = decisionContext(s, seat, legalMoves(s, seat, agent.moveMode, []), new Rng(seed), false);
  const move = agent.decide(ctx).move;
  expect(ctx.legal).toContain(move);
  return { agent, move };
}

function* nodes(root: Node): Generator<Node> {
  yield root;
  for (const child of root.children) yield* nodes(child);
}

/** The most discard (and stage) children of one mover under one node, over a whole tree. */
function mostArmChildren(roots: readonly Node[]): { discards: number; stages: number } {
  let discards = 0;
  let stages = 0;
  for (const root of roots) {
    for (const node of nodes(root)) {
      const perMover = new Map<number, { d: number; s: number }>();
      for (const child of node.children) {
        const c = perMover.get(child.mover) ?? { d: 0, s: 0 };
        if (moveAction(child.move) === ACTION_DISCARD) c.d++;
        if (moveAction(child.move) === ACTION_STAGE) c.s++;
        perMover.set(child.mover, c);
      }
      for (const c of perMover.values()) {
        discards = Math.max(discards, c.d);
        stages = Math.max(stages, c.s);
      }
    }
  }
  return { discards, stages };
}

describe('arms=grouped: one discard and one stage child per decision', () => {
  it('no node of the tree ever has two discard or two stage children of one mover; with arms=all many do', () => {
    for (const [i, s] of positions(6).entries()) {
      for (const tree of ['joint', 'seats']) {
        const grouped = searchAt(`mcts(it=200,arms=grouped,tree=${tree})`, s, actor(s, i), i);
        const most = mostArmChildren(grouped.agent.lastRoots);
        expect(most.discards, `position ${i}, tree=${tree}`).toBeLessThanOrEqual(1);
        expect(most.stages, `position ${i}, tree=${tree}`).toBeLessThanOrEqual(1);
        // The arms' children carry the arm's key, not a card.
        for (const root of grouped.agent.lastRoots) for (const node of nodes(root)) if (node.mover >= 0 && moveAction(node.move) === ACTION_DISCARD) expect(moveCard(node.move)).toBe(ARM_CARD);
      }
    }
    const all = positions(6).map((s, i) => mostArmChildren(searchAt('mcts(it=200,arms=all)', s, actor(s, i), i).agent.lastRoots));
    expect(Math.max(...all.map((x) => x.discards)), 'arms=all has a discard child per card').toBeGreaterThan(1);
  });

  it('the bury rule: an arm resolves to a legal move of its action, the card the mover cannot build first', () => {
    let checked = 0;
    for (const s of positions(40)) {
      for (const q of actingSeats(s)) {
        const legal = legalMoves(s, q, 'cheapest', []);
        const buildable = new Set(legal.filter((m) => moveAction(m) === ACTION_BUILD || moveAction(m) === ACTION_FREE_BUILD).map(moveCard));
        for (const arm of groupArms(legal, [])) {
          if (!isArm(arm)) continue;
          const m = resolveArm(s, q, arm, legal, new Rng(checked));
          expect(legal).toContain(m);
          expect(armOf(m)).toBe(arm);
          const cards = legal.filter((x) => armOf(x) === arm).map(moveCard);
          if (cards.some((c) => !buildable.has(c))) expect(buildable.has(moveCard(m)), 'an unbuildable card goes first').toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('groupArms keeps every build, one discard arm and one stage arm per payment', () => {
    for (const s of positions(20)) {
      for (const q of actingSeats(s)) {
        for (const mode of ['cheapest', 'all'] as const) {
          const legal = legalMoves(s, q, mode, []);
          const arms = groupArms(legal, []);
          expect(arms.filter((m) => moveAction(m) === ACTION_DISCARD)).toHaveLength(legal.some((m) => moveAction(m) === ACTION_DISCARD) ? 1 : 0);
          const stagePays = new Set(legal.filter((m) => moveAction(m) === ACTION_STAGE).map((m) => m >> 10));
          expect(arms.filter((m) => moveAction(m) === ACTION_STAGE)).toHaveLength(stagePays.size);
          expect(arms.filter((m) => !isArm(m))).toEqual(legal.filter((m) => moveAction(m) !== ACTION_DISCARD && moveAction(m) !== ACTION_STAGE));
        }
      }
    }
  });
});

/** How often each action comes out of `draws` playout moves of seat q at s. */
function playoutActions(spec: string, s: GameState, q: number, draws: number): Map<number, number> {
  const playouts = new Playouts(mctsParams(spec));
  const rng = new Rng(5);
  const freq = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const a = moveAction(playouts.move(s, q, playouts.policyOf(q, q), rng));
    freq.set(a, (freq.get(a) ?? 0) + 1);
  }
  return freq;
}

describe('playout policies', () => {
  it('nodiscard never discards while a build or a stage is legal (with every move or grouped)', () => {
    let forced = 0;
    for (const s of positions(30)) {
      for (const q of actingSeats(s)) {
        const legal = legalMoves(s, q, 'cheapest', []);
        const canDoElse = legal.some((m) => moveAction(m) !== ACTION_DISCARD);
        for (const parms of ['all', 'grouped']) {
          const freq = playoutActions(`mcts(playout=nodiscard,parms=${parms})`, s, q, 30);
          if (canDoElse) expect(freq.get(ACTION_DISCARD) ?? 0, `parms=${parms}`).toBe(0);
          else forced++;
        }
      }
    }
    // The random policy does discard from the same positions.
    const s = positions(1)[0];
    expect(playoutActions('mcts(playout=random)', s, 0, 300).get(ACTION_DISCARD) ?? 0).toBeGreaterThan(0);
    expect(forced).toBeGreaterThanOrEqual(0);
  });

  it('parms=grouped draws the discard arm as one option among the arms, not one per card', () => {
    // Age I, turn 1: seven cards, a discard for each, so a uniform draw over every move discards
    // with probability 7 / |moves| and over arms with 1 / |arms|.
    const s = newGame({ players: 3, seed: 3 });
    const legal = legalMoves(s, 0, 'cheapest', []);
    const arms = groupArms(legal, []);
    const draws = 4000;
    const discardsAll = (playoutActions('mcts(playout=random,parms=all)', s, 0, draws).get(ACTION_DISCARD) ?? 0) / draws;
    const discardsGrouped = (playoutActions('mcts(playout=random,parms=grouped)', s, 0, draws).get(ACTION_DISCARD) ?? 0) / draws;
    const pAll = legal.filter((m) => moveAction(m) === ACTION_DISCARD).length / legal.length;
    expect(Math.abs(discardsAll - pAll)).toBeLessThan(0.03);
    expect(Math.abs(discardsGrouped - 1 / arms.length)).toBeLessThan(0.03);
    expect(pAll - 1 / arms.length).toBeGreaterThan(0.1);
  });

  it('pe: a rule-based simulated move is drawn as nodiscard draws it with probability pe', () => {
    let outsideRules = 0;
    let checked = 0;
    const candidates: number[] = [];
    for (const s of positions(30)) {
      if (s.phase !== PHASE_TURN) continue;
      for (const q of actingSeats(s)) {
        const legal = legalMoves(s, q, 'cheapest', []);
        thesisRuleCandidates(s, q, legal, candidates);
        const canDoElse = legal.some((m) => moveAction(m) !== ACTION_DISCARD);
        const draw = (spec: string, draws: number) => {
          const params = mctsParams(spec);
          const playouts = new Playouts(params);
          const rng = new Rng(11);
          return Array.from({ length: draws }, () => playouts.move(s, q, playouts.policyOf(q, (q + 1) % s.n), rng));
        };
        // pe = 0: the rules' moves only, for the agent's own playouts and its simulated opponents.
        for (const m of draw('mcts(playout=rulebased,pe=0)', 20)) expect(candidates).toContain(m);
        for (const m of draw('mcts(playout=random,opp=rulebased,pe=0)', 20)) expect(candidates).toContain(m);
        // pe = 1: nodiscard's draws, which leave the rules' candidates whenever there is a choice.
        const mixed = draw('mcts(playout=rulebased,pe=1)', 40);
        for (const m of mixed) {
          expect(legal).toContain(m);
          if (canDoElse) expect(moveAction(m)).not.toBe(ACTION_DISCARD);
        }
        outsideRules += mixed.filter((m) => !candidates.includes(m)).length;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(outsideRules).toBeGreaterThan(0);
    // In between, the share of the rules' moves is halfway between pe = 0's (all) and pe = 1's.
    const s = newGame({ players: 3, seed: 3 });
    thesisRuleCandidates(s, 0, legalMoves(s, 0, 'cheapest', []), candidates);
    const shareInRules = (pe: number) => {
      const playouts = new Playouts(mctsParams(`mcts(playout=rulebased,pe=${pe})`));
      const rng = new Rng(2);
      const moves = Array.from({ length: 2000 }, () => playouts.move(s, 0, 'rulebased', rng));
      return moves.filter((m) => candidates.includes(m)).length / moves.length;
    };
    const none = shareInRules(1);
    expect(shareInRules(0)).toBe(1);
    expect(none).toBeLessThan(0.7);
    expect(Math.abs(shareInRules(0.5) - (1 + none) / 2)).toBeLessThan(0.05);
  });

  it('MAST: means per seat, card and action; never-tried moves count as 1', () => {
    const mast = new Mast(false);
    const a = 5 | (ACTION_BUILD << 7);
    const b = 9 | (ACTION_DISCARD << 7);
    expect(mast.value(0, a)).toBe(1);
    const rewards = new Float64Array(MAX_PLAYERS);
    rewards[0] = 0.8;
    rewards[1] = 0.1;
    mast.note(0, a);
    mast.note(1, a);
    mast.note(0, b);
    mast.update(rewards);
    rewards[0] = 0.2;
    mast.note(0, a);
    mast.update(rewards);
    expect(mast.value(0, a)).toBeCloseTo(0.5);
    expect(mast.value(1, a)).toBeCloseTo(0.1);
    expect(mast.value(0, b)).toBeCloseTo(0.8);
    // A payment does not make another move.
    expect(mast.value(0, a | (2 << 10))).toBeCloseTo(0.5);
    mast.reset();
    expect(mast.value(0, b)).toBe(1);
  });

  it('a mast playout prefers the move with the best mean, ε-greedily', () => {
    const s = newGame({ players: 3, seed: 8 });
    const legal = legalMoves(s, 0, 'cheapest', []);
    const target = legal.find((m) => moveAction(m) === ACTION_BUILD)!;
    const share = (spec: string) => {
      const playouts = new Playouts(mctsParams(spec));
      const mast = playouts.mast!;
      // Every move tried once with reward 0, the target once more with 1.
      const rewards = new Float64Array(MAX_PLAYERS);
      for (const m of legal) mast.note(0, m);
      mast.update(rewards);
      rewards[0] = 1;
      mast.note(0, target);
      mast.update(rewards);
      const rng = new Rng(1);
      let hits = 0;
      for (let i = 0; i < 1000; i++) if (playouts.move(s, 0, 'mast', rng) === target) hits++;
      return hits / 1000;
    };
    // ε = 0.1: the best mean 90 % of the time, plus its share of the uniform draws.
    const eps = share('mcts(playout=mast)');
    expect(eps).toBeGreaterThan(0.85);
    expect(eps).toBeLessThan(0.95 + 0.1 / legal.length);
  });
});

describe('rewards', () => {
  const scoresArb = fc.integer({ min: 3, max: 7 }).chain((n) => fc.array(fc.integer({ min: -6, max: 90 }), { minLength: n, maxLength: n }));

  it('margin lies in [0, 1] and grows with the VP difference (strictly while it is not saturated)', () => {
    fc.assert(
      fc.property(scoresArb, fc.integer({ min: 1, max: 10 }), (list, gain) => {
        const n = list.length;
        const scores = Int32Array.from(list);
        const r = new Float64Array(n);
        fillRewards('margin', scores, n, r);
        for (let q = 0; q < n; q++) expect(r[q] >= 0 && r[q] <= 1).toBe(true);
        const before = r[0];
        scores[0] += gain;
        fillRewards('margin', scores, n, r);
        expect(r[0]).toBeGreaterThanOrEqual(before);
        const bestOther = Math.max(...list.slice(1));
        const diff = list[0] - bestOther;
        if (Math.abs(diff) < MARGIN_SPAN / 2 - gain) expect(r[0]).toBeGreaterThan(before);
      }),
    );
  });

  it('share is each seat\'s part of the VP, in [0, 1], summing to 1; win, rank and margin on a fixed standing', () => {
    fc.assert(
      fc.property(scoresArb, (list) => {
        const n = list.length;
        const r = new Float64Array(n);
        fillRewards('share', Int32Array.from(list), n, r);
        let sum = 0;
        for (let q = 0; q < n; q++) {
          expect(r[q] >= 0 && r[q] <= 1).toBe(true);
          sum += r[q];
        }
        expect(sum).toBeCloseTo(1);
      }),
    );
    const r = new Float64Array(3);
    const scores = Int32Array.from([50, 40, 30]);
    fillRewards('share', scores, 3, r);
    expect([...r]).toEqual([50 / 120, 40 / 120, 30 / 120]);
    fillRewards('win', scores, 3, r);
    expect([...r]).toEqual([1, 0, 0]);
    fillRewards('rank', scores, 3, r);
    expect([...r]).toEqual([1, 0.5, 0]);
    fillRewards('margin', scores, 3, r);
    expect([...r]).toEqual([0.75, 0.25, 0]);
    fillRewards('vp', Int32Array.from([50, -2, 30]), 3, r);
    expect([...r]).toEqual([50, -2, 30]);
  });
});

describe('the search reads only what the agent may know', () => {
  it('two states with the same information set and different hidden cards give the same search, seed for seed', () => {
    let differ = 0;
    const specs = ['mcts(it=60)', 'mcts(it=60,arms=grouped,parms=grouped,playout=mast)', 'mcts(it=60,tree=seats,trades=all,pw=0.35)', 'mcts(it=60,det=pimc,worlds=4,playout=rulebased)'];
    for (const [i, s] of positions(12).entries()) {
      const seat = actor(s, i);
      // The same information set for `seat`: a world sampled from its own knowledge.
      const other = determinize(s, seat, new Rng(1000 + i));
      for (let q = 0; q < s.n; q++) {
        if (q === seat) continue;
        const hand = (x: GameState) => handView(x, q).join();
        if (hand(s) !== hand(other)) differ++;
      }
      for (const spec of specs) {
        const a = searchAt(spec, s, seat, 7 + i);
        const b = searchAt(spec, other, seat, 7 + i);
        expect(b.move, `${spec} at position ${i}`).toBe(a.move);
        expect(b.agent.lastSearch, `${spec} at position ${i}`).toEqual(a.agent.lastSearch);
      }
    }
    expect(differ, 'the hidden hands did differ').toBeGreaterThan(5);
  });
});

/** A context whose sampleWorld calls are counted. */
function countingContext(s: GameState, seat: number, agent: MctsAgent, seed: number): { ctx: DecisionContext; calls: () => number } {
  const base = decisionContext(s, seat, legalMoves(s, seat, agent.moveMode, []), new Rng(seed), false);
  let calls = 0;
  return {
    ctx: {
      ...base,
      sampleWorld: (r: Rng) => {
        calls++;
        return base.sampleWorld(r);
      },
    },
    calls: () => calls,
  };
}

describe('determinization: det=is against det=pimc', () => {
  it('is samples a world per iteration; pimc samples `worlds` once and grows a tree on each', () => {
    const s = newGame({ players: 4, seed: 12 });
    const is = createAgent('mcts(it=40,det=is)') as MctsAgent;
    const a = countingContext(s, 1, is, 3);
    is.decide(a.ctx);
    expect(a.calls()).toBe(40);
    expect(is.lastRoots).toHaveLength(1);
    const pimc = createAgent('mcts(it=40,det=pimc,worlds=5)') as MctsAgent;
    const b = countingContext(s, 1, pimc, 3);
    pimc.decide(b.ctx);
    expect(b.calls()).toBe(5);
    expect(pimc.lastRoots).toHaveLength(5);
    for (const root of pimc.lastRoots) expect(root.children.reduce((t, c) => t + c.visits, 0)).toBe(8);
    // Each tree votes once.
    expect(pimc.lastSearch.reduce((t, m) => t + m.votes, 0)).toBe(5);
  });

});

describe('reuse=on keeps the subtree under the last move', () => {
  /** Plays seat 0 with `spec` against random seats for `decisions` decisions; root visits at each. */
  function rootVisits(spec: string, decisions: number): number[] {
    const s = newGame({ players: 3, seed: 21 });
    const agent = createAgent(spec) as MctsAgent;
    const rng = new Rng(4);
    const visits: number[] = [];
    const moves = new Int32Array(3);
    while (visits.length < decisions) {
      for (const p of actingSeats(s)) {
        const legal = legalMoves(s, p, 'cheapest', []);
        if (p === 0) {
          moves[0] = agent.decide(decisionContext(s, 0, legal, rng, false)).move;
          if (agent.lastSearch.length > 0) visits.push(agent.lastSearch.reduce((t, m) => t + m.visits, 0));
        } else moves[p] = legal[rng.int(legal.length)];
      }
      step(s, moves);
    }
    return visits;
  }

  it('the second decision starts with the visits the first gave its move; off, every decision starts empty', () => {
    const off = rootVisits('mcts(it=50,det=is)', 4);
    expect(off).toEqual([50, 50, 50, 50]);
    const on = rootVisits('mcts(it=50,det=is,reuse=on)', 4);
    expect(on[0]).toBe(50);
    for (const v of on.slice(1)) expect(v).toBeGreaterThan(50);
  });
});

describe('depth: a simulation cut off there', () => {
  it('scores the seats\' VP so far: an Age I search two turns deep rewards the leader', () => {
    const s = newGame({ players: 3, seed: 41 });
    const reward = searchAt('mcts(it=60,depth=2)', s, 0, 3).agent.lastRoots.reduce((sum, root) => sum + root.children.reduce((t, c) => t + c.reward, 0), 0);
    expect(reward).toBeGreaterThan(0);
  });
});

describe('ties are broken by the seeded RNG, never by move order', () => {
  it('UCB: two children with the same statistics are both chosen across seeds', () => {
    const params = mctsParams('mcts');
    const chosen = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      const root = new Node(-1, -1);
      for (const m of [11, 22, 33]) {
        const child = new Node(m, 0);
        child.visits = 4;
        child.avail = 4;
        child.reward = m === 33 ? 1 : 2;
        root.children.push(child);
      }
      chosen.add(selectChild(params, root, 0, [11, 22, 33], 0.4, new Rng(seed)).move);
    }
    expect([...chosen].sort()).toEqual([11, 22]);
  });

  it('the move played: among root moves with equal statistics, each comes first for some seed', () => {
    const params = mctsParams('mcts');
    const firsts = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      const root = new Node(-1, -1);
      for (const [m, visits, reward] of [[11, 5, 2], [22, 5, 2], [33, 5, 1], [44, 3, 3]]) {
        const child = new Node(m, 0);
        child.visits = visits;
        child.reward = reward;
        root.children.push(child);
      }
      const ranked = rankRootMoves(params, [root], 0, new Set([11, 22, 33, 44]), new Rng(seed));
      expect(ranked.map((r) => r.move).slice(2)).toEqual([33, 44]);
      firsts.add(ranked[0].move);
    }
    expect([...firsts].sort()).toEqual([11, 22]);
  });
});
