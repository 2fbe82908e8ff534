/**
 * Bradley–Terry ratings of agent configurations from the finishing orders of multi-player games.
 *
 * Model: configuration i has strength θ_i, and of two seats at the same table the one of i scores
 * more VP than the one of j with probability σ(θ_i − θ_j); a VP tie counts half to each. A game of
 * k seats gives every pair of seats with different configurations (its finishing order broken into
 * pairs: "rank breaking"). Maximizing the likelihood of all those pairs is the composite-likelihood
 * fit of the game's order; for orders drawn from a Plackett–Luce model it is consistent (Azari
 * Soufiani, Chen, Parkes & Xia, "Generalized Method-of-Moments for Rank Aggregation", NeurIPS 2013).
 * The pairs of one game are not independent, so the intervals are not the model's (inverse
 * information): they are the sandwich H⁻¹ J H⁻¹ with J summed per game (errors clustered by game),
 * which holds whether or not the model is right.
 *
 * Each pair of configurations that met gets one virtual drawn comparison (as BayesElo's prior of
 * virtual draws does), so that a configuration that won every comparison still has a finite
 * rating; with hundreds of games per pair it moves a rating by well under a point.
 *
 * Ratings are on the Elo scale (400 / ln 10 points per unit of θ: a 400-point gap is 10 : 1 odds)
 * and identifiable only up to a constant within a connected set of configurations (one that met,
 * directly or through others): each such component is centred on its mean.
 */
import { connectedComponents } from './graph.js';
import { cholesky, choleskyInverse, solveSpd, zeros, type Matrix } from './linear.js';
import { Z95 } from './stats.js';

/** Elo points per unit of θ (natural log-odds). */
export const ELO_PER_NAT = 400 / Math.LN10;

/** Virtual drawn comparisons per pair of configurations that met (the prior). */
export const VIRTUAL_DRAWS = 1;

/** One finishing order and how many games ended in it: seats' configurations, best VP first, VP ties grouped. */
export interface Ranking {
  groups: number[][];
  count: number;
}

export interface BradleyTerryFit {
  /** θ per configuration (natural units), centred within its component; NaN when it was never compared. */
  theta: number[];
  /** Covariance of θ_i and θ_j (sandwich, clustered by game) within a component; NaN across components. */
  covariance(i: number, j: number): number;
  /** Component of each configuration (configurations compared directly or through others share one). */
  component: number[];
  /** Comparisons (seat pairs with a different configuration) and games each configuration took part in. */
  comparisons: number[];
  games: number[];
  /** Newton iterations used (the most of any component). */
  iterations: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The local order of a component's configurations: fewest partners first, so that the
 * best-connected (a sweep's common opponent, which met everyone) comes last — held at θ = 0 by the
 * Newton steps and factored last, which keeps the matrices' envelope narrow (see linear.ts).
 */
export function localOrder(idx: readonly number[], partners: (i: number) => number): number[] {
  return [...idx].sort((x, y) => partners(x) - partners(y) || x - y);
}

/**
 * Newton's method for a concave log-likelihood invariant to adding a constant to every θ: the
 * last θ is held at 0 and each step solves the other k − 1 rows of H s = g (positive definite
 * in a connected component), one Cholesky factorization a step; halved steps keep the
 * log-likelihood rising. Returns θ centred on its mean.
 */
export function newtonFixedLast(k: number, evaluate: (th: Float64Array) => { ll: number; grad: Float64Array; info: Matrix }, maxIterations = 200): { theta: Float64Array; iterations: number } {
  let th = new Float64Array(k);
  let now = evaluate(th);
  let iterations = 0;
  for (let it = 1; it <= maxIterations; it++) {
    iterations = it;
    const step = new Float64Array(k);
    step.set(solveSpd(reduced(now.info), now.grad.subarray(0, k - 1)));
    let scale = 1;
    let next = th.map((x, a) => x + step[a]);
    let after = evaluate(next);
    while (after.ll < now.ll - 1e-12 && scale > 1e-6) {
      scale /= 2;
      next = th.map((x, a) => x + scale * step[a]);
      after = evaluate(next);
    }
    th = next;
    now = after;
    let largest = 0;
    for (const x of step) largest = Math.max(largest, Math.abs(scale * x));
    if (largest < 1e-10) break;
  }
  const mean = th.reduce((s, x) => s + x, 0) / k;
  return { theta: th.map((x) => x - mean), iterations };
}

/** The matrix without its last row and column. */
function reduced(H: Matrix): Matrix {
  const n = H.n - 1;
  const out = zeros(n);
  for (let i = 0; i < n; i++) out.data.set(H.data.subarray(i * H.n, i * H.n + n), i * n);
  return out;
}

/**
 * The covariance of centred θ, entry by entry. R̃ is the inverse of the information with the last
 * θ held at 0 (zero last row and column), a generalized inverse of H; with C the centring
 * I − 11ᵀ/k, H⁺ = C R̃ C (the model's covariance), and with the meat J of the sandwich (each
 * game's score sums to zero, so C J C = J) V = C R̃ J R̃ C. An entry costs O(k) and the whole
 * matrix is never formed: the ratings need its diagonal and one column. J is sparse (a game links
 * at most its seats), so J R̃ costs O(nnz(J) · k).
 */
export function centredCovariance(H: Matrix, J?: Matrix, scale = 1): (a: number, b: number) => number {
  const k = H.n;
  const inner = choleskyInverse(cholesky(reduced(H)));
  const R = zeros(k);
  for (let i = 0; i < k - 1; i++) R.data.set(inner.data.subarray(i * (k - 1), (i + 1) * (k - 1)), i * k);
  const r = R.data;
  let entry = (a: number, b: number) => r[a * k + b];
  if (J) {
    const JR = new Float64Array(k * k);
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < k; b++) {
        const jab = J.data[a * k + b];
        if (jab === 0) continue;
        for (let c = 0; c < k; c++) JR[a * k + c] += jab * r[b * k + c];
      }
    }
    entry = (a, b) => {
      let s = 0;
      for (let c = 0; c < k; c++) s += r[a * k + c] * JR[c * k + b];
      return s;
    };
  }
  // Row sums of the uncentred matrix — R̃ 1, or R̃ J R̃ 1 = R̃ (J (R̃ 1)) — for the centring.
  const rowSums = (M: Float64Array, v: Float64Array) => {
    const out = new Float64Array(k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) out[a] += M[a * k + b] * v[b];
    return out;
  };
  let sums = rowSums(r, new Float64Array(k).fill(1));
  if (J) sums = rowSums(r, rowSums(J.data, sums));
  const rowMean = sums.map((x) => x / k);
  const mean = rowMean.reduce((s, x) => s + x, 0) / k;
  return (a, b) => (entry(a, b) - rowMean[a] - rowMean[b] + mean) * scale;
}

