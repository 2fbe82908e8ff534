/**
 * MCTS guided by a trained network (model=…, eval, prior; mcts/network-guide.ts), on the fixture
 * networks of test/fixtures/models (seeded random weights: net-3p.onnx has logits and values,
 * policy-3p.onnx logits only). The network is read where the options say and nowhere else, the
 * priors steer the tree, a game is the same game twice, and a model that cannot serve is refused
 * before a game starts.
 */
import { describe, expect, it, vi } from 'vitest';
import { useFixtureModels } from './fixture-models.js';
import { createAgent, decisionContext, loadNetwork, MctsAgent, parseAgentSpec, type MctsParams } from '../src/agents/index.js';
import { writeObservation } from '../src/agents/encoding.js';
import { MoveKeys } from '../src/agents/mcts/arms.js';
import { keyPriors } from '../src/agents/mcts/network-guide.js';
import { FullLogits } from '../src/agents/logits.js';
import { mixInto } from '../src/agents/mcts/evaluation.js';
import { dirichlet, gamma } from '../src/agents/mcts/noise.js';
import { Rng, legalMoves, newGame, step, type GameState } from '../src/engine/index.js';
import { Sweep, SweepSpecError, checkSweepSpec, playGame, sweepModels, type GamePlan } from '../src/lab/index.js';

useFixtureModels();

function firstDecision(spec: string) {
  const s = newGame({ players: 3, seed: 11, sides: 'A' });
  const agent = createAgent(spec, { searchStatistics: 'all' });
  const legal = legalMoves(s, 0, agent.moveMode, []);
  const decision = agent.decide(decisionContext(s, 0, legal, new Rng(3), false));
  return { s, legal, decision };
}

/** The network's logits for seat 0's own observation in s (the test computes it without the agent). */
function seatLogits(model: string, s: GameState): Float32Array {
  const network = loadNetwork(model);
  const bytes = new Uint8Array(network.inputSize);
  writeObservation(s, 0, bytes);
  return Float32Array.from(network.logits(Float32Array.from(bytes)));
}

/** Seat 0's root keys (grouped arms, cheapest payments) in s and their priors from the model. */
function rootPriors(model: string, s: GameState, legal: number[]) {
  const keys = new MoveKeys(true, 'cheapest');
  const rootKeys = keys.keys(legal, []);
  const priors = new Float64Array(rootKeys.length);
  keyPriors(new FullLogits(seatLogits(model, s)), rootKeys, legal, keys, priors, 1);
  return { keys, rootKeys, priors, top: rootKeys[priors.indexOf(Math.max(...priors))] };
}

