/**
 * Same-process A/B of two builds (`npm run bench:compare -- REF --same-process` runs it):
 *
 *   node shared/dist/bench/ab.js OLD_ROOT NEW_ROOT [--pairs N] [--slice-ms M] [--only NAME]
 *
 * Loads both checkouts' built engine and agents into this one process and runs each workload in
 * alternating slices (old, new, new, old, …) of M ms (default 250), N pairs (default 20) after a
 * warm-up, counting CPU time rather than wall time; --only runs one workload, so that its slices
 * share the process with nothing else's garbage or compiled code. The build loaded first runs
 * a little faster (up to 3 % between two copies of one commit), so bench:compare runs this twice,
 * the second time with --load-new-first, and combines the two. Workloads: random games (drawn lazily, and
 * drawn from the full listing), the first decision of
 * mcts and mcts-strong, and the decisions of whole games of mcts, mcts-strong and mcts-robilliard. Prints per workload the median new/old ratio
 * of neighbouring slices with its quartiles (interleave.ts). Both builds must export the engine's
 * newGame, playRandom and Rng and the agents' createAgent and decisionContext.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatPaired, pairedSummary } from './interleave.js';
import { processorLine } from '../src/lab/results/provenance.js';
import { alternatingSlices } from './harness.js';

/** What the workloads use of another build's engine and agents (its types are not ours to import). */
interface EngineModule {
  Rng: new (seed: number) => unknown;
  newGame(config: { players: number; seed: number; sides?: string }): { isOver(): boolean };
  /** `draw` is ignored by builds older than playRandom's lazy draw, which always list. */
  playRandom(s: unknown, rng: unknown, draw?: 'lazily' | 'listing'): number;
  legalMoves(s: unknown, p: number, mode: string, out: number[]): number[];
  actingSeats(s: unknown): number[];
  step(s: unknown, moves: ArrayLike<number>): void;
}
interface SearchAgent {
  moveMode: string;
  decide(ctx: unknown): { move: number; iterations?: number };
}
interface AgentsModule {
  createAgent(spec: string): SearchAgent;
  decisionContext(s: unknown, seat: number, legal: number[], rng: unknown, open: boolean): unknown;
}
interface Build {
  engine: EngineModule;
  agents: AgentsModule;
}

/** A workload on one build: does some operations and returns how many. */
type Work = (b: Build, state: Map<string, unknown>) => number;

const USAGE = 'usage: node shared/dist/bench/ab.js OLD_ROOT NEW_ROOT [--pairs N] [--slice-ms M] [--only NAME] [--load-new-first]';

async function load(root: string): Promise<Build> {
  const at = (p: string) => pathToFileURL(resolve(root, 'shared', 'dist', 'src', p)).href;
  return { engine: (await import(at('engine/index.js'))) as EngineModule, agents: (await import(at('agents/index.js'))) as AgentsModule };
}

function randomGames(players: number, draw: 'lazily' | 'listing'): Work {
  return (b, state) => {
    let rng = state.get('rng');
    if (!rng) state.set('rng', (rng = new b.engine.Rng(7)));
    const seed = ((state.get('seed') as number | undefined) ?? 0) + 1;
    state.set('seed', seed);
    b.engine.playRandom(b.engine.newGame({ players, seed }), rng, draw);
    return 1;
  };
}

function firstDecision(spec: string): Work {
  return (b, state) => {
    let setup = state.get('setup') as { s: unknown; agent: SearchAgent; legal: number[]; rng: unknown } | undefined;
    if (!setup) {
      const s = b.engine.newGame({ players: 3, seed: 3, sides: 'A' });
      const agent = b.agents.createAgent(spec);
      setup = { s, agent, legal: b.engine.legalMoves(s, 0, agent.moveMode, []), rng: new b.engine.Rng(5) };
      state.set('setup', setup);
    }
    return setup.agent.decide(b.agents.decisionContext(setup.s, 0, setup.legal, setup.rng, false)).iterations ?? 0;
  };
}

/**
 * Whole games of `spec` in seat 0 against two rulebased, one decision of the searching seat per
 * operation (counted in its iterations): later decisions hold more hidden cards and longer
 * Ages than the first, as in the lab's games. Both builds play the same games in the same order.
 */