export function fitBradleyTerry(m: number, rankings: readonly Ranking[], virtualDraws = VIRTUAL_DRAWS): BradleyTerryFit {
  // Pair statistics of the pairs that met (a sparse map: most pairs of a large sweep never meet):
  // comparisons, and points of the lower-numbered configuration.
  const pairs = new Map<number, { i: number; j: number; n: number; w: number }>();
  const comparisons = new Array<number>(m).fill(0);
  const games = new Array<number>(m).fill(0);
  const seats = rankings.map((r) => r.groups.flatMap((g, place) => g.map((config) => ({ config, place }))));
  rankings.forEach((r, t) => {
    const s = seats[t];
    for (const c of new Set(s.map((x) => x.config))) games[c] += r.count;
    for (let p = 0; p < s.length; p++) {
      for (let q = p + 1; q < s.length; q++) {
        let [i, j] = [s[p].config, s[q].config];
        if (i === j) continue;
        // Points of s[p] against s[q]: it placed no worse (better, or tied for half).
        let points = s[p].place === s[q].place ? 0.5 : 1;
        if (j < i) [i, j, points] = [j, i, 1 - points];
        let pair = pairs.get(i * m + j);
        if (!pair) pairs.set(i * m + j, (pair = { i, j, n: 0, w: 0 }));
        pair.n += r.count;
        pair.w += points * r.count;
        comparisons[i] += r.count;
        comparisons[j] += r.count;
      }
    }
  });

  // Components of the comparison graph.
  const adjacency = Array.from({ length: m }, () => [] as number[]);
  for (const { i, j } of pairs.values()) adjacency[i].push(j), adjacency[j].push(i);
  const { theta, covariance, component, iterations } = fitComponents(m, (i) => adjacency[i], (idx, localOf, component) => {
    const k = idx.length;
    // The component's pairs with the virtual draws: a, b local; N comparisons; W points of a.
    const edges = [...pairs.values()].filter((p) => component[p.i] === component[idx[0]]).map((p) => ({ a: localOf[p.i], b: localOf[p.j], N: p.n + virtualDraws, W: p.w + virtualDraws / 2 }));
    const evaluate = (th: Float64Array) => {
      let ll = 0;
      const grad = new Float64Array(k);
      const info = zeros(k);
      for (const { a, b, N, W } of edges) {
        const p = sigmoid(th[a] - th[b]);
        ll += W * Math.log(p) + (N - W) * Math.log(1 - p);
        grad[a] += W - N * p;
        grad[b] -= W - N * p;
        const v = N * p * (1 - p);
        info.data[a * k + a] += v;
        info.data[b * k + b] += v;
        info.data[a * k + b] -= v;
        info.data[b * k + a] -= v;
      }
      return { ll, grad, info };
    };
    const fit = newtonFixedLast(k, evaluate);
    const th = fit.theta;

    // Sandwich: H⁺ J H⁺, J the sum over games of each game's score outer product.
    const J = zeros(k);
    let clusters = 0;
    rankings.forEach((r, t) => {
      const s = seats[t];
      if (!s.some((x) => component[x.config] === component[idx[0]])) return;
      const score = new Map<number, number>();
      for (let p = 0; p < s.length; p++) {
        for (let q = p + 1; q < s.length; q++) {
          const [i, j] = [s[p].config, s[q].config];
          if (i === j) continue;
          const [a, b] = [localOf[i], localOf[j]];
          const y = s[p].place === s[q].place ? 0.5 : 1;
          const e = y - sigmoid(th[a] - th[b]);
          score.set(a, (score.get(a) ?? 0) + e);
          score.set(b, (score.get(b) ?? 0) - e);
        }
      }
      if (score.size === 0) return;
      clusters += r.count;
      for (const [a, sa] of score) for (const [b, sb] of score) J.data[a * k + b] += r.count * sa * sb;
    });
    const small = clusters > 1 ? clusters / (clusters - 1) : NaN;
    return { theta: th, covariance: centredCovariance(evaluate(th).info, J, small), iterations: fit.iterations };
  });
  return { theta, covariance, component, comparisons, games, iterations };
}

