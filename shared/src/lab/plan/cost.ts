/**
 * What a game costs, estimated before it is played: CPU seconds on one core, from measured
 * per-iteration costs of MCTS. The coordinator refuses sweeps whose estimate is over its limits
 * (see limits.ts), and a stopping worker hands back at once the games that cannot finish within
 * its grace.
 *
 * The figures are CPU microseconds per MCTS iteration averaged over whole games (every Age and
 * decision, so playouts of every length), measured by `node shared/dist/bench/cost.js` on the
 * 2-core dev machine and rounded up. An estimate, not a promise: against the decision times the
 * reproduction runs recorded (reproduction/in-sample, 18 decisions a seat) it gave 0.8 to 1.2 × the
 * measured time for most presets' agents, and 0.57 to 0.8 × for mcts-robilliard below 1000
 * iterations; a faster core takes proportionally less.
 *
 * Those decision times are wall times on a loaded machine (every core busy with games), so the
 * tables are a bound of what a game takes on a busy worker: what MAX_GAME_SECONDS and a stopping
 * worker's grace need (gameSeconds). The CPU a game really uses — what a sweep costs, shown at
 * submit — is CPU_SHARE of it (expectedCpuSeconds).
 */
import { DEFAULT_EXT_TIME, NO_MODEL, parseAgentSpec, type AgentSpec, type MctsParams, type MinimaxParams } from '../../agents/index.js';

/**
 * µs per iteration when every seat's simulated moves follow one policy, at 3 and at 7 players
 * (linear in between). With `opp` set, the agent's own moves follow `playout` and the others'
 * `opp`: the cost is the seats' average.
 */
const ITERATION_MICROS: Record<MctsParams['playout'], readonly [number, number]> = {
  random: [35, 75],
  nodiscard: [40, 90],
  rulebased: [45, 105],
  mast: [40, 90],
};

/** Cost of an iteration cut off after `depth` turns, relative to a full-length one (points measured; linear between). */
const DEPTH_FACTOR: readonly (readonly [number, number])[] = [
  [1, 0.4],
  [4, 0.55],
  [8, 0.7],
  [12, 0.85],
  [18, 1],
];

/** The 2014 paper's tree (a level per seat) or every payment in it: up to this factor slower. */
const SEATS_OR_ALL_TRADES_FACTOR = 1.3;

/**
 * A network call in a search, as the bound counts it, µs: the logits (priors, the policy agent's
 * move) and the values alone (leaf evaluation: the head is skipped). For a network of the
 * trainer's default size (hidden 256,256): `npm run bench` (policy.js) times a logits call of
 * strong/gen-3 at 34 µs on one quiet core of the dev machine's Intel Xeon (at 92cd932) and 13 µs
 * on an AMD EPYC (at c95be6d), a values call about two thirds of that (the head skipped); a search
 * adds the observation's encoding and the priors. The bound is about twice what a quiet Xeon core
 * takes, as for iterations, so that a Xeon under the test suite's load (its thread CPU up to 2.7 ×
 * the quiet figure) stays inside shared/test/cost-calibration.test.ts's bounds. These were 180 and
 * 100 when a call took 85 µs on the Xeon; left there after the lab's kernel made calls cheaper,
 * they put the estimate shown for an eval=net game at 3.9 × its CPU on a quiet EPYC (4.1 in one
 * CI run, past the test's bound of 4); with these, 2.5 (eval=mix 1.9, prior=net 1.6, prior=root
 * 1.4). A larger network costs more.
 */
const NETWORK_LOGITS_MICROS = 110;
const NETWORK_VALUES_MICROS = 55;

/**
 * Logits calls per iteration with prior=net: a node asks once, when it becomes a parent, and about
 * 0.4 of the iterations make one (measured in self-play of mcts-strong(it=100) guided by
 * strong/gen-3.onnx). With prior=root the search asks once per decision.
 */
const PRIOR_NET_CALLS_PER_ITERATION = 0.4;

/** A game's own cost with no MCTS seat (engine and rule-based players), ms at 3 and 7 players. */
const GAME_BASE_MS: readonly [number, number] = [2, 4];

/** Decisions of one seat in one Age (seven cards, the last one discarded). */
const DECISIONS_PER_AGE = 6;
const AGES = 3;

const byPlayers = ([at3, at7]: readonly [number, number], players: number) => at3 + ((at7 - at3) * (players - 3)) / 4;

