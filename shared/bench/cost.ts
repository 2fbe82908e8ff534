/**
 * The measurements behind the sweep cost model (shared/src/lab/plan/cost.ts): CPU microseconds per MCTS
 * iteration, averaged over whole games (every Age, every decision), for each playout policy (every
 * seat simulated by it) at 3 and 7 players, the depth factor, the 2014 paper's tree (seats, every payment) and the time of a
 * game without MCTS seats. Prints the figures in the shape of the model's tables, so a re-measured
 * machine can update them by hand: `node shared/dist/bench/cost.js` (COST_GAMES games per figure,
 * default 3).
 */
import { playGame, planTournament } from '../src/lab/index.js';
import { cpuSeconds } from './harness.js';
import { processorLine } from '../src/lab/results/provenance.js';

const GAMES = Number(process.env.COST_GAMES ?? 3);

/** Mean CPU µs per MCTS iteration of the first seat over GAMES games, the others `random`. */
function microsPerIteration(agent: string, players: number): number {
  const agents = [agent, ...Array.from({ length: players - 1 }, () => 'random')];
  const plans = planTournament({ agents, setup: 'random', deals: GAMES, seed: 11, seating: 'fixed', sides: 'random', open: false });
  let iterations = 0;
  let micros = 0;
  for (const plan of plans) {
    micros += cpuSeconds(() => {
      iterations += playGame(plan).players[0].iterations;
    }) * 1e6;
  }
  return micros / iterations;
}

function gameMillis(players: number): number {
  const agents = Array.from({ length: players }, () => 'rulebased');
  const plans = planTournament({ agents, setup: 'random', deals: 20, seed: 11, seating: 'fixed', sides: 'random', open: false });
  const seconds = cpuSeconds(() => {
    for (const plan of plans) playGame(plan);
  });
  return (seconds * 1000) / plans.length;
}

function main(): void {
  microsPerIteration('mcts(it=200,time=0,opp=same)', 3); // warm-up: let the JIT settle
  console.log(processorLine());
  console.log(`# wonderlab cost model measurements — Node ${process.version}, ${GAMES} games per figure, CPU time`);
  for (const playout of ['random', 'nodiscard', 'rulebased', 'mast']) {
    const at = [3, 7].map((n) => microsPerIteration(`mcts(it=200,time=0,playout=${playout},opp=same)`, n).toFixed(1));
    console.log(`iteration_us ${playout}: [${at.join(', ')}] (3 and 7 players)`);
  }
  const full = microsPerIteration('mcts(it=200,time=0,opp=same)', 3);
  for (const depth of [1, 4, 8, 12]) {
    console.log(`depth_factor ${depth}: ${(microsPerIteration(`mcts(it=200,time=0,opp=same,depth=${depth})`, 3) / full).toFixed(2)}`);
  }
  for (const n of [3, 7]) {
    const robilliard = microsPerIteration('mcts(it=200,time=0,playout=nodiscard,opp=same,tree=seats,trades=all)', n);
    const joint = microsPerIteration('mcts(it=200,time=0,playout=nodiscard,opp=same)', n);
    console.log(`seats_all_factor ${n}p: ${(robilliard / joint).toFixed(2)}`);
  }
  // The model averages the seats' policies: the thesis agent's mix, measured against its estimate.
  const mixed = microsPerIteration('mcts(it=200,time=0)', 3);
  console.log(`check mcts (own random, opp rulebased) 3p: ${mixed.toFixed(1)} µs per iteration`);
  console.log(`game_ms without MCTS: [${[3, 7].map((n) => gameMillis(n).toFixed(1)).join(', ')}] (3 and 7 players)`);
}

main();
