/**
 * Agent benchmark (part of `npm run bench`): MCTS iterations per second at the first decision of
 * a 3-player game and at an Age III decision, and the wall time of one MCTS-500 game against two
 * `rulebased`. One core; medians of several rounds.
 */
import { MCTS_KINDS, createAgent } from '../src/agents/index.js';
import { Rng, actingSeats, legalMoves, newGame, step, type GameState } from '../src/engine/index.js';
import { decisionContext } from '../src/agents/index.js';
import { playGame, planTournament } from '../src/lab/index.js';
import { ROUNDS, calibrationUnit, measure, median } from './harness.js';
import { processorLine } from '../src/lab/results/provenance.js';

/** A 3-player state at the first turn of `age`, reached with random moves. */
function stateAtAge(age: number, seed: number): GameState {
  const s = newGame({ players: 3, seed, sides: 'A' });
  const rng = new Rng(seed);
  const moves = new Int32Array(3);
  const buf: number[] = [];
  while (s.age < age || s.phase !== 0) {
    for (const p of actingSeats(s)) {
      legalMoves(s, p, 'cheapest', buf);
      moves[p] = buf[rng.int(buf.length)];
    }
    step(s, moves);
  }
  return s;
}

function iterationsPerSecond(name: string, s: GameState, spec: string): number {
  const agent = createAgent(spec);
  const legal = legalMoves(s, 0, agent.moveMode, []);
  const rng = new Rng(5);
  let iterations = 0;
  let spent = 0;
  // Decisions per second is the median figure; iterations/s pools every round, warm-up included.
  const decisions = measure(`${name}_decisions`, 'decisions/s', () => {
    const t = performance.now();
    iterations += agent.decide(decisionContext(s, 0, legal, rng, false)).iterations ?? 0;
    spent += performance.now() - t;
  }, 1);
  const itPerSec = (iterations / spent) * 1000;
  console.log(`${name}: ${Math.round(itPerSec)} iterations/s (${Math.round(decisions)} decisions/s, all rounds pooled)`);
  return itPerSec;
}

function main(): void {
  console.log(processorLine());
  console.log(`# wonderlab agent benchmark — Node ${process.version}, one core`);
  const calibration = measure('calibration', 'units/s', calibrationUnit, 1);
  const first = iterationsPerSecond('mcts_first_decision_3p', newGame({ players: 3, seed: 3, sides: 'A' }), 'mcts(it=500,time=0)');
  console.log(`mcts_first_decision_3p_per_calibration: ${(first / calibration).toFixed(3)} ratio`);
  // Every named agent at its own defaults: a slower iteration may still be the better use of a
  // CPU-second, so the ratio to mcts is printed beside it.
  for (const kind of MCTS_KINDS) {
    if (kind === 'mcts') continue;
    const name = `${kind.replace(/-/g, '_')}_first_decision_3p`;
    const rate = iterationsPerSecond(name, newGame({ players: 3, seed: 3, sides: 'A' }), `${kind}(it=500,time=0)`);
    console.log(`${name}_per_calibration: ${(rate / calibration).toFixed(3)} ratio (${(rate / first).toFixed(2)} × mcts's iterations/s)`);
  }
  const age3 = iterationsPerSecond('mcts_age3_decision_3p', stateAtAge(3, 4), 'mcts(it=250,time=0)');
  console.log(`mcts_age3_decision_3p_per_calibration: ${(age3 / calibration).toFixed(3)} ratio`);

  // A network-guided search against the unguided one at equal iterations (issue 63: at most 1.5 ×):
  // the learning loop's player on its third network, a call per leaf (batch=1) and one per 8 leaves,
  // the network run by the lab's kernel (wasm, the default for an MLP) and by onnxruntime.
  const first3 = () => newGame({ players: 3, seed: 3, sides: 'A' });
  const unguided = iterationsPerSecond('mcts_strong_100_first_decision_3p', first3(), 'mcts-strong(it=100,time=0)');
  const runtime = process.env.NETWORK_RUNTIME;
  for (const network of ['wasm', 'onnxruntime']) {
    process.env.NETWORK_RUNTIME = network;
    for (const batch of [1, 8]) {
      const name = `mcts_strong_100_guided_${network}_batch${batch}_first_decision_3p`;
      const rate = iterationsPerSecond(name, first3(), `mcts-strong(it=100,time=0,model=strong/gen-3.onnx,eval=mix,prior=net,batch=${batch})`);
      console.log(`${name}_cost_over_unguided: ${(unguided / rate).toFixed(2)} cost-ratio (time per iteration on one core, target <= 1.5)`);
    }
  }
  if (runtime === undefined) delete process.env.NETWORK_RUNTIME;
  else process.env.NETWORK_RUNTIME = runtime;

  const plans = planTournament({ agents: ['mcts:500,0,100', 'rulebased', 'rulebased'], setup: 'thesis', deals: 1, seed: 8, seating: 'fixed', sides: 'random', open: false });
  const times: number[] = [];
  for (let i = 0; i < Math.max(3, ROUNDS); i++) {
    const t = performance.now();
    playGame(plans[i * 5]);
    times.push((performance.now() - t) / 1000);
  }
  console.log(`game_mcts500_vs_2_rulebased: ${median(times).toFixed(2)} s (median of ${times.length} games; min ${Math.min(...times).toFixed(2)}, max ${Math.max(...times).toFixed(2)})`);
}

main();