function depthFactor(depth: number): number {
  const points = DEPTH_FACTOR;
  if (depth >= points[points.length - 1][0]) return 1;
  for (let i = 1; i < points.length; i++) {
    const [d1, f1] = points[i];
    const [d0, f0] = points[i - 1];
    if (depth <= d1) return f0 + ((f1 - f0) * (depth - d0)) / (d1 - d0);
  }
  return points[0][1];
}

/** Estimated CPU seconds one decision of these MCTS parameters takes in each Age. */
export function decisionSeconds(params: MctsParams, players: number): [number, number, number] {
  const opponents = params.opp === 'same' ? params.playout : params.opp;
  const policyMicros = (byPlayers(ITERATION_MICROS[params.playout], players) + (players - 1) * byPlayers(ITERATION_MICROS[opponents], players)) / players;
  const full = policyMicros * (params.tree === 'seats' || params.trades === 'all' ? SEATS_OR_ALL_TRADES_FACTOR : 1);
  // A network's calls: per iteration (eval=net|mix scores every simulation; prior=net's parents),
  // and per decision (prior=root). eval=net plays no playout; the world's draw and the descent are
  // left, costed as an iteration cut off after its first turn.
  const guided = params.model !== NO_MODEL;
  const evaluation = guided && params.eval !== 'playout' ? NETWORK_VALUES_MICROS : 0;
  const playout = full * depthFactor(guided && params.eval === 'net' ? 1 : params.depth);
  const priors = guided && params.prior === 'net' ? PRIOR_NET_CALLS_PER_ITERATION * NETWORK_LOGITS_MICROS : 0;
  const micros = playout + evaluation + priors;
  const perDecision = guided && params.prior === 'root' ? NETWORK_LOGITS_MICROS : 0;
  return params.scale.map((scale) => {
    const seconds = (Math.max(1, Math.round(params.it * scale)) * micros + perDecision) / 1e6;
    // The time limit caps a decision (0: no cap).
    return params.time > 0 ? Math.min(params.time, seconds) : seconds;
  }) as [number, number, number];
}

/**
 * A minimax decision's cost, as the bound (a busy worker's wall time, so CPU over CPU_SHARE), at 3
 * and 7 players: µs per world (its draw, and the turn completed after each root move) and µs per
 * node of the estimated tree. Fitted to thread CPU measured at 3 players (minimax against two
 * rulebased, 6 games each): 170 µs of CPU per world and 1.8 per node give 0.72 / 1.59 / 59.6 /
 * 425 / 10.1 / 21.8 ms per decision where depth=1 / the defaults / depth=6 / depth=9,keep=3 /
 * keep=0,worlds=16 / depth=4,worlds=20 took 0.69 / 2.22 / 32.1 / 166 / 7.2 / 17.9 ms: close for
 * shallow searches, high for deep ones (alpha-beta prunes what the estimate counts). 7 players:
 * scaled as MCTS's iterations are (more seats to list moves and score for).
 */
const MINIMAX_WORLD_MICROS: readonly [number, number] = [425, 1000];
const MINIMAX_NODE_MICROS: readonly [number, number] = [4.5, 10];

/** The root's moves (keys) of an average decision, and a node's below the root with keep=0. */
const MINIMAX_BRANCHING = 6;

/**
 * Estimated CPU seconds of one minimax decision (the bound): `worlds` × (a world's own cost + the
 * nodes of a tree with MINIMAX_BRANCHING moves at the root and `keep` below, depths 1 to depth as
 * iterative deepening searches them, no credit for alpha-beta), capped by `time`.
 */
export function minimaxDecisionSeconds(params: MinimaxParams, players: number): number {
  const k = params.keep > 0 ? Math.min(params.keep, MINIMAX_BRANCHING) : MINIMAX_BRANCHING;
  let nodes = 0;
  for (let d = 1; d <= params.depth; d++) nodes += MINIMAX_BRANCHING * k ** (d - 1);
  const seconds = (params.worlds * (byPlayers(MINIMAX_WORLD_MICROS, players) + nodes * byPlayers(MINIMAX_NODE_MICROS, players))) / 1e6;
  return params.time > 0 ? Math.min(params.time, seconds) : seconds;
}

