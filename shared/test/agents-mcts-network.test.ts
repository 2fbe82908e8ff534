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
import { Rng, legalMoves, newGame } from '../src/engine/index.js';
import { Sweep, SweepSpecError, checkSweepSpec, playGame, sweepModels, type GamePlan } from '../src/lab/index.js';

useFixtureModels();

function firstDecision(spec: string) {
  const s = newGame({ players: 3, seed: 11, sides: 'A' });
  const agent = createAgent(spec, { searchStatistics: 'all' });
  const legal = legalMoves(s, 0, agent.moveMode, []);
  const decision = agent.decide(decisionContext(s, 0, legal, new Rng(3), false));
  return { s, legal, decision };
}

describe('MCTS with a network', () => {
  it('eval=net scores every simulation by the network’s values (one evaluation per iteration); eval=playout never asks', () => {
    const network = loadNetwork('net-3p.onnx');
    const evaluate = vi.spyOn(network, 'evaluate');
    try {
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,eval=net)');
      expect(evaluate).toHaveBeenCalledTimes(60);
      evaluate.mockClear();
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,eval=mix)');
      expect(evaluate).toHaveBeenCalledTimes(60);
      evaluate.mockClear();
      firstDecision('mcts(it=60,time=0,model=net-3p.onnx,prior=net)');
      expect(evaluate).not.toHaveBeenCalled();
    } finally {
      evaluate.mockRestore();
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
    const network = loadNetwork('policy-3p.onnx');
    const bytes = new Uint8Array(network.inputSize);
    writeObservation(s, 0, bytes);
    const logits = Float32Array.from(network.logits(Float32Array.from(bytes)));
    const keys = new MoveKeys(true, 'cheapest');
    const rootKeys = keys.keys(legal, []);
    const priors = new Float64Array(rootKeys.length);
    keyPriors(logits, rootKeys, legal, keys, priors);
    expect(priors.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 9);
    const top = rootKeys[priors.indexOf(Math.max(...priors))];
    const visits = decision.search!.moves;
    expect(keys.key(visits[0].move)).toBe(top);
    // Visits go roughly as the priors: the top move takes more than its fair share.
    expect(visits[0].visits).toBeGreaterThan(300 / rootKeys.length);
  });

  it('plays the same game twice from one seed and model', () => {
    const plan: GamePlan = { id: 'g', index: 0, seed: 21, set: -1, deal: 0, seating: 0, agents: ['mcts(it=40,time=0,model=net-3p.onnx,eval=mix,prior=net)', 'rulebased', 'mcts(it=40,time=0,model=net-3p.onnx,eval=net)'], sides: 'random', open: false };
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
