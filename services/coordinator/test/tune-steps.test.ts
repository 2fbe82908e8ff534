/**
 * SPSA and NTBEA tunes on a real lab (issue 61): a tune whose games are its steps, sweeps the
 * coordinator makes one after another from the results of the earlier ones. SPSA plays θ+ against
 * θ− on a deal per step, seats swapped, and its trajectory is the same when the coordinator is
 * stopped mid-tune and another takes over; NTBEA evaluates points against the reference and
 * reports each value's estimate; both end in a recommendation and its confirmation on held-out
 * deals; `wonderlab tune` plays the same SPSA trajectory on this machine. Bad tunes are 400s
 * naming the field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CoordinatorEnvSchema, startCoordinator } from '@wonderlab/coordinator';
import { SweepStore, stepSweepId } from '@wonderlab/shared/store';
import { REDIS_URL, api, silent, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

const BIN = resolve(import.meta.dirname, '../../../bin/wonderlab.mjs');

let lab: TestLab;
beforeAll(async () => {
  lab = await startLab({ workers: 1, slots: 2 });
});
afterAll(async () => {
  await lab?.close();
});

/** A cheap search against two random players: c and the iterations tuned, a step at a time. */
const SPSA = {
  name: 'spsa: c and it',
  players: 3,
  seats: ['mcts(it=12,depth=2)', 'random', 'random'],
  deals: { firstSeed: 300, count: 1 },
  tune: { method: 'spsa', seat: 0, params: [{ key: 'c', min: 0.1, max: 2 }, { key: 'it', min: 4, max: 24 }], steps: 8, inFlight: 1, cEnd: 0.1, rEnd: 0.5, confirm: { firstSeed: 70_000, deals: 4, elo0: 0, elo1: 200 } },
};

const NTBEA = {
  name: 'ntbea: playout and det',
  players: 3,
  seats: ['mcts(it=12,depth=2)', 'mcts(it=12,depth=2)', 'random'],
  deals: { firstSeed: 500, count: 1 },
  tune: { method: 'ntbea', seat: 0, params: [{ key: 'playout', values: ['random', 'rulebased'] }, { key: 'it', values: [2, 12, 30] }], steps: 5, dealsPerStep: 2 },
};

