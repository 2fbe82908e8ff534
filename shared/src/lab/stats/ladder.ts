/**
 * One rating ladder over every sweep: each agent configuration (its canonical spec) rated from the
 * full finishing order of every recorded game, on an Elo-like scale.
 *
 * Batch fit — Plackett–Luce: configuration i has strength γ_i = e^θ_i, and a finishing order is
 * built best first, each place going to one of the seats still unplaced with probability
 * proportional to its γ. A VP tie of several seats is taken together (Breslow's approximation:
 * each tied seat is drawn from the same remaining set). Each pair of configurations that met also
 * gets one virtual drawn game between the two (as the pairwise ratings do), so a configuration that
 * always won keeps a finite rating. θ is fitted by Newton's method; its covariance is the inverse of
 * the information (games are independent), and ratings are reported with `eloRatings` (anchor at 0).
 *
 * There are no online (game-by-game) ratings beside it: the lab keeps finishing orders as counts,
 * not in the order the games were played, and an online update fed counts depends on the order it
 * is fed them — the openskill ratings shown before contradicted the fit (issue 43).
 */
import { zeros } from './linear.js';
import { centredCovariance, fitComponents, newtonFixedLast, type BradleyTerryFit, type Ranking } from './ratings.js';

/** How the ladder's batch fit is made, as its ratings say. */
export const PLACKETT_LUCE_METHOD = "Plackett–Luce on full finishing orders (VP ties by Breslow's approximation), one virtual drawn game per pair that met; 95 % intervals from the information";

/** Virtual drawn games per pair of configurations that met. */
const VIRTUAL_GAMES = 1;

/** The stages of a finishing order: at each, the seats placed together and the seats still unplaced. */
function stages(groups: readonly (readonly number[])[]): { chosen: readonly number[]; remaining: number[] }[] {
  const out: { chosen: readonly number[]; remaining: number[] }[] = [];
  for (let t = 0; t < groups.length; t++) {
    const remaining = groups.slice(t).flat();
    if (remaining.length > 1) out.push({ chosen: groups[t], remaining });
  }
  return out;
}

/** Plackett–Luce fit of `m` configurations to finishing orders (see the module's comment). */
export function fitPlackettLuce(m: number, rankings: readonly Ranking[]): BradleyTerryFit {
  const games = new Array<number>(m).fill(0);
  const comparisons = new Array<number>(m).fill(0);
  const met = new Set<string>();
  const data: { count: number; stages: ReturnType<typeof stages> }[] = [];
  for (const r of rankings) {
    const seats = r.groups.flat();
    if (new Set(seats).size < 2) continue;
    for (const c of new Set(seats)) games[c] += r.count;
    for (let p = 0; p < seats.length; p++) {
      for (let q = p + 1; q < seats.length; q++) {
        if (seats[p] === seats[q]) continue;
        comparisons[seats[p]] += r.count;
        comparisons[seats[q]] += r.count;
        met.add(seats[p] < seats[q] ? `${seats[p]},${seats[q]}` : `${seats[q]},${seats[p]}`);
      }
    }
    data.push({ count: r.count, stages: stages(r.groups) });
  }
  // The virtual drawn game of each pair that met: half a game won by each.
  for (const pair of met) {
    const [i, j] = pair.split(',').map(Number);
    data.push({ count: VIRTUAL_GAMES / 2, stages: stages([[i], [j]]) }, { count: VIRTUAL_GAMES / 2, stages: stages([[j], [i]]) });
  }

  // Components: configurations linked by games.
  const adjacency = Array.from({ length: m }, () => new Set<number>());
  for (const pair of met) {
    const [i, j] = pair.split(',').map(Number);
    adjacency[i].add(j);
    adjacency[j].add(i);
  }
  const { theta, covariance, component, iterations } = fitComponents(m, (i) => adjacency[i], (idx, localOf, component) => {
    const k = idx.length;
    const mine = data.filter((d) => component[d.stages[0]?.remaining[0] ?? -1] === component[idx[0]]);
    const evaluate = (th: Float64Array) => {
      const grad = new Float64Array(k);
      const info = zeros(k);
      let ll = 0;
      for (const { count, stages: st } of mine) {
        for (const { chosen, remaining } of st) {
          const rs = remaining.map((i) => localOf[i]);
          let max = -Infinity;
          for (const a of rs) max = Math.max(max, th[a]);
          const weights = rs.map((a) => Math.exp(th[a] - max));
          const total = weights.reduce((s, x) => s + x, 0);
          const p = weights.map((x) => x / total);
          const g = chosen.length;
          for (const i of chosen) {
            grad[localOf[i]] += count;
            ll += count * th[localOf[i]];
          }
          ll -= count * g * (max + Math.log(total));
          rs.forEach((a, x) => {
            grad[a] -= count * g * p[x];
            rs.forEach((b, y) => (info.data[a * k + b] += count * g * ((x === y ? p[x] : 0) - p[x] * p[y])));
          });
        }
      }
      return { grad, info, ll };
    };
    const fit = newtonFixedLast(k, evaluate);
    // Covariance: the information's pseudo-inverse (its null space is the constant vector).
    return { theta: fit.theta, covariance: centredCovariance(evaluate(fit.theta).info), iterations: fit.iterations };
  });
  return { theta, covariance, component, comparisons, games, iterations };
}
