/**
 * The ladder (src/lab/stats/ladder.ts): the Plackett–Luce batch fit recovers known strengths from
 * simulated finishing orders within its intervals.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';
import { ELO_PER_NAT, eloRatings, fitPlackettLuce, type Ranking } from '../src/lab/index.js';

/** A Plackett–Luce finishing order of these configurations: each place drawn ∝ e^θ among those left. */
function order(rng: Rng, seats: number[], theta: readonly number[]): number[] {
  const left = [...seats];
  const out: number[] = [];
  while (left.length) {
    const w = left.map((i) => Math.exp(theta[i]));
    let u = rng.float() * w.reduce((s, x) => s + x, 0);
    let pick = 0;
    while (u > w[pick] && pick < left.length - 1) u -= w[pick++];
    out.push(left.splice(pick, 1)[0]);
  }
  return out;
}

/** Games of three seats drawn from four configurations of known strength. */
function simulate(theta: readonly number[], games: number, seed: number): number[][] {
  const rng = new Rng(seed);
  return Array.from({ length: games }, () => {
    const seats = [0, 1, 2, 3].sort(() => rng.float() - 0.5).slice(0, 3);
    return order(rng, seats, theta);
  });
}

describe('the Plackett–Luce batch fit', () => {
  const theta = [0, 0.5, 1, 1.5];
  const games = simulate(theta, 4000, 12);
  const rankings: Ranking[] = games.map((g) => ({ groups: g.map((c) => [c]), count: 1 }));
  const configs = ['a', 'b', 'c', 'd'];
  const fit = fitPlackettLuce(4, rankings);
  const ratings = eloRatings(configs, fit, games.length, 'a', 'Plackett–Luce');

  it('recovers the strengths used to draw 4000 three-seat games, each within its 95 % interval (anchor a = 0)', () => {
    for (const r of ratings.ratings) {
      const truth = theta[configs.indexOf(r.config)] * ELO_PER_NAT;
      expect(truth, r.config).toBeGreaterThanOrEqual(r.low);
      expect(truth, r.config).toBeLessThanOrEqual(r.high);
    }
    expect(ratings.ratings.map((r) => r.config)).toEqual(['d', 'c', 'b', 'a']);
    // The intervals are those of a few thousand games: tens of Elo, not hundreds.
    for (const r of ratings.ratings.filter((x) => x.config !== 'a')) expect(r.high - r.low).toBeLessThan(120);
  });

  it('counts of equal orders fit as the games one by one; a configuration that always wins keeps a finite rating', () => {
    const counted = new Map<string, Ranking>();
    for (const r of rankings) {
      const key = JSON.stringify(r.groups);
      const c = counted.get(key);
      if (c) c.count++;
      else counted.set(key, { ...r });
    }
    const grouped = fitPlackettLuce(4, [...counted.values()]);
    grouped.theta.forEach((t, i) => expect(t).toBeCloseTo(fit.theta[i], 6));
    const always = fitPlackettLuce(2, [{ groups: [[0], [1]], count: 50 }]);
    expect(Number.isFinite(always.theta[0])).toBe(true);
    expect(always.theta[0]).toBeGreaterThan(always.theta[1]);
  });

  it('ties: a VP tie between two seats counts as neither ahead of the other', () => {
    const tied = fitPlackettLuce(2, [{ groups: [[0, 1]], count: 100 }]);
    expect(tied.theta[0]).toBeCloseTo(tied.theta[1], 9);
  });
});