describe('MCTS with a network', () => {
  it("explains a decision with the network's prediction of every seat's final VP from the seat's own observation; the move is the same without it", () => {
    const { s, legal, decision } = firstDecision('mcts(it=60,time=0,model=net-3p.onnx,eval=mix,prior=net)');
    const network = loadNetwork('net-3p.onnx');
    const bytes = new Uint8Array(network.inputSize);
    writeObservation(s, 0, bytes);
    // Seat 0 decides: the values are in seat order already, times the trainer's VALUE_SCALE (50).
    const expected = Array.from(network.values(Float32Array.from(bytes)), (v) => v * 50);
    expect(decision.search!.network).toHaveLength(3);
    decision.search!.network!.forEach((vp, q) => expect(vp).toBeCloseTo(expected[q], 4));
    const quiet = createAgent('mcts(it=60,time=0,model=net-3p.onnx,eval=mix,prior=net)');
    expect(quiet.decide(decisionContext(s, 0, legal, new Rng(3), false)).move).toBe(decision.move);
    // A search without a network, or with one without values, has none to give.
    expect(firstDecision('mcts(it=60,time=0)').decision.search!.network).toBeUndefined();
    expect(firstDecision('mcts(it=60,time=0,model=policy-3p.onnx,prior=net)').decision.search!.network).toBeUndefined();
  });

  it('eval=net scores every simulation by the network’s values (one evaluation per iteration); eval=playout never asks', () => {
    const network = loadNetwork('net-3p.onnx');
    const values = vi.spyOn(network, 'values');
    try {
      // One more call explains the decision (its statistics' `network`), after the search.
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,eval=net)');
      expect(values).toHaveBeenCalledTimes(60 + 1);
      values.mockClear();
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,eval=mix)');
      expect(values).toHaveBeenCalledTimes(60 + 1);
      values.mockClear();
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,prior=net)');
      expect(values).toHaveBeenCalledTimes(1);
      values.mockClear();
      // Without statistics asked for, the search alone.
      const s = newGame({ players: 3, seed: 11, sides: 'A' });
      const agent = createAgent('mcts(it=60,time=0,model=net-3p.onnx,prior=net)');
      agent.decide(decisionContext(s, 0, legalMoves(s, 0, agent.moveMode, []), new Rng(3), false));
      expect(values).not.toHaveBeenCalled();
    } finally {
      values.mockRestore();
    }
  });

  it('eval=net with reward=vp values each root move at the network’s predicted VP, not the games’ VP', () => {
    const byNet = firstDecision('mcts(it=80,time=0,model=net-3p.onnx,eval=net,reward=vp)').decision.search!;
    const byPlayout = firstDecision('mcts(it=80,time=0,reward=vp)').decision.search!;
    // The fixture's values are VP / 50 near 0.8 (about 40 VP) from Age I's first turn; a game played
    // out gives its real VP, which spread far wider from move to move.
    for (const m of byNet.moves) expect(Math.abs(m.value - 40)).toBeLessThan(6);
    expect(byPlayout.moves.some((m) => Math.abs(m.value - 40) >= 6)).toBe(true);
  });

  it('prior=net follows the priors: with a large c, the most visited root move is the one of highest prior', () => {
    const { s, legal, decision } = firstDecision('mcts(it=300,time=0,model=policy-3p.onnx,prior=net,c=50)');
    const { keys, rootKeys, priors, top } = rootPriors('policy-3p.onnx', s, legal);
    expect(priors.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 9);
    const visits = decision.search!.moves;
    expect(keys.key(visits[0].move)).toBe(top);
    // Visits go roughly as the priors: the top move takes more than its fair share.
    expect(visits[0].visits).toBeGreaterThan(300 / rootKeys.length);
  });

  it('prior=root reads the network once per decision, from the seat\'s own observation, also at a kept root', () => {
    const network = loadNetwork('policy-3p.onnx');
    const logits = vi.spyOn(network, 'logits');
    try {
      const s = newGame({ players: 3, seed: 11, sides: 'A' });
      const agent = createAgent('mcts-strong(it=80,time=0,model=policy-3p.onnx,prior=root)') as MctsAgent;
      expect(agent.params.reuse).toBe('on');
      const rng = new Rng(5);
      const moves = [0, 0, 0];
      const others = [createAgent('rulebased'), createAgent('rulebased')];
      for (let turn = 0; turn < 3; turn++) {
        logits.mockClear();
        const legal = legalMoves(s, 0, agent.moveMode, []);
        moves[0] = agent.decide(decisionContext(s, 0, legal, rng, false)).move;
        // One call for 80 iterations: the root's priors, nothing below it.
        expect(logits).toHaveBeenCalledTimes(1);
        // From turn 2 on the root is the subtree kept from the last decision, whose node was grown
        // in sampled worlds: its priors are still the ones of what the seat knows now.
        if (turn > 0) expect(agent.lastRoots[0].visits).toBeGreaterThan(80);
        expect(Array.from((agent.lastRoots[0].logits as FullLogits).values)).toEqual(Array.from(seatLogits('policy-3p.onnx', s)));
        for (const q of [1, 2]) moves[q] = others[q - 1].decide(decisionContext(s, q, legalMoves(s, q, 'cheapest', []), rng, false)).move;
        step(s, moves);
      }
    } finally {
      logits.mockRestore();
    }
  });

  it('prior=root follows the priors at the root: with a large c, the most visited root move is the one of highest prior', () => {
    const { s, legal, decision } = firstDecision('mcts(it=300,time=0,model=policy-3p.onnx,prior=root,c=50)');
    const { keys, top } = rootPriors('policy-3p.onnx', s, legal);
    expect(keys.key(decision.search!.moves[0].move)).toBe(top);
    // Without priors (prior=ucb, same c) the visits spread evenly instead.
    const flat = firstDecision('mcts(it=300,time=0,c=50)').decision.search!.moves;
    expect(flat[0].visits).toBeLessThan(decision.search!.moves[0].visits);
  });

  it('Network.batch gives each row what one call gives it alone: logits and values', () => {
    const network = loadNetwork('net-3p.onnx');
    const rows = 5;
    const input = new Float32Array(rows * network.inputSize);
    const bytes = new Uint8Array(network.inputSize);
    const s = newGame({ players: 3, seed: 4 });
    for (let r = 0; r < rows; r++) {
      writeObservation(s, r % 3, bytes);
      input.set(bytes, r * network.inputSize);
      if (r === 2) step(s, [0, 1, 2].map((q) => legalMoves(s, q, 'cheapest', [])[0]));
    }
    const out = network.batch(input, rows, true, true);
    expect(out.logits).toHaveLength(rows * 390);
    expect(out.values).toHaveLength(rows * 3);
    for (let r = 0; r < rows; r++) {
      const one = input.slice(r * network.inputSize, (r + 1) * network.inputSize);
      const logits = Array.from(network.logits(one));
      const values = Array.from(network.values(one));
      Array.from(out.logits.subarray(r * 390, (r + 1) * 390)).forEach((x, i) => expect(x).toBeCloseTo(logits[i], 4));
      Array.from(out.values.subarray(r * 3, (r + 1) * 3)).forEach((x, i) => expect(x).toBeCloseTo(values[i], 4));
    }
    expect(network.batch(input, 2, false, true).logits).toHaveLength(0);
  });

  it('batch=8: one network call per 8 leaves, each visit counted once, every new node given its priors', () => {
    const network = loadNetwork('net-3p.onnx');
    const batch = vi.spyOn(network, 'batch');
    const values = vi.spyOn(network, 'values');
    // A node read alone asks for all its logits or (the kernel) for them as its priors read them.
    const logits = vi.spyOn(network, 'logits');
    expect(network.runtime).toBe('wasm');
    const deferred = vi.spyOn(network as Required<typeof network>, 'deferredLogits');
    const alone = () => logits.mock.calls.length + deferred.mock.calls.length;
    try {
      const s = newGame({ players: 3, seed: 11, sides: 'A' });
      const agent = createAgent('mcts-strong(it=64,time=0,model=net-3p.onnx,eval=mix,prior=net,batch=8)', { searchStatistics: 'all' }) as MctsAgent;
      const legal = legalMoves(s, 0, agent.moveMode, []);
      const decision = agent.decide(decisionContext(s, 0, legal, new Rng(3), false));
      expect(decision.iterations).toBe(64);
      expect(batch).toHaveBeenCalledTimes(8);
      for (const call of batch.mock.calls) expect(call.slice(1)).toEqual([8, true, true]);
      // No leaf is scored alone: the one values call explains the decision (its `network`).
      expect(values).toHaveBeenCalledTimes(1);
      // New nodes take their priors from their leaf's row: few are read one at a time (a node
      // descended into again within its own call), where the unbatched search reads one for most.
      const readAlone = alone();
      logits.mockClear();
      deferred.mockClear();
      firstDecision('mcts-strong(it=64,time=0,model=net-3p.onnx,eval=mix,prior=net)');
      expect(readAlone * 4).toBeLessThan(alone());
      // Virtual visits are not counted twice: the root has 64, its children together 64.
      const root = agent.lastRoots[0];
      expect(root.visits).toBe(64);
      expect(root.children.reduce((a, c) => a + c.visits, 0)).toBe(64);
      expect(decision.search!.moves.reduce((a, m) => a + m.visits, 0)).toBe(64);
      // The nodes' priors are their leaves' rows of the calls (but for the few read alone).
      const rows = batch.mock.results.flatMap((r) => {
        const out = r.value as { logits: Float32Array };
        return Array.from({ length: out.logits.length / 390 }, (_, i) => out.logits.subarray(i * 390, (i + 1) * 390).join());
      });
      let withPriors = 0;
      let fromRows = 0;
      const walk = (node: typeof root) => {
        for (const child of node.children) {
          if (child.logits) {
            withPriors++;
            if (child.logits instanceof FullLogits && rows.includes(Array.from(child.logits.values).join())) fromRows++;
          }
          walk(child);
        }
      };
      walk(root);
      expect(fromRows).toBeGreaterThan(0);
      expect(fromRows).toBeGreaterThanOrEqual(withPriors - readAlone);
      expect(legal).toContain(decision.move);
    } finally {
      batch.mockRestore();
      values.mockRestore();
      logits.mockRestore();
      deferred.mockRestore();
    }
  });

  it('ptemp divides the logits before the softmax: at T = 0.5 each prior goes as the square of T = 1\'s; the search follows it', () => {
    const s = newGame({ players: 3, seed: 11, sides: 'A' });
    const agent = createAgent('mcts(it=1,time=0)');
    const legal = legalMoves(s, 0, agent.moveMode, []);
    const keys = new MoveKeys(true, 'cheapest');
    const rootKeys = keys.keys(legal, []);
    const logits = new FullLogits(seatLogits('policy-3p.onnx', s));
    const at = (temp: number) => {
      const priors = new Float64Array(rootKeys.length);
      keyPriors(logits, rootKeys, legal, keys, priors, temp);
      return Array.from(priors);
    };
    const one = at(1);
    const squares = one.map((x) => x * x);
    const sum = squares.reduce((a, x) => a + x, 0);
    at(0.5).forEach((x, i) => expect(x).toBeCloseTo(squares[i] / sum, 12));
    // Above 1 flatter, below 1 sharper (the fixture's random logits are close together).
    const flat = at(20);
    expect(Math.max(...flat) - Math.min(...flat)).toBeLessThan(Math.max(...one) - Math.min(...one));
    expect(Math.max(...at(0.05))).toBeGreaterThan(Math.max(...one) + 0.3);
    // In the search: sharp priors put more of 300 iterations on the top move than flat ones do.
    const top = (temp: number) => firstDecision(`mcts(it=300,time=0,model=policy-3p.onnx,prior=root,c=5,ptemp=${temp})`).decision.search!.moves[0].visits;
    expect(top(0.05)).toBeGreaterThan(top(20));
    // ptemp=1 is the option's absence: the same search to the visit.
    expect(firstDecision('mcts(it=120,time=0,model=policy-3p.onnx,prior=net,ptemp=1)').decision.search).toEqual(firstDecision('mcts(it=120,time=0,model=policy-3p.onnx,prior=net)').decision.search);
  });

  it('lambda weighs eval=mix: 0 is the playout alone (the same search as eval=playout), 0.5 the mean as before, and it needs eval=mix', () => {
    const out = [new Float64Array(3), new Float64Array(3)];
    mixInto(3, 0.25, Float64Array.of(10, 20, 30), Float64Array.of(0, 0.5, 1), Float64Array.of(20, 20, 0), Float64Array.of(1, 0.5, 0), out[0], out[1]);
    expect(Array.from(out[0])).toEqual([12.5, 20, 22.5]);
    expect(Array.from(out[1])).toEqual([0.25, 0.5, 0.75]);
    // 0.5 is the mean to the last bit (the option's default keeps every stored game).
    const rng = new Rng(9);
    for (let i = 0; i < 1000; i++) {
      const [a, ra, b, rb] = [rng.float() * 80, rng.float(), rng.float() * 80, rng.float()];
      const mixed = [new Float64Array(1), new Float64Array(1)];
      mixInto(1, 0.5, Float64Array.of(a), Float64Array.of(ra), Float64Array.of(b), Float64Array.of(rb), mixed[0], mixed[1]);
      expect(mixed[0][0]).toBe((a + b) / 2);
      expect(mixed[1][0]).toBe((ra + rb) / 2);
    }
    // The network is read but weighs nothing at 0: every simulation scores as its playout does.
    const playout = firstDecision('mcts(it=80,time=0)').decision.search!.moves;
    const mix0 = firstDecision('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=0)').decision.search!.moves;
    expect(mix0).toEqual(playout);
    const mix1 = firstDecision('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=1)').decision.search!.moves;
    expect(mix1).not.toEqual(playout);
    expect(firstDecision('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=0.5)').decision.search).toEqual(firstDecision('mcts(it=80,time=0,model=net-3p.onnx,eval=mix)').decision.search);
    // The batched path weighs the same way (playout first, network second): with reward=vp the
    // fixture network predicts about 40 VP for every seat, games played out spread far wider.
    const spread = (spec: string) => {
      const values = firstDecision(spec).decision.search!.moves.map((m) => m.value);
      return Math.max(...values) - Math.min(...values);
    };
    expect(spread('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=1,batch=8,reward=vp)')).toBeLessThan(12);
    expect(spread('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=0,batch=8,reward=vp)')).toBeGreaterThan(spread('mcts(it=80,time=0,model=net-3p.onnx,eval=mix,lambda=1,batch=8,reward=vp)') + 6);
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,eval=net,lambda=0.3)')).toThrow('lambda: 0.3 weighs eval=mix');
    // prior=net is PUCT at every node: UCB1's widening and real-score bias would change nothing.
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,prior=net,pw=0.2)')).toThrow('pw: 0.2 is read by UCB1, which prior=net never uses');
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,prior=net,kscore=1)')).toThrow('kscore: 1 is read by UCB1');
    expect(parseAgentSpec('mcts(model=net-3p.onnx,prior=root,pw=0.2,pwq=2)').kind).toBe('mcts');
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,eval=mix,ptemp=2)')).toThrow('ptemp: 2 is the temperature of the network');
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,eval=mix,lambda=1.5)')).toThrow('lambda: expected a number from 0 to 1');
  });

  it('Dirichlet draws: Gamma variates of mean and variance α; draws on the simplex with mean 1/k', () => {
    const rng = new Rng(17);
    for (const alpha of [0.3, 1, 2.5]) {
      const xs = Array.from({ length: 40_000 }, () => gamma(alpha, rng));
      const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
      const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length;
      expect(xs.every((x) => x >= 0)).toBe(true);
      expect(Math.abs(mean - alpha)).toBeLessThan(0.03 * Math.max(1, alpha));
      expect(Math.abs(variance - alpha)).toBeLessThan(0.08 * Math.max(1, alpha));
    }
    const out = new Float64Array(8);
    const sums = new Float64Array(8);
    let spread = 0;
    for (let i = 0; i < 5000; i++) {
      dirichlet(0.3, 8, rng, out);
      expect(out.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
      out.forEach((x, j) => (sums[j] += x));
      spread += Math.max(...out);
    }
    sums.forEach((x) => expect(x / 5000).toBeCloseTo(1 / 8, 1));
    // α = 0.3 is spiky: the largest of 8 shares averages far above 1/8 (about 0.5).
    expect(spread / 5000).toBeGreaterThan(0.4);
  });

  it('noise mixes a Dirichlet draw into the root priors: the search tries moves its network does not favour; noise=0 is no noise', () => {
    const decide = (spec: string, seed: number) => {
      const s = newGame({ players: 3, seed: 11, sides: 'A' });
      const agent = createAgent(spec, { searchStatistics: 'all' });
      const legal = legalMoves(s, 0, agent.moveMode, []);
      return { s, legal, agent, decision: agent.decide(decisionContext(s, 0, legal, new Rng(seed), false)) };
    };
    const { s, legal } = decide('mcts(it=1,time=0)', 1);
    const { keys, top } = rootPriors('policy-3p.onnx', s, legal);
    const tops = (spec: string) => [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => keys.key(decide(spec, seed).decision.search!.moves[0].move));
    // With a large c the priors decide where the visits go: without noise always the prior's top.
    expect(tops('mcts(it=300,time=0,model=policy-3p.onnx,prior=root,c=50)').every((k) => k === top)).toBe(true);
    // All noise (ε = 1, spiky α): the decision's draw decides, a different move on some seeds.
    const noisy = tops('mcts(it=300,time=0,model=policy-3p.onnx,prior=root,c=50,noise=1,alpha=0.1)');
    expect(noisy.some((k) => k !== top)).toBe(true);
    // The same seed, the same draw, the same search.
    expect(decide('mcts(it=120,time=0,model=policy-3p.onnx,prior=net,noise=0.25)', 4).decision.search).toEqual(decide('mcts(it=120,time=0,model=policy-3p.onnx,prior=net,noise=0.25)', 4).decision.search);
    expect(decide('mcts(it=120,time=0,model=policy-3p.onnx,prior=net,noise=0)', 4).decision.search).toEqual(decide('mcts(it=120,time=0,model=policy-3p.onnx,prior=net)', 4).decision.search);
    expect(() => parseAgentSpec('mcts(noise=0.25)')).toThrow('noise: 0.25 mixes Dirichlet noise');
    expect(() => parseAgentSpec('mcts(model=policy-3p.onnx,prior=net,alpha=0.3)')).toThrow('alpha: 0.3 is the concentration');
  });

  it('batch=8 plays whole games, the same game twice; batch needs a network at the leaves', () => {
    const plan: GamePlan = { id: 'g', index: 0, seed: 22, set: -1, deal: 0, seating: 0, agents: ['mcts-strong(it=24,time=0,model=net-3p.onnx,eval=mix,prior=net,batch=8)', 'mcts(it=24,time=0,model=net-3p.onnx,eval=net,batch=5)', 'rulebased'], sides: 'random', open: false };
    const a = playGame(plan, { record: true });
    const b = playGame(plan, { record: true });
    expect(a.players.every((p) => p.decisions >= 18)).toBe(true);
    expect(a.log!.moves).toEqual(b.log!.moves);
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,prior=net,batch=8)')).toThrow('batch: 8 leaves a call are for the network');
    expect(() => parseAgentSpec('mcts(model=net-3p.onnx,eval=net,opp=mast,batch=8)')).toThrow('batch: 8 leaves a call cannot be used with MAST');
    // Cut short by the clock, a batched search stops between calls: whole calls only, none unbatched after.
    const { decision } = firstDecision('mcts-strong(it=50000,time=0.02,model=net-3p.onnx,eval=net,batch=8)');
    expect(decision.cutShort).toBe(true);
    expect(decision.iterations! % 8).toBe(0);
  });

  it('plays the same game twice from one seed and model', () => {
    const plan: GamePlan = { id: 'g', index: 0, seed: 21, set: -1, deal: 0, seating: 0, agents: ['mcts(it=40,time=0,model=net-3p.onnx,eval=mix,prior=net)', 'mcts-strong(it=40,time=0,model=net-3p.onnx,prior=root)', 'mcts(it=40,time=0,model=net-3p.onnx,eval=net)'], sides: 'random', open: false };
    const a = playGame(plan, { record: true });
    const b = playGame(plan, { record: true });
    expect(a.log!.moves).toEqual(b.log!.moves);
    expect(a.players.map((p) => p.score.total)).toEqual(b.players.map((p) => p.score.total));
  });

  it('refuses a network that cannot serve: no values for eval, another player count, a missing file — at submit, naming the seat', () => {
    expect(() => new MctsAgent((parseAgentSpec('mcts(model=policy-3p.onnx,eval=net)') as { params: MctsParams }).params, {})).toThrow(/model 'policy-3p.onnx': eval=net needs a network with values/);
    const refused = (seat: string, players = 3) => {
      try {
        checkSweepSpec({ name: 'n', players, seats: [seat, ...Array(players - 1).fill('random')], deals: { count: 1 } });
      } catch (err) {
        expect(err).toBeInstanceOf(SweepSpecError);
        return { field: (err as SweepSpecError).field, message: (err as Error).message };
      }
      return undefined;
    };
    expect(refused('mcts(model=policy-3p.onnx,eval=mix)')).toMatchObject({ field: 'seats.0', message: expect.stringMatching(/eval=mix needs a network with values/) });
    expect(refused('mcts(model=net-3p.onnx,eval=net)', 4)).toMatchObject({ field: 'seats.0', message: expect.stringMatching(/reads observations of 675 values \(3 players\), a game of 4 has 846/) });
    expect(refused('mcts(model=gone.onnx,prior=net)')).toMatchObject({ field: 'seats.0', message: expect.stringMatching(/model 'gone.onnx': no such file in MODELS_DIR/) });
    expect(refused('mcts(model=policy-3p.onnx,prior=net)')).toBeUndefined();
  });

  it('records the models MCTS seats read, with their hashes', () => {
    const ok = checkSweepSpec({ name: 'n', players: 3, seats: ['mcts(model=net-3p.onnx,eval=net)', 'policy(model=policy-3p.onnx)', 'random'], deals: { count: 1 } });
    expect(sweepModels(new Sweep(ok.spec).cells)).toEqual({ 'net-3p.onnx': loadNetwork('net-3p.onnx').sha256, 'policy-3p.onnx': loadNetwork('policy-3p.onnx').sha256 });
  });
});