/** One connected component's fit: θ and its covariance by local number, and Newton's steps. */
export interface ComponentFit {
  theta: ArrayLike<number>;
  covariance: (a: number, b: number) => number;
  iterations: number;
}

/**
 * Fits each connected component of the comparison graph on its own and gathers θ and the
 * covariance by configuration: θ of different components have no common scale (their covariance
 * is NaN; a lone configuration's θ too). Each component's members are numbered fewest partners
 * first (localOrder), so that a star's Cholesky factor has no fill; `fit` gets the members, each
 * configuration's local number and the component of every configuration.
 */
export function fitComponents(
  m: number,
  partners: (i: number) => readonly number[] | ReadonlySet<number>,
  fit: (members: readonly number[], localOf: readonly number[], component: readonly number[]) => ComponentFit,
): { theta: number[]; covariance: (i: number, j: number) => number; component: number[]; iterations: number } {
  const { component, members } = connectedComponents(m, partners);
  const theta = new Array<number>(m).fill(NaN);
  const local: ((a: number, b: number) => number)[] = [];
  const localOf = new Array<number>(m).fill(-1);
  const degree = (i: number) => {
    const p = partners(i);
    return 'size' in p ? p.size : p.length;
  };
  let iterations = 0;
  for (const idx of members) {
    if (idx.length < 2) continue;
    localOrder(idx, degree).forEach((i, a) => (localOf[i] = a));
    const f = fit(idx, localOf, component);
    iterations = Math.max(iterations, f.iterations);
    local[component[idx[0]]] = f.covariance;
    idx.forEach((i) => (theta[i] = f.theta[localOf[i]]));
  }
  const covariance = (i: number, j: number) => {
    const c = component[i];
    if (c !== component[j] || !local[c]) return NaN;
    return local[c](localOf[i], localOf[j]);
  };
  return { theta, covariance, component, iterations };
}

export interface Rating {
  /** The configuration as the sweep names it. */
  config: string;
  /** Elo points: centred on the mean of its component, or on the anchor. */
  elo: number;
  /** 95 % interval (sandwich, clustered by game). */
  low: number;
  high: number;
  se: number;
  /** Games it played, and seat pairs against a different configuration. */
  games: number;
  comparisons: number;
  component: number;
}

export interface Ratings {
  method: string;
  /** What 0 is: the mean of each component, or the anchor configuration. */
  anchor: string;
  /** Games with at least two different configurations at the table. */
  games: number;
  components: number;
  /** Best first. */
  ratings: Rating[];
}

const BRADLEY_TERRY_METHOD = `Bradley–Terry on every pair of seats with different configurations (VP ties half), ${VIRTUAL_DRAWS} virtual drawn comparison per pair that met; 95 % intervals from the sandwich variance clustered by game`;

/**
 * Elo ratings from a fit: centred on each component's mean, or with `anchor` at 0 (its interval
 * then 0 to 0, and every other interval that of the difference from it).
 */
export function eloRatings(configs: readonly string[], fit: BradleyTerryFit, games: number, anchor?: string, method = BRADLEY_TERRY_METHOD): Ratings {
  const a = anchor === undefined ? -1 : configs.indexOf(anchor);
  if (anchor !== undefined && a < 0) throw new RangeError(`no configuration '${anchor}' among ${configs.join(', ')}`);
  const rows = configs.map((config, i): Rating => {
    const sameComponent = a >= 0 && fit.component[a] === fit.component[i];
    const theta = sameComponent ? fit.theta[i] - fit.theta[a] : fit.theta[i];
    const variance = sameComponent ? fit.covariance(i, i) + fit.covariance(a, a) - 2 * fit.covariance(i, a) : fit.covariance(i, i);
    const se = Math.sqrt(Math.max(0, variance)) * ELO_PER_NAT;
    const elo = theta * ELO_PER_NAT;
    return { config, elo, low: elo - Z95 * se, high: elo + Z95 * se, se, games: fit.games[i], comparisons: fit.comparisons[i], component: fit.component[i] };
  });
  const compared = new Set(rows.filter((r) => r.comparisons > 0).map((r) => r.component));
  return {
    method,
    anchor: a >= 0 ? configs[a] : 'the mean of each component',
    games,
    components: compared.size,
    ratings: rows.sort((x, y) => (Number.isNaN(x.elo) ? 1 : Number.isNaN(y.elo) ? -1 : y.elo - x.elo)),
  };
}
