/**
 * Fair scheduling on a real lab: a sweep's games are queued interleaved across its cells, so a
 * sweep stopped halfway has about half of every cell's games (the issue's target: a 3-cell sweep
 * stopped at 50 % has 40–60 % of every cell), and the detail reports each cell's progress.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseSweepSpec, Sweep } from '@wonderlab/shared';
import { api, startLab, waitFor, type TestLab } from './harness.js';
import { resultCount } from '../../../shared/test/store-support.js';

let lab: TestLab;

beforeAll(async () => {
  // One slot and a small window: games finish one at a time, so the pause lands close to 50 %.
  lab = await startLab({ workers: 1, slots: 1, feedWindow: 3 });
});
afterAll(async () => {
  await lab?.close();
});

const detail = async (id: string) => (await api(lab.url, `/api/sweeps/${id}`)).body;

test('a 3-cell sweep paused at half its games has 40–60 % of every cell, and reports each cell', async () => {
  const spec = { name: 'fair', players: 3, seats: [{ agent: 'mcts', params: { it: [20, 25, 30] } }, 'random', 'random'], deals: { count: 40 } };
  const sweep = new Sweep(parseSweepSpec(spec));
  expect(sweep.cells.length).toBe(3);
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
  expect(created.status).toBe(201);
  const id = created.body.id;

  await waitFor(async () => (await detail(id)).counts.done >= sweep.size / 2, 'half the games', 60_000, 20);
  expect((await api(lab.url, `/api/sweeps/${id}/pause`, { method: 'POST' })).status).toBe(200);
  await waitFor(async () => (await detail(id)).counts.queued === 0, 'the running game to finish', 20_000);
  // The statistics are computed apart and say which games they are of: read them once they are of all.
  const d = await waitFor(async () => {
    const now = await detail(id);
    return now.statisticsAsOf.current && now;
  }, 'statistics of every game finished', 20_000);
  expect(d.status).toBe('paused');
  expect(d.schedule).toBe('interleaved');
  const share = d.counts.done / d.counts.total;
  expect(share).toBeGreaterThanOrEqual(0.5);

  expect(d.cellProgress.map((c: any) => c.index)).toEqual([0, 1, 2]);
  const shares = d.cellProgress.map((c: any) => c.done / c.total);
  console.log(`paused at ${(100 * share).toFixed(1)} % of ${d.counts.total} games; per cell: ${shares.map((s: number) => `${(100 * s).toFixed(1)} %`).join(', ')}`);
  for (const c of d.cellProgress) {
    expect(c.total).toBe(sweep.gamesPerCell);
    expect(c.done / c.total, `cell ${c.index}`).toBeGreaterThanOrEqual(0.4);
    expect(c.done / c.total, `cell ${c.index}`).toBeLessThanOrEqual(0.6);
    expect(c.queued).toBe(0);
    expect(c.failed).toBe(0);
    // The per-cell counts are the cells' aggregates.
    expect(c.done).toBe(d.cells[c.index].games);
  }
  expect(d.cellProgress.reduce((s: number, c: any) => s + c.done, 0)).toBe(d.counts.done);
  // Paused: no ETA; the rate is the one measured while running.
  expect(d.etaSeconds).toBeNull();
  expect(d.gamesPerSecond).toBeGreaterThan(0);
  expect(d.activeSeconds).toBeGreaterThan(0);

  // Resumed, it finishes every game once.
  expect((await api(lab.url, `/api/sweeps/${id}/resume`, { method: 'POST' })).status).toBe(200);
  await waitFor(async () => (await detail(id)).status === 'done', 'the sweep to finish', 60_000, 100);
  const end = await detail(id);
  expect(end.cellProgress.map((c: any) => c.done)).toEqual([sweep.gamesPerCell, sweep.gamesPerCell, sweep.gamesPerCell]);
  expect(await resultCount(lab.store, id)).toBe(sweep.size);
}, 120_000);