describe('SPSA and NTBEA tunes', () => {
  test('bad tunes are 400s naming the field', async () => {
    const refused = async (spec: Record<string, unknown>) => (await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: spec })).body;
    const spsa = (tune: Record<string, unknown>, more: Record<string, unknown> = {}) => refused({ ...SPSA, ...more, tune: { ...SPSA.tune, ...tune } });
    expect((await spsa({ params: [{ key: 'playout' }] })).field).toBe('tune.params.0');
    expect((await spsa({ params: [{ key: 'colour' }] })).field).toBe('tune.params.0.key');
    expect((await spsa({ params: [{ key: 'c', min: 0.1, max: 200 }] })).field).toBe('tune.params.0.max');
    expect((await spsa({ params: [{ key: 'time' }] })).field).toBe('tune.params.0.key');
    expect((await spsa({ steps: 0 })).field).toBe('tune.steps');
    expect((await spsa({ against: 0 })).field).toBe('tune.against');
    expect((await spsa({ confirm: { firstSeed: 305, deals: 4 } })).field).toBe('tune.confirm.firstSeed');
    expect((await spsa({}, { seats: [{ agent: 'mcts', params: { it: [4, 8] } }, 'random', 'random'] })).field).toBe('seats.0');
    expect((await spsa({}, { seats: ['rulebased', 'random', 'random'] })).field).toBe('tune.agent');
    expect((await refused({ ...NTBEA, tune: { ...NTBEA.tune, params: [{ key: 'c' }] } })).field).toBe('tune.params.0.values');
    // A good one: its games are its steps' (8 steps of 2 games), not a grid's.
    const ok = await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: SPSA });
    expect(ok.status).toBe(200);
    expect(ok.body.games).toBe(16);
  });

  test('SPSA: every step θ+ against θ− on its own deal, seats swapped; the same trajectory when another coordinator takes over mid-tune', async () => {
    // Uninterrupted.
    const first = await api(lab.url, '/api/sweeps', { method: 'POST', json: SPSA });
    expect(first.status).toBe(201);
    expect(first.body.games).toBe(16);
    const a = await waitForSweep(lab, first.body.id, 120_000);
    expect(a.tune).toMatchObject({ method: 'spsa', steps: 8, proposed: 8, applied: 8, options: ['c', 'it'], final: true });
    expect(a.tune.trajectory.map((s: any) => s.k)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const s of a.tune.trajectory) {
      expect(Math.abs(s.s)).toBeLessThanOrEqual(2);
      expect(s.low[0]).toBeLessThanOrEqual(s.values[0]);
      expect(s.high[0]).toBeGreaterThanOrEqual(s.values[0]);
      expect(Number.isInteger(s.values[1])).toBe(true);
    }
    expect(a.tune.recommendation).toMatch(/^mcts\(it=\d+,depth=2,c=[\d.]+\)$/);
    // Step 3 is a sweep of its own: θ+ in seat 0, θ− in seat 1, deal 303, seats swapped, not listed among the sweeps.
    const step = (await api(lab.url, `/api/sweeps/${stepSweepId(first.body.id, 3)}`)).body;
    expect(step.spec).toMatchObject({ deals: { firstSeed: 303, count: 1 }, seating: 'swap', swapSeats: [0, 1] });
    expect(step.spec.seats[2]).toBe('random');
    expect(step.counts).toMatchObject({ total: 2, done: 2 });
    const listed = (await api(lab.url, '/api/sweeps')).body.map((s: any) => s.id);
    expect(listed).toContain(first.body.id);
    expect(listed).not.toContain(step.id);
    // The tune's export is its steps' games in step order, each row naming its step's sweep.
    const text = async (path: string) => (await fetch(`${lab.url}${path}`)).text();
    const whole = await text(`/api/sweeps/${first.body.id}/export?format=jsonl`);
    const bySteps = (await Promise.all(Array.from({ length: 8 }, (_, k) => text(`/api/sweeps/${stepSweepId(first.body.id, k)}/export?format=jsonl`)))).join('');
    expect(whole).toBe(bySteps);
    expect(whole.trim().split('\n')).toHaveLength(16);
    const csv = (await text(`/api/sweeps/${first.body.id}/export?format=csv`)).trim().split('\n');
    expect(csv).toHaveLength(1 + 16 * 3);
    expect(new Set(csv.slice(1).map((row) => row.split(',')[0]))).toEqual(new Set(Array.from({ length: 8 }, (_, k) => stepSweepId(first.body.id, k))));
    // The confirmation: the recommendation against the seat's own agent on held-out deals.
    const confirmation = await waitFor(async () => (await api(lab.url, `/api/sweeps/${first.body.id}`)).body.tune.confirmation?.sweep, 'the confirmation', 30_000);
    const c = (await api(lab.url, `/api/sweeps/${confirmation}`)).body;
    expect(c.spec).toMatchObject({ seats: [a.tune.recommendation, 'mcts(it=12,depth=2)', 'random'], deals: { firstSeed: 70_000, count: 4 }, stop: { sprt: { seats: [0, 1] } } });

    // `wonderlab tune` on this machine plays the same steps (one in flight): the same trajectory and recommendation.
    const file = join(mkdtempSync(join(tmpdir(), 'wl-tune-')), 'spsa.json');
    writeFileSync(file, JSON.stringify(SPSA));
    const local = spawnSync(process.execPath, [BIN, 'tune', file, '--json', '--threads', '1'], { encoding: 'utf8' });
    expect(local.status).toBe(0);
    const ran = JSON.parse(local.stdout);
    expect(ran.recommendation).toBe(a.tune.recommendation);
    expect(ran.search.trajectory.map((s: any) => [s.k, s.values, s.s])).toEqual(a.tune.trajectory.map((s: any) => [s.k, s.values, s.s]));
    expect(ran.confirmation.deals).toEqual({ firstSeed: 70_000, count: 4 });

    // The same spec again, its coordinator stopped after three steps and another started on the same Redis.
    const second = await api(lab.url, '/api/sweeps', { method: 'POST', json: SPSA });
    const id = second.body.id as string;
    await waitFor(async () => ((await api(lab.url, `/api/sweeps/${id}`)).body.tune.applied >= 3 ? true : undefined), 'three steps applied', 60_000);
    await lab.coordinator.close();
    const atStop = await new SweepStore(lab.redis, lab.prefix).reads.tuneSteps(id);
    expect(atStop.applied.length).toBeLessThan(8);
    const config = CoordinatorEnvSchema.parse({ REDIS_URL, KEY_PREFIX: lab.prefix, QUEUE_NAME: lab.queue, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FEED_INTERVAL_MS: '50' });
    const other = await startCoordinator(config, silent);
    lab.coordinator = other;
    lab.url = other.url;
    const b = await waitForSweep(lab, id, 120_000);
    expect(b.tune.trajectory).toEqual(a.tune.trajectory);
    expect(b.tune.recommendation).toBe(a.tune.recommendation);
    // Every step once: eight step sweeps of two games, none twice.
    for (let k = 0; k < 8; k++) expect((await api(lab.url, `/api/sweeps/${stepSweepId(id, k)}`)).body.counts).toMatchObject({ total: 2, done: 2, failed: 0 });
    expect((await api(lab.url, `/api/sweeps/${stepSweepId(id, 8)}`)).status).toBe(404);
  }, 300_000);

  test('NTBEA: points against the reference, a step at a time; each value estimated; paused and resumed', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: NTBEA });
    expect(created.status).toBe(201);
    expect(created.body.games).toBe(20);
    const id = created.body.id as string;
    await waitFor(async () => ((await api(lab.url, `/api/sweeps/${id}`)).body.tune.applied >= 1 ? true : undefined), 'one evaluation', 60_000);
    expect((await api(lab.url, `/api/sweeps/${id}/pause`, { method: 'POST' })).status).toBe(200);
    const paused = (await api(lab.url, `/api/sweeps/${id}`)).body.tune;
    for (const s of paused.inFlight) expect((await api(lab.url, `/api/sweeps/${s}`)).body.status).toMatch(/^(paused|done)$/);
    expect((await api(lab.url, `/api/sweeps/${id}/resume`, { method: 'POST' })).status).toBe(200);
    const done = await waitForSweep(lab, id, 120_000);
    expect(done.tune).toMatchObject({ method: 'ntbea', steps: 5, applied: 5, final: true });
    // The first point is the seat's own agent's values (random playouts are not listed first by accident: it is mcts's default).
    expect(done.tune.evaluations[0].values).toEqual(['random', 12]);
    for (const e of done.tune.evaluations) expect(e.value).toBeGreaterThanOrEqual(0);
    const it = done.tune.estimates.find((e: any) => e.key === 'it');
    expect(it.values.map((v: any) => v.value)).toEqual([2, 12, 30]);
    expect(it.values.reduce((n: number, v: any) => n + v.n, 0)).toBe(5);
    expect(done.tune.recommendation).toMatch(/^mcts\(/);
    expect(done.tune.note).toMatch(/no confirmation/);
    // Step 1 played the point NTBEA moved to, against the reference in seat 1, on deals 502 and 503.
    const step = (await api(lab.url, `/api/sweeps/${stepSweepId(id, 1)}`)).body;
    expect(step.spec).toMatchObject({ deals: { firstSeed: 502, count: 2 }, swapSeats: [0, 1] });
    expect(step.spec.seats[1]).toBe('mcts(it=12,depth=2)');
  }, 300_000);

  test('a point the lab refuses to play (options that do not go together) scores 0 and the search goes on', async () => {
    const spec = {
      name: 'ntbea: det and reuse',
      players: 3,
      seats: ['mcts(it=8,depth=2,tree=joint)', 'mcts(it=8,depth=2,tree=joint)', 'random'],
      deals: { firstSeed: 800, count: 1 },
      tune: { method: 'ntbea', params: [{ key: 'det' }, { key: 'reuse' }], steps: 8, dealsPerStep: 1 },
    };
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
    expect(created.status).toBe(201);
    const done = await waitForSweep(lab, created.body.id, 120_000);
    expect(done.tune.applied).toBe(8);
    const refused = done.tune.evaluations.filter((e: any) => e.values[0] === 'pimc' && e.values[1] === 'on');
    expect(refused.length).toBeGreaterThan(0);
    for (const e of refused) expect(e.value).toBe(0);
    expect(done.tune.recommendation).not.toMatch(/det=pimc.*reuse=on|reuse=on.*det=pimc/);
  }, 120_000);
});
