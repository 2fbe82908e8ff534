/**
 * NTBEA, the N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu & Perez-Liebana 2018, "The N-Tuple
 * Bandit Evolutionary Algorithm for Game Agent Optimisation", CEC), for discrete and mixed spaces:
 * as TAG runs it (GAIGResearch/TabletopGames, evaluation/optimisation/ntbea: NTupleSystem,
 * NTupleBanditEA). Each dimension has a list of values (space.ts: a choice's values, or listed
 * numbers); a point is one value index per dimension.
 *
 * The model keeps, for every tuple of dimensions it models, the mean value of the evaluations of
 * each setting of those dimensions: all 1-tuples, all 2-tuples (`pairs`, on by default, as TAG's),
 * and the whole point (`whole`, off by default). A point's estimate is the mean over the tuples
 * whose setting has been seen of that setting's mean; its exploration term is the mean over tuples
 * of sqrt(ln((1 + N) / (ε + n))), N the evaluations so far and n those of the tuple's setting
 * (0 when unseen), with TAG's ε = 0.1; UCB = estimate + k·exploration, k = 1 for values in [0, 1]
 * (TAG's default). Each step evaluates the current point, then draws a neighbourhood of
 * max(5, min(50, |space|/4)) mutants — each dimension changed to another value with probability
 * 1/dimensions, one changed at least — and moves to the mutant of highest UCB (the first of equals).
 *
 * Our choices: the search starts at the base agent's own values (TAG starts at a random point), so
 * that the known configuration is evaluated first; a point's value is the mean of its evaluation's
 * games (a batch played on the cluster); the recommendation is the evaluated point of best
 * estimate, without exploration (TAG's "best sampled"), whose value the tune's confirmation then
 * measures on held-out deals. The mutations of step t draw from a generator seeded by the tune's
 * seed and t, so replayNtbea rebuilds the state from the recorded evaluations.
 */
import { Rng } from '../../engine/index.js';

export const NTBEA_EPSILON = 0.1;
export const NTBEA_K = 1;

export interface NtbeaConfig {
  /** Values per dimension. */
  sizes: readonly number[];
  /** The first point (value indices). */
  start: readonly number[];
  /** Model every pair of dimensions (default true). */
  pairs?: boolean;
  /** Model the whole point too (default false). */
  whole?: boolean;
  /** Exploration factor k (default 1). */
  k?: number;
  seed: string;
}

interface Cell {
  n: number;
  sum: number;
}

export interface NtbeaState {
  /** The tuples modelled (dimension lists) and each one's cells by setting. */
  tuples: number[][];
  cells: Map<string, Cell>[];
  /** Evaluations so far. */
  evaluations: number;
  /** The point to evaluate next. */
  current: number[];
  /** Every point evaluated, in order, with its value. */
  history: { point: number[]; value: number }[];
}

function tuplesOf(config: NtbeaConfig): number[][] {
  const d = config.sizes.length;
  const out: number[][] = [];
  for (let i = 0; i < d; i++) out.push([i]);
  if (config.pairs ?? true) for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) out.push([i, j]);
  if ((config.whole ?? false) && d > 2) out.push([...Array(d).keys()]);
  return out;
}

const settingOf = (tuple: readonly number[], point: readonly number[]) => tuple.map((i) => point[i]).join(',');

export function startNtbea(config: NtbeaConfig): NtbeaState {
  if (config.sizes.length === 0 || config.sizes.some((s) => !(Number.isInteger(s) && s >= 2))) throw new RangeError('NTBEA needs dimensions of two values or more');
  config.start.forEach((v, i) => {
    if (!(Number.isInteger(v) && v >= 0 && v < config.sizes[i])) throw new RangeError(`NTBEA's start: dimension ${i} has no value ${v}`);
  });
  const tuples = tuplesOf(config);
  return { tuples, cells: tuples.map(() => new Map()), evaluations: 0, current: [...config.start], history: [] };
}

/** A point's estimate (mean over the seen tuple settings) and exploration term. */
export function ntbeaEstimate(state: NtbeaState, point: readonly number[]): { mean: number; explore: number; seen: number } {
  let sum = 0;
  let seen = 0;
  let explore = 0;
  state.tuples.forEach((tuple, t) => {
    const cell = state.cells[t].get(settingOf(tuple, point));
    if (cell && cell.n > 0) {
      sum += cell.sum / cell.n;
      seen++;
    }
    explore += Math.sqrt(Math.log((1 + state.evaluations) / (NTBEA_EPSILON + (cell?.n ?? 0))));
  });
  return { mean: seen > 0 ? sum / seen : 0, explore: explore / state.tuples.length, seen };
}

/** The space's size, capped (only its order matters for the neighbourhood). */
function spaceSize(sizes: readonly number[]): number {
  return sizes.reduce((a, s) => Math.min(1e9, a * s), 1);
}

/** Records the current point's value (in [0, 1]) and moves to the best mutant by UCB. */
export function observeNtbea(config: NtbeaConfig, state: NtbeaState, value: number): NtbeaState {
  const point = state.current;
  const cells = state.cells.map((m) => new Map(m));
  state.tuples.forEach((tuple, t) => {
    const key = settingOf(tuple, point);
    const c = cells[t].get(key) ?? { n: 0, sum: 0 };
    cells[t].set(key, { n: c.n + 1, sum: c.sum + value });
  });
  const next: NtbeaState = { ...state, cells, evaluations: state.evaluations + 1, history: [...state.history, { point: [...point], value }] };
  const rng = new Rng(`${config.seed}:ntbea:${next.evaluations}`);
  const d = config.sizes.length;
  const neighbours = Math.max(5, Math.min(50, Math.floor(spaceSize(config.sizes) / 4)));
  const k = config.k ?? NTBEA_K;
  let best: number[] | undefined;
  let bestUcb = -Infinity;
  for (let m = 0; m < neighbours; m++) {
    const mutant = [...point];
    let changed = false;
    for (let i = 0; i < d; i++) {
      if (rng.float() < 1 / d) {
        mutant[i] = (point[i] + 1 + rng.int(config.sizes[i] - 1)) % config.sizes[i];
        changed = true;
      }
    }
    if (!changed) {
      const i = rng.int(d);
      mutant[i] = (point[i] + 1 + rng.int(config.sizes[i] - 1)) % config.sizes[i];
    }
    const e = ntbeaEstimate(next, mutant);
    const ucb = e.mean + k * e.explore;
    if (ucb > bestUcb) {
      bestUcb = ucb;
      best = mutant;
    }
  }
  return { ...next, current: best! };
}

/** The evaluated point of best estimate (no exploration), with its estimate and evaluations. */
export function recommendNtbea(state: NtbeaState): { point: number[]; estimate: number; evaluations: number } | undefined {
  let out: { point: number[]; estimate: number; evaluations: number } | undefined;
  const done = new Set<string>();
  for (const { point } of state.history) {
    const key = point.join(',');
    if (done.has(key)) continue;
    done.add(key);
    const estimate = ntbeaEstimate(state, point).mean;
    if (!out || estimate > out.estimate) out = { point, estimate, evaluations: state.history.filter((h) => h.point.join(',') === key).length };
  }
  return out;
}

/** The state after the recorded values, in their recorded order. */
export function replayNtbea(config: NtbeaConfig, values: readonly number[]): NtbeaState {
  return values.reduce((state, v) => observeNtbea(config, state, v), startNtbea(config));
}
