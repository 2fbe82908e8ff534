/**
 * Bradley–Terry ratings (src/lab/stats/ratings.ts) and the head-to-head matrix of a sweep
 * (sweep-statistics.ts): closed forms where there are any, recovery and interval coverage on
 * simulated Plackett–Luce games, and agreement with the raw games of a played sweep.
 */
import { describe, expect, it } from 'vitest';
import { canonicalSpec, parseAgentSpec } from '../src/agents/index.js';
import { Rng } from '../src/engine/index.js';
import {
  AggregateFold,
  ELO_PER_NAT,
  HeadToHead,
  Sweep,
  VIRTUAL_DRAWS,
  eloRatings,
  fitBradleyTerry,
  parseSweepSpec,
  placementOf,
  playGame,
  sweepStatistics,
  type GameSummary,
  type Ranking,
} from '../src/lab/index.js';

const Z95 = 1.959963984540054;

describe('Bradley–Terry fit', () => {
  it('two configurations, one comparison a game: the log-odds of the (prior-adjusted) share, and the sandwich variance', () => {
    const [w, n] = [70, 100];
    const rankings: Ranking[] = [
      { groups: [[0], [1]], count: w },
      { groups: [[1], [0]], count: n - w },
    ];
    const fit = fitBradleyTerry(2, rankings);
    const p = (w + VIRTUAL_DRAWS / 2) / (n + VIRTUAL_DRAWS);
    expect(fit.theta[0] - fit.theta[1]).toBeCloseTo(Math.log(p / (1 - p)), 9);
    expect(fit.theta[0] + fit.theta[1]).toBeCloseTo(0, 12);
    // var(θ0 − θ1) = Σ(y − p)² / (H)² · G/(G − 1), H = (n + prior) p (1 − p).
    const J = w * (1 - p) ** 2 + (n - w) * p ** 2;
    const H = (n + VIRTUAL_DRAWS) * p * (1 - p);
    const variance = fit.covariance(0, 0) + fit.covariance(1, 1) - 2 * fit.covariance(0, 1);
    expect(variance).toBeCloseTo((J / H ** 2) * (n / (n - 1)), 9);
    expect(fit.games).toEqual([n, n]);
    expect(fit.comparisons).toEqual([n, n]);
  });

  it('a star of 300 configurations, each met only by a common opponent: every gap and its variance are those of its own pair alone', () => {
    // On a tree the likelihood factors edge by edge in the differences, so each configuration's gap
    // to the hub is its pair's (prior-adjusted) log-odds, and the sandwich variance of that gap
    // the two-configuration closed form — the large fit must give the same numbers as the small.
    const m = 301;
    const rankings: Ranking[] = [];
    for (let i = 1; i < m; i++) {
      rankings.push({ groups: [[i], [0]], count: 20 + (i % 13) }, { groups: [[0], [i]], count: 15 + (i % 7) });
    }
    const fit = fitBradleyTerry(m, rankings);
    for (const i of [1, 2, 150, 300]) {
      const pair = fitBradleyTerry(2, [
        { groups: [[1], [0]], count: 20 + (i % 13) },
        { groups: [[0], [1]], count: 15 + (i % 7) },
      ]);
      expect(fit.theta[i] - fit.theta[0]).toBeCloseTo(pair.theta[1] - pair.theta[0], 9);
      const gap = fit.covariance(i, i) + fit.covariance(0, 0) - 2 * fit.covariance(i, 0);
      const pairGap = pair.covariance(1, 1) + pair.covariance(0, 0) - 2 * pair.covariance(1, 0);
      // The pair's small-sample factor counts its own games, the star's every game.
      const games = 35 + (i % 13) + (i % 7);
      const total = rankings.reduce((s, r) => s + r.count, 0);
      expect(gap / (total / (total - 1))).toBeCloseTo(pairGap / (games / (games - 1)), 9);
    }
    expect(fit.theta.reduce((s, x) => s + x, 0)).toBeCloseTo(0, 9);
  });

  it('a configuration that won every comparison still has a finite rating, above the other', () => {
    const fit = fitBradleyTerry(2, [{ groups: [[0], [1]], count: 50 }]);
    expect(Number.isFinite(fit.theta[0])).toBe(true);
    expect(fit.theta[0]).toBeGreaterThan(fit.theta[1]);
    expect(fit.theta[0] - fit.theta[1]).toBeCloseTo(Math.log(50.5 / 0.5), 6);
  });

  it('configurations that never met, directly or through others, are rated within their own component', () => {
    const fit = fitBradleyTerry(5, [
      { groups: [[0], [1]], count: 30 },
      { groups: [[1], [0]], count: 10 },
      { groups: [[3], [2]], count: 20 },
      { groups: [[2], [3]], count: 20 },
    ]);
    expect(fit.component[0]).toBe(fit.component[1]);
    expect(fit.component[2]).toBe(fit.component[3]);
    expect(fit.component[0]).not.toBe(fit.component[2]);
    expect(fit.theta[0] + fit.theta[1]).toBeCloseTo(0, 12);
    expect(fit.theta[2]).toBeCloseTo(0, 9);
    expect(Number.isNaN(fit.theta[4])).toBe(true);
    expect(Number.isNaN(fit.covariance(0, 2))).toBe(true);
    const r = eloRatings(['a', 'b', 'c', 'd', 'e'], fit, 80);
    expect(r.components).toBe(2);
    expect(r.ratings.map((x) => x.config)).toEqual(['a', 'c', 'd', 'b', 'e']);
  });

  it('recovers Plackett–Luce strengths from 3-player finishing orders, and its 95 % intervals cover them about 95 % of the time', () => {
    const truth = [0, 0.5, 1, -0.5, 0.25];
    const m = truth.length;
    const rng = new Rng('bt-coverage');
    let covered = 0;
    let intervals = 0;
    const errors: number[] = [];
    for (let rep = 0; rep < 120; rep++) {
      const counts = new Map<string, number>();
      for (let game = 0; game < 600; game++) {
        // Three different configurations at the table; the finishing order drawn as Plackett–Luce.
        const table: number[] = [];
        while (table.length < 3) {
          const c = rng.int(m);
          if (!table.includes(c)) table.push(c);
        }
        const order: number[] = [];
        const left = [...table];
        while (left.length) {
          const weights = left.map((c) => Math.exp(truth[c]));
          let x = rng.float() * weights.reduce((s, v) => s + v, 0);
          let pick = 0;
          while (x > weights[pick]) x -= weights[pick++];
          order.push(left.splice(Math.min(pick, left.length - 1), 1)[0]);
        }
        const key = order.join(',');
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const rankings = [...counts].map(([key, count]) => ({ groups: key.split(',').map((c) => [Number(c)]), count }));
      const fit = fitBradleyTerry(m, rankings);
      const centre = truth.reduce((s, x) => s + x, 0) / m;
      for (let i = 0; i < m; i++) {
        const target = truth[i] - centre;
        const se = Math.sqrt(fit.covariance(i, i));
        errors.push(fit.theta[i] - target);
        intervals++;
        if (Math.abs(fit.theta[i] - target) <= Z95 * se) covered++;
      }
    }
    const bias = errors.reduce((s, e) => s + e, 0) / errors.length;
    const coverage = covered / intervals;
    console.log(`Bradley–Terry on Plackett–Luce 3-player orders: coverage of the 95 % intervals ${(100 * coverage).toFixed(1)} % of ${intervals}; mean error ${bias.toFixed(4)}`);
    expect(Math.abs(bias)).toBeLessThan(0.02);
    expect(coverage).toBeGreaterThan(0.9);
    expect(coverage).toBeLessThan(0.985);
  });

  it('Elo: 400 / ln 10 points per unit; an anchor sits at 0 and the others keep their differences', () => {
    // a and b would tie exactly at 40 games of the first order (42.5 points each against the
    // other): 45 puts a strictly ahead, so the order below is not decided by rounding.
    const fit = fitBradleyTerry(3, [
      { groups: [[0], [1], [2]], count: 45 },
      { groups: [[1], [0], [2]], count: 25 },
      { groups: [[2], [1], [0]], count: 15 },
      { groups: [[0, 1], [2]], count: 5 },
    ]);
    const centred = eloRatings(['a', 'b', 'c'], fit, 90);
    const anchored = eloRatings(['a', 'b', 'c'], fit, 90, 'c');
    const by = (r: typeof centred, c: string) => r.ratings.find((x) => x.config === c)!;
    expect(by(centred, 'a').elo).toBeCloseTo(fit.theta[0] * ELO_PER_NAT, 9);
    expect(by(anchored, 'c')).toMatchObject({ elo: 0, low: 0, high: 0 });
    expect(by(anchored, 'a').elo).toBeCloseTo(by(centred, 'a').elo - by(centred, 'c').elo, 9);
    expect(by(centred, 'a').high - by(centred, 'a').low).toBeCloseTo(2 * Z95 * by(centred, 'a').se, 9);
    expect(centred.ratings.map((r) => r.config)).toEqual(['a', 'b', 'c']);
    expect(() => eloRatings(['a', 'b', 'c'], fit, 90, 'zz')).toThrow(/zz/);
  });
});

describe('a sweep: head-to-head and ratings from its aggregates', () => {
  const spec = parseSweepSpec({
    name: 'versus',
    players: 3,
    seats: ['mcts:5', 'random', 'rulebased'],
    matchup: { specs: ['mcts:5', 'random', 'mcts(it=8)'], seats: [0, 1] },
    deals: { count: 6 },
  });
  const sweep = new Sweep(spec);
  const games: GameSummary[] = Array.from({ length: sweep.size }, (_, k) => playGame(sweep.game(k)));
  const fold = new AggregateFold();
  for (const g of games) fold.add(g, placementOf(sweep, g.index));
  const stats = sweepStatistics(fold.fields, sweep);

  it('the matrix equals HeadToHead folded over the raw games (ties half, Wilson intervals)', () => {
    const raw = new HeadToHead();
    for (const g of games) raw.add(g);
    const m = stats.headToHead!;
    // The matchup's specs first, then the other agents, however they are written.
    expect(m.configs).toEqual(['mcts:5', 'random', 'mcts(it=8)', 'rulebased']);
    const canonical = m.configs.map((c) => canonicalSpec(parseAgentSpec(c)));
    m.rows.forEach((row, i) =>
      row.forEach((cell, j) => {
        if (i === j) return expect(cell).toBeNull();
        const expected = raw.score(canonical[i], canonical[j])!;
        expect(cell!.games).toBe(expected.games);
        expect(cell!.score).toBeCloseTo(expected.score, 12);
        expect(cell!.interval.low).toBeCloseTo(expected.interval.low, 12);
        expect(cell!.interval.high).toBeCloseTo(expected.interval.high, 12);
      }),
    );
  });

  it('ratings for every configuration, with intervals, from the same games', () => {
    const r = stats.ratings!;
    expect(r.games).toBe(games.length);
    expect(r.ratings.map((x) => x.config).sort()).toEqual([...stats.headToHead!.configs].sort());
    for (const x of r.ratings) {
      expect(Number.isFinite(x.elo)).toBe(true);
      expect(x.low).toBeLessThan(x.elo);
      expect(x.high).toBeGreaterThan(x.elo);
      expect(x.games).toBe(games.filter((g) => g.players.some((p) => canonicalSpec(parseAgentSpec(p.agent)) === canonicalSpec(parseAgentSpec(x.config)))).length);
    }
    expect(r.ratings.reduce((s, x) => s + x.elo, 0)).toBeCloseTo(0, 6);
    // random is the weakest here.
    expect(r.ratings[r.ratings.length - 1].config).toBe('random');
  });
});
