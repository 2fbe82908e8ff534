/**
 * Our reading of Dawieang (2021)'s DQN as stored (reproduction/dqn-2021/: training run 0 in the
 * folder, run S in seed-S/), a study of several training runs per setup:
 * - every run's networks are the ones trained (their files' sha256 are their training.json's,
 *   which the lab recorded when it played them), trained from clean code at a commit of this
 *   history, on seeds no other run and no evaluation deal used;
 * - every network is evaluated on at least evaluation.json's minimum of games, from clean code;
 * - every figure and interval is recomputed here from the stored per-deal sums (the deal-clustered
 *   ratio, Wilson's interval at the effective size), every finding follows from its interval, and
 *   the study's counts, spread and pooled scores follow from the runs'.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/** Training runs per setup the study states (REPRODUCTION.md): at least this many, each evaluated. */
const MIN_RUNS = 5;
/** The evaluation's first seed: deals from it; every training seed lies below it. */
const EVALUATION_FIRST_SEED = 3_000_000;

const folder = new URL('../reproduction/dqn-2021/', import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (name: string) => JSON.parse(readFileSync(new URL(name, folder), 'utf8'));

type Interval = { value: number; low: number; high: number };
type Sums = { points: number[]; pairs: number[] };
type Network = {
  opponents: string[];
  model: string;
  provenance: { dirty: boolean | null; seeds: { firstSeed: number; deals: number }; code: { commit: string } };
  models: Record<string, string>;
  games: number;
  deals: number;
  winRate: Interval;
  rankReward: Interval;
  headToHead: Record<string, Interval & { pairs: number }>;
  finding: { betterThanRandom: string | null; worseThanRuleBased: string | null };
  perDeal: { games: number[]; wins: number[]; rankReward: number[]; headToHead: Record<string, Sums> };
};
type Training = { seedIndex?: number; opponents: string[]; config: { first_seed: number; torch_seed: number; episodes: number }; trainingSeeds: [number, number]; model: string; sha256: string; code: { commit: string; dirty: boolean }; torch: string; seconds: number };

const runFolders = ['', ...readdirSync(folder).filter((f) => /^seed-\d+$/.test(f)).map((f) => `${f}/`)];
const trained = runFolders.filter((f) => existsSync(new URL(`${f}training.json`, folder)));
const runs = trained.map((f) => ({ seedIndex: f === '' ? 0 : Number(f.slice(5, -1)), folder: f, training: read(`${f}training.json`) as { setups: Record<string, Training> } }));
const evaluation = read('evaluation.json');
const names = Object.keys(runs[0].training.setups);
const networks = runs.flatMap((r) => Object.entries(r.training.setups).map(([name, t]) => ({ run: r.seedIndex, folder: r.folder, name, t })));
const evaluated = (run: number, name: string): Network => evaluation.runs.find((r: { seedIndex: number }) => r.seedIndex === run).setups[name];

// An independent statement of dqn-statistics.mjs: the ratio over deals, its cluster-robust
// variance, and Wilson's interval at the effective size (design effect at least 1).
const Z = 1.96;
function clustered(y: number[], n: number[], bounded = true): Interval {
  const total = n.reduce((a, b) => a + b, 0);
  const value = y.reduce((a, b) => a + b, 0) / total;
  const used = n.map((k, d) => [y[d], k]).filter(([, k]) => k > 0);
  const D = used.length;
  const variance = (D / (D - 1)) * used.reduce((s, [v, k]) => s + (v - value * k) ** 2, 0) / total ** 2;
  if (!bounded) return { value, low: value - Z * Math.sqrt(variance), high: value + Z * Math.sqrt(variance) };
  const binomial = (value * (1 - value)) / total;
  const m = total / (binomial > 0 ? Math.max(1, variance / binomial) : 1);
  const centre = (value + (Z * Z) / (2 * m)) / (1 + (Z * Z) / m);
  const half = (Z / (1 + (Z * Z) / m)) * Math.sqrt((value * (1 - value)) / m + (Z * Z) / (4 * m * m));
  return { value, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
const side = (i: { low: number; high: number }, above: boolean) =>
  (above ? i.low > 0.5 : i.high < 0.5) ? 'confirmed' : (above ? i.high < 0.5 : i.low > 0.5) ? 'refuted' : 'inconclusive';
const close = (a: Interval, b: Interval) => {
  expect(a.value).toBeCloseTo(b.value, 9);
  expect(a.low).toBeCloseTo(b.low, 9);
  expect(a.high).toBeCloseTo(b.high, 9);
};

describe('our reading of the DQN as stored: a study of training runs', () => {
  test(`the paper's five setups, each trained in at least ${MIN_RUNS} runs, every run evaluated`, () => {
    expect(trained).toEqual(runFolders);
    expect(names).toHaveLength(5);
    for (const name of names) expect(runs.filter((r) => r.training.setups[name]).length).toBeGreaterThanOrEqual(MIN_RUNS);
    expect(evaluation.runs.map((r: { seedIndex: number }) => r.seedIndex)).toEqual(runs.map((r) => r.seedIndex));
    for (const r of runs) expect(Object.keys(evaluation.runs.find((e: { seedIndex: number }) => e.seedIndex === r.seedIndex).setups)).toEqual(Object.keys(r.training.setups));
  });

  test.each(networks.map((n) => [`run ${n.run} ${n.name}`, n] as const))('%s: the model file is the one trained and the one the lab played', (_, n) => {
    const sha = createHash('sha256').update(readFileSync(new URL(`${n.folder}${n.t.model}`, folder))).digest('hex');
    expect(sha).toBe(n.t.sha256);
    const e = evaluated(n.run, n.name);
    expect(e.model).toBe(`dqn-2021/${n.folder}${n.t.model}`);
    expect(e.models[e.model]).toBe(sha);
    expect(existsSync(new URL(`${n.folder}${n.name}-curve.csv`, folder))).toBe(true);
  });

  test.each(networks.map((n) => [`run ${n.run} ${n.name}`, n] as const))('%s: clean code of this history, its own seeds, at least the stated games', (_, n) => {
    expect(n.t.code.dirty).toBe(false);
    // The commit it names is one of this repository's (a rebased-away or local-only commit fails).
    expect(() => execFileSync('git', ['cat-file', '-e', `${n.t.code.commit}^{commit}`], { cwd: root, stdio: 'ignore' })).not.toThrow();
    expect(n.t.trainingSeeds).toEqual([n.t.config.first_seed, n.t.config.first_seed + n.t.config.episodes - 1]);
    const e = evaluated(n.run, n.name);
    expect(e.provenance.dirty).toBe(false);
    expect(e.games).toBeGreaterThanOrEqual(evaluation.minGames);
    expect(evaluation.minGames).toBeGreaterThanOrEqual(1000);
    expect(e.provenance.seeds.firstSeed).toBe(EVALUATION_FIRST_SEED);
    expect(n.t.trainingSeeds[1]).toBeLessThan(EVALUATION_FIRST_SEED);
    expect(e.perDeal.games.reduce((a, b) => a + b, 0)).toBe(e.games);
  });

  test('no two training runs share a training seed or a torch seed', () => {
    const ranges = networks.map((n) => n.t.trainingSeeds).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBeGreaterThan(ranges[i - 1][1]);
    const torch = networks.map((n) => n.t.config.torch_seed);
    expect(new Set(torch).size).toBe(torch.length);
  });

  test('every network of a setup is played on the same deals', () => {
    for (const name of names) {
      const seeds = evaluation.runs.filter((r: { setups: Record<string, Network> }) => r.setups[name]).map((r: { setups: Record<string, Network> }) => r.setups[name].provenance.seeds);
      for (const s of seeds) expect(s).toEqual(seeds[0]);
    }
  });

  test.each(networks.map((n) => [`run ${n.run} ${n.name}`, n] as const))('%s: the figures and the finding follow from the stored per-deal sums', (_, n) => {
    const e = evaluated(n.run, n.name);
    close(e.winRate, clustered(e.perDeal.wins, e.perDeal.games));
    close(e.rankReward, clustered(e.perDeal.rankReward, e.perDeal.games, false));
    for (const [kind, sums] of Object.entries(e.perDeal.headToHead)) {
      close(e.headToHead[kind], clustered(sums.points, sums.pairs));
      expect(e.headToHead[kind].pairs).toBe(sums.pairs.reduce((a, b) => a + b, 0));
    }
    const random = e.headToHead.random;
    const rule = e.headToHead.rulebased;
    expect(e.finding.betterThanRandom).toBe(random ? side(random, true) : null);
    expect(e.finding.worseThanRuleBased).toBe(rule ? side(rule, false) : null);
    // The opponent kinds are the setup's.
    expect(Object.keys(e.headToHead).sort()).toEqual([...new Set(n.t.opponents.map((o) => (o.startsWith('rulebased') ? 'rulebased' : o)))].sort());
  });

  test.each(names)('%s: the counts over runs, the spread and the pooled score follow from the runs', (name) => {
    const st = evaluation.study[name];
    const each: Network[] = evaluation.runs.filter((r: { setups: Record<string, Network> }) => r.setups[name]).map((r: { setups: Record<string, Network> }) => r.setups[name]);
    expect(st.runs).toHaveLength(each.length);
    for (const [kind, key, above] of [['random', 'betterThanRandom', true], ['rulebased', 'worseThanRuleBased', false]] as const) {
      if (!each[0].headToHead[kind]) {
        expect(st.finding[key]).toBeNull();
        continue;
      }
      const scores = each.map((e) => e.headToHead[kind].value);
      expect(st.headToHead[kind].scores).toEqual(scores);
      expect(st.headToHead[kind].lowest).toBe(Math.min(...scores));
      expect(st.headToHead[kind].highest).toBe(Math.max(...scores));
      const deals = each[0].perDeal.headToHead[kind].points.length;
      const sum = (k: 'points' | 'pairs') => Array.from({ length: deals }, (_, d) => each.reduce((s, e) => s + e.perDeal.headToHead[kind][k][d], 0));
      close(st.headToHead[kind].pooled, clustered(sum('points'), sum('pairs')));
      expect(st.finding[key].pooled).toBe(side(st.headToHead[kind].pooled, above));
      // Over runs: the mean of the runs' scores with Student's t interval (95 %, k − 1 degrees of freedom).
      const k = scores.length;
      const mean = scores.reduce((a, b) => a + b, 0) / k;
      const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / (k - 1));
      const t = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262][k - 2];
      close(st.headToHead[kind].acrossRuns, { value: mean, low: Math.max(0, mean - (t * sd) / Math.sqrt(k)), high: Math.min(1, mean + (t * sd) / Math.sqrt(k)) });
      expect(st.finding[key].acrossRuns).toBe(side(st.headToHead[kind].acrossRuns, above));
      const counts = { confirmed: 0, refuted: 0, inconclusive: 0 } as Record<string, number>;
      for (const e of each) counts[e.finding[key]!] += 1;
      expect(st.finding[key].runs).toEqual(counts);
    }
  });

  test('the checks can fail: a changed per-deal sum moves the recomputed score off the stored one', () => {
    const e = evaluated(0, names[0]);
    const points = [...e.perDeal.headToHead.random.points];
    points[0] += 1;
    expect(clustered(points, e.perDeal.headToHead.random.pairs).value).not.toBeCloseTo(e.headToHead.random.value, 9);
  });
});