function gameDecisions(spec: string): Work {
  return (b, state) => {
    type Game = { s: { isOver(): boolean }; agents: SearchAgent[]; rngs: unknown[]; moves: number[] };
    let game = state.get('game') as Game | undefined;
    if (!game || game.s.isOver()) {
      const seed = ((state.get('seed') as number | undefined) ?? 0) + 1;
      state.set('seed', seed);
      const agents = [spec, 'rulebased', 'rulebased'].map((x) => b.agents.createAgent(x));
      game = { s: b.engine.newGame({ players: 3, seed, sides: 'A' }), agents, rngs: [0, 1, 2].map((k) => new b.engine.Rng(seed * 3 + k)), moves: [0, 0, 0] };
      state.set('game', game);
    }
    const { s, agents, rngs, moves } = game;
    let iterations = 0;
    for (const seat of b.engine.actingSeats(s)) {
      const legal = b.engine.legalMoves(s, seat, agents[seat].moveMode, []);
      const decision = agents[seat].decide(b.agents.decisionContext(s, seat, legal, rngs[seat], false));
      moves[seat] = decision.move;
      iterations += decision.iterations ?? 0;
    }
    b.engine.step(s, moves);
    return iterations;
  };
}

const WORKLOADS: { name: string; unit: string; work: Work }[] = [
  { name: 'random_games_3p', unit: 'games', work: randomGames(3, 'lazily') },
  { name: 'random_games_7p', unit: 'games', work: randomGames(7, 'lazily') },
  { name: 'random_games_3p_listed', unit: 'games', work: randomGames(3, 'listing') },
  { name: 'random_games_7p_listed', unit: 'games', work: randomGames(7, 'listing') },
  { name: 'mcts_first_decision_3p', unit: 'iterations', work: firstDecision('mcts(it=500,time=0)') },
  { name: 'mcts_strong_first_decision_3p', unit: 'iterations', work: firstDecision('mcts-strong(it=500,time=0)') },
  { name: 'mcts_games_3p', unit: 'iterations', work: gameDecisions('mcts(it=100,time=0)') },
  // Issue 63's whole-game target: mcts-strong:100's CPU per game.
  { name: 'mcts_strong_games_3p', unit: 'iterations', work: gameDecisions('mcts-strong(it=100,time=0)') },
  { name: 'mcts_robilliard_games_3p', unit: 'iterations', work: gameDecisions('mcts-robilliard(it=100,time=0)') },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const roots: string[] = [];
  let pairs = 20;
  let sliceMs = 250;
  let only: string | undefined;
  let newFirst = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--pairs') pairs = Number(args[++i]);
    else if (args[i] === '--slice-ms') sliceMs = Number(args[++i]);
    else if (args[i] === '--only') only = args[++i];
    else if (args[i] === '--load-new-first') newFirst = true;
    else roots.push(args[i]);
  }
  const chosen = WORKLOADS.filter((w) => only === undefined || w.name === only);
  if (roots.length !== 2 || !(pairs >= 1) || !(sliceMs >= 10) || chosen.length === 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const builds: Build[] = [];
  if (newFirst) builds[1] = await load(roots[1]);
  builds[0] = await load(roots[0]);
  builds[1] ??= await load(roots[1]);
  console.log(processorLine());
  console.log(`# same-process A/B — old: ${roots[0]}, new: ${roots[1]}, ${newFirst ? 'new' : 'old'} loaded first; ${pairs} pairs of ${sliceMs} ms slices per workload, CPU time`);
  for (const w of chosen) {
    const states = [new Map<string, unknown>(), new Map<string, unknown>()];
    const works = [() => w.work(builds[0], states[0]), () => w.work(builds[1], states[1])] as const;
    const slices = alternatingSlices(pairs, sliceMs, works, [2 * sliceMs, 2 * sliceMs]);
    console.log(formatPaired(w.name, `${w.unit}/s`, pairedSummary(slices)));
  }
}

main().catch((err: unknown) => {
  console.error(`ab: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
