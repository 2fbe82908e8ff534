import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, startLab, waitForSweep, type TestLab } from './harness.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(async () => {
  await lab?.close();
});

test('a small sweep submitted over HTTP is played to the end', async () => {
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: { name: 'smoke', players: 3, seats: ['random', 'random', 'rulebased'], deals: { count: 6 } } });
  expect(created.status).toBe(201);
  expect(created.body.games).toBe(6);
  const detail = await waitForSweep(lab, created.body.id);
  expect(detail.counts).toMatchObject({ total: 6, done: 6, failed: 0 });
  expect(detail.cells[0].games).toBe(6);
});
