/**
 * The policy agent (agents/policy.ts) with a real onnxruntime-node session on the fixture network
 * test/fixtures/models/policy-3p.onnx (python/tools/make_test_policy.py). python/tests runs the same
 * network in Python's onnxruntime and checks the games agree move for move.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_MODELS, useFixtureModels } from './fixture-models.js';
import { ACTION_COUNT, actionIndex, observationSize } from '../src/agents/encoding.js';
import { ModelError, PolicyAgent, canonicalSpec, createAgent, decisionContext, loadNetwork, modelPath, parseAgentSpec } from '../src/agents/index.js';
import { Rng, legalMoves, newGame } from '../src/engine/index.js';
import { SweepSpecError, checkSweepSpec, playGame, sweepModels, Sweep } from '../src/lab/index.js';

useFixtureModels();

describe('policy spec', () => {
  it('parses model and temp, and writes one canonical form', () => {
    const spec = parseAgentSpec('policy( model=run1/gen-4.onnx , temp=0.5 )');
    expect(spec).toMatchObject({ kind: 'policy', model: 'run1/gen-4.onnx', temp: 0.5 });
    expect(canonicalSpec(spec)).toBe('policy(model=run1/gen-4.onnx,temp=0.5)');
    expect(canonicalSpec(parseAgentSpec('policy(model=a.onnx,temp=0)'))).toBe('policy(model=a.onnx)');
  });

  it.each([
    ['policy', /expected 'policy\(model=NAME.onnx\)'/],
    ['policy(temp=1)', /model: required/],
    ['policy(model=../secret.onnx)', /model: the model file under MODELS_DIR/],
    ['policy(model=/etc/x.onnx)', /model: the model file under MODELS_DIR/],
    ['policy(model=a.pt)', /model: the model file under MODELS_DIR/],
    ['policy(model=a.onnx,temp=-1)', /temp: a number from 0 to 100/],
    ['policy(model=a.onnx,depth=3)', /unknown parameter 'depth'/],
  ])('refuses %s', (text, message) => {
    expect(() => parseAgentSpec(text)).toThrow(message);
  });

  it('never resolves a name outside MODELS_DIR', () => {
    expect(() => modelPath('a/../../b.onnx')).toThrow(ModelError);
    expect(modelPath('a/b.onnx')).toBe(`${FIXTURE_MODELS}/a/b.onnx`);
  });
});

describe('policy agent', () => {
  it('loads the network with its hash and shape, and refuses what does not fit', () => {
    const network = loadNetwork('policy-3p.onnx');
    expect(network.inputSize).toBe(observationSize(3));
    expect(network.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(network.logits(new Float32Array(observationSize(3))).length).toBe(ACTION_COUNT);
    expect(() => loadNetwork('missing.onnx')).toThrow(/model 'missing.onnx': no such file in MODELS_DIR/);
    const five = createAgent('policy(model=policy-3p.onnx)');
    const s = newGame({ players: 5, seed: 1 });
    expect(() => five.decide(decisionContext(s, 0, legalMoves(s, 0), new Rng(1), false))).toThrow(/reads observations of 675 values \(3 players\), a game of 5 has 1017/);
  });

  it('plays the legal move of highest logit at temp 0, and samples legal moves from its RNG above it', () => {
    const network = loadNetwork('policy-3p.onnx');
    const s = newGame({ players: 3, seed: 9 });
    const legal = legalMoves(s, 1);
    const greedy = new PolicyAgent(network, 0).decide(decisionContext(s, 1, legal, new Rng(1), false)).move;
    const bytes = new Uint8Array(observationSize(3));
    decisionContext(s, 1, legal, new Rng(1), false).writeObservation(bytes);
    const logits = network.logits(Float32Array.from(bytes));
    const best = Math.max(...legal.map((m) => logits[actionIndex(m)]));
    expect(logits[actionIndex(greedy)]).toBe(best);
    // A different position gives different logits: the network reads the observation, also when
    // the caller rewrites the same array (as an agent does; the network keeps its tensor over it).
    const reused = Float32Array.from(bytes);
    const first = Array.from(network.logits(reused));
    const later = newGame({ players: 3, seed: 10 });
    decisionContext(later, 1, legalMoves(later, 1), new Rng(1), false).writeObservation(bytes);
    reused.set(bytes);
    const second = Array.from(network.logits(reused));
    expect(second).not.toEqual(first);
    expect(second).toEqual(Array.from(network.logits(Float32Array.from(bytes))));
    const sampled = (seed: number) => new PolicyAgent(network, 5).decide(decisionContext(s, 1, legal, new Rng(seed), false)).move;
    const draws = Array.from({ length: 40 }, (_, i) => sampled(i));
    expect(draws.every((m) => legal.includes(m))).toBe(true);
    expect(new Set(draws).size).toBeGreaterThan(1);
    expect(sampled(3)).toBe(sampled(3));
  });

  it('plays whole lab games', () => {
    const game = playGame({ id: 'p', index: 0, seed: 5, set: -1, deal: 0, seating: 0, agents: ['policy(model=policy-3p.onnx)', 'rulebased', 'random'], sides: 'random', open: false });
    expect(game.players[0].decisions).toBeGreaterThanOrEqual(18);
  });

  it('a sweep naming a missing or mis-shaped model is refused at the seat, and a good one records its hash', () => {
    const spec = (seat0: string, players = 3) => ({ name: 'p', players, seats: [seat0, ...Array(players - 1).fill('random')], deals: { count: 2 } });
    expect(() => checkSweepSpec(spec('policy(model=nope.onnx)'))).toThrow(SweepSpecError);
    try {
      checkSweepSpec(spec('policy(model=nope.onnx)'));
    } catch (err) {
      expect((err as SweepSpecError).field).toBe('seats.0');
      expect((err as Error).message).toMatch(/model 'nope.onnx': no such file/);
    }
    expect(() => checkSweepSpec(spec('policy(model=policy-3p.onnx)', 4))).toThrow(/a game of 4 has 846/);
    const ok = checkSweepSpec(spec('policy(model=policy-3p.onnx)'));
    expect(sweepModels(new Sweep(ok.spec).cells)).toEqual({ 'policy-3p.onnx': loadNetwork('policy-3p.onnx').sha256 });
  });
});