/** An outside agent's budget per decision, seconds (its spec's time, else DEFAULT_EXT_TIME). */
export function extBudgetSeconds(spec: Extract<AgentSpec, { kind: 'ext' }>): number {
  return spec.options.time !== undefined ? Number(spec.options.time) : DEFAULT_EXT_TIME;
}

/** Estimated CPU seconds one agent (a spec string) thinks in a game of `players` seats. */
export function agentSeconds(text: string, players: number): number {
  const spec = parseAgentSpec(text);
  if (spec.kind === 'minimax') return AGES * DECISIONS_PER_AGE * minimaxDecisionSeconds(spec.minimax, players);
  // The network agent: one logits call a decision.
  if (spec.kind === 'policy') return (AGES * DECISIONS_PER_AGE * NETWORK_LOGITS_MICROS) / 1e6;
  // An outside agent: its budget, the most each decision may take (what it really takes is its own).
  if (spec.kind === 'ext') return AGES * DECISIONS_PER_AGE * extBudgetSeconds(spec);
  if (!('params' in spec)) return 0;
  return decisionSeconds(spec.params, players).reduce((sum, perDecision) => sum + DECISIONS_PER_AGE * perDecision, 0);
}

/**
 * Estimated seconds of one agent's costliest decision (the bound, as a busy worker's wall time): what
 * a person waits for on the play page. Rule-based and random players count as nothing.
 */
export function decisionBoundSeconds(text: string, players: number): number {
  const spec = parseAgentSpec(text);
  if (spec.kind === 'minimax') return minimaxDecisionSeconds(spec.minimax, players);
  if (spec.kind === 'policy') return NETWORK_LOGITS_MICROS / 1e6;
  if (spec.kind === 'ext') return extBudgetSeconds(spec);
  if (!('params' in spec)) return 0;
  return Math.max(...decisionSeconds(spec.params, players));
}

/** Estimated CPU seconds of the game itself (engine, non-MCTS players) at `players` seats. */
export function baseGameSeconds(players: number): number {
  return byPlayers(GAME_BASE_MS, players) / 1000;
}

/** Estimated CPU seconds of one game between these agents (spec strings, one per seat). */
export function gameSeconds(agents: readonly string[]): number {
  return agents.reduce((sum, text) => sum + agentSeconds(text, agents.length), baseGameSeconds(agents.length));
}

/**
 * A game's thread CPU time (the lab's own measure: /proc/thread-self/schedstat around each game,
 * summed per sweep as its provenance's cpuSeconds) over gameSeconds. Measured on the 2-core dev
 * machine, one game thread, 8 random-board deals each: mcts:100,10,100 vs two rulebased 0.37,
 * mcts(it=500) 0.38, mcts(it=250,playout=rulebased,opp=same) 0.34, mcts-strong(it=250) 0.41,
 * mcts(it=100) at 5 players 0.36, mcts-robilliard (it=1000) vs two rulebased-robilliard-notrade
 * 0.38, mcts(it=250,depth=4) 0.26; issue 43's idle lab 0.37 and 0.36 (67.5 CPU-s for "about 3
 * min", 237 for "about 11"). Rounded up: an estimate a little high rather than low.
 */
export const CPU_SHARE = 0.4;

/** Expected CPU seconds of one game between these agents: what it costs, not the bound limits use. */
export function expectedCpuSeconds(agents: readonly string[]): number {
  return gameSeconds(agents) * CPU_SHARE;
}

/** A sweep is cut into at least this many jobs, so that a small sweep still spreads over the workers. */
export const MIN_JOBS_PER_SWEEP = 16;

/**
 * Positions of a sweep's order per queue job: about `seconds` of play at the mean estimated cost of
 * its cells' games, at least 1, at most `max`, and small enough to make MIN_JOBS_PER_SWEEP jobs of
 * the sweep's `size` games. A job's fixed cost (about a millisecond of queue and Redis round trips)
 * is then small beside its games: cheap games go in hundreds, MCTS games one by one.
 */
export function batchSize(cells: readonly { agents: readonly string[] }[], size: number, seconds: number, max: number): number {
  if (cells.length === 0 || seconds <= 0) return 1;
  const mean = cells.reduce((sum, cell) => sum + gameSeconds(cell.agents), 0) / cells.length;
  return Math.max(1, Math.min(max, Math.ceil(size / MIN_JOBS_PER_SWEEP), Math.floor(seconds / mean)));
}
