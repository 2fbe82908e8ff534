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
import { inverse, solve } from './linear.js';
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
  /** Covariance of θ (sandwich, clustered by game), within components; NaN across them. */
  cov: number[][];
  /** Component of each configuration (configurations compared directly or through others share one). */
  component: number[];
  /** Comparisons (seat pairs with a different configuration) and games each configuration took part in. */
  comparisons: number[];
  games: number[];
  /** Newton iterations used (the most of any component). */
  iterations: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const matmul = (A: number[][], B: number[][]) => A.map((row) => B[0].map((_, j) => row.reduce((s, a, k) => s + a * B[k][j], 0)));

export function fitBradleyTerry(m: number, rankings: readonly Ranking[], virtualDraws = VIRTUAL_DRAWS): BradleyTerryFit {
  // Pair statistics: n[i][j] comparisons, w[i][j] points of i against j.
  const n = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const w = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const comparisons = new Array<number>(m).fill(0);
  const games = new Array<number>(m).fill(0);
  const seats = rankings.map((r) => r.groups.flatMap((g, place) => g.map((config) => ({ config, place }))));
  rankings.forEach((r, t) => {
    const s = seats[t];
    for (const c of new Set(s.map((x) => x.config))) games[c] += r.count;
    for (let p = 0; p < s.length; p++) {
      for (let q = p + 1; q < s.length; q++) {
        const [i, j] = [s[p].config, s[q].config];
        if (i === j) continue;
        n[i][j] += r.count;
        n[j][i] += r.count;
        comparisons[i] += r.count;
        comparisons[j] += r.count;
        if (s[p].place === s[q].place) {
          w[i][j] += r.count / 2;
          w[j][i] += r.count / 2;
        } else w[i][j] += r.count;
      }
    }
  });

  // Components of the comparison graph.
  const linked = (i: number) => [...n[i].keys()].filter((j) => n[i][j] > 0);
  const { component, members } = connectedComponents(m, linked);

  const theta = new Array<number>(m).fill(NaN);
  const cov = Array.from({ length: m }, () => new Array<number>(m).fill(NaN));
  let iterations = 0;
  for (const idx of members) {
    if (idx.length < 2) continue;
    const k = idx.length;
    // Pair data of the component with the virtual draws.
    const N = idx.map((i) => idx.map((j) => (n[i][j] > 0 ? n[i][j] + virtualDraws : 0)));
    const W = idx.map((i) => idx.map((j) => (n[i][j] > 0 ? w[i][j] + virtualDraws / 2 : 0)));
    const loglik = (th: number[]) => {
      let ll = 0;
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) if (W[a][b] > 0) ll += W[a][b] * Math.log(sigmoid(th[a] - th[b]));
      return ll;
    };
    const information = (th: number[]) =>
      th.map((_, a) =>
        th.map((__, b) => {
          if (a !== b) return -N[a][b] * sigmoid(th[a] - th[b]) * sigmoid(th[b] - th[a]);
          let s = 0;
          for (let o = 0; o < k; o++) if (o !== a) s += N[a][o] * sigmoid(th[a] - th[o]) * sigmoid(th[o] - th[a]);
          return s;
        }),
      );
    // Newton's method with θ of the component's first configuration held at 0; halved steps keep
    // the (concave) log-likelihood rising.
    let th = new Array<number>(k).fill(0);
    let ll = loglik(th);
    for (let it = 1; it <= 200; it++) {
      iterations = Math.max(iterations, it);
      const grad = th.map((_, a) => {
        let g = 0;
        for (let b = 0; b < k; b++) if (b !== a) g += W[a][b] - N[a][b] * sigmoid(th[a] - th[b]);
        return g;
      });
      const info = information(th);
      const step = [0, ...solve(info.slice(1).map((row) => row.slice(1)), grad.slice(1))];
      let scale = 1;
      let next = th.map((x, a) => x + step[a]);
      let nextLl = loglik(next);
      while (nextLl < ll - 1e-12 && scale > 1e-6) {
        scale /= 2;
        next = th.map((x, a) => x + scale * step[a]);
        nextLl = loglik(next);
      }
      th = next;
      ll = nextLl;
      if (Math.max(...step.map((x) => Math.abs(scale * x))) < 1e-10) break;
    }
    const mean = th.reduce((s, x) => s + x, 0) / k;
    th = th.map((x) => x - mean);

    // Sandwich: H⁺ J H⁺, J the sum over games of each game's score outer product. H's null space
    // is the constant vector, so H⁺ = (H + P)⁻¹ − P with P the projection on it.
    const H = information(th);
    const P = 1 / k;
    const Hplus = inverse(H.map((row, a) => row.map((x, b) => x + P))).map((row) => row.map((x) => x - P));
    const local = new Map(idx.map((i, a) => [i, a]));
    const J = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    let clusters = 0;
    rankings.forEach((r, t) => {
      const s = seats[t];
      if (!s.some((x) => local.has(x.config))) return;
      const score = new Array<number>(k).fill(0);
      let any = false;
      for (let p = 0; p < s.length; p++) {
        for (let q = p + 1; q < s.length; q++) {
          const [i, j] = [s[p].config, s[q].config];
          if (i === j) continue;
          const [a, b] = [local.get(i)!, local.get(j)!];
          const y = s[p].place === s[q].place ? 0.5 : 1;
          const e = y - sigmoid(th[a] - th[b]);
          score[a] += e;
          score[b] -= e;
          any = true;
        }
      }
      if (!any) return;
      clusters += r.count;
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) J[a][b] += r.count * score[a] * score[b];
    });
    const V = matmul(matmul(Hplus, J), Hplus);
    const small = clusters > 1 ? clusters / (clusters - 1) : NaN;
    idx.forEach((i, a) => {
      theta[i] = th[a];
      idx.forEach((j, b) => (cov[i][j] = V[a][b] * small));
    });
  }
  return { theta, cov, component, comparisons, games, iterations };
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
    const variance = sameComponent ? fit.cov[i][i] + fit.cov[a][a] - 2 * fit.cov[i][a] : fit.cov[i][i];
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
