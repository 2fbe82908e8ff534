/**
 * A sweep with a trained network in a seat, through the real API, queue and game threads: a model
 * that is missing or does not fit is a 400 naming the seat (nothing stored), a good one plays and
 * the sweep records its file's sha256.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, startLab, waitForSweep, type TestLab } from './harness.js';

const MODELS = fileURLToPath(new URL('../../../test/fixtures/models', import.meta.url));
let lab: TestLab;
let before: string | undefined;

beforeAll(async () => {
  before = process.env.MODELS_DIR;
  // Read by the coordinator's check and by the game threads the worker starts (they inherit it).
  process.env.MODELS_DIR = MODELS;
  lab = await startLab();
});
afterAll(async () => {
  await lab?.close();
  if (before === undefined) delete process.env.MODELS_DIR;
  else process.env.MODELS_DIR = before;
});

const spec = (seat0: string, players = 3) => ({ name: 'policy-sweep', players, seats: [seat0, ...Array(players - 1).fill('random')], deals: { count: 4 } });

describe('policy agents in a sweep', () => {
  test('a missing or mis-shaped model is a 400 naming the seat, and nothing is stored', async () => {
    const listed = (await api(lab.url, '/api/sweeps')).body.length;
    const missing = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec('policy(model=gone.onnx)') });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('seats.0');
    expect(missing.body.error).toMatch(/model 'gone.onnx': no such file in MODELS_DIR/);
    const wrongPlayers = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec('policy(model=policy-3p.onnx)', 4) });
    expect(wrongPlayers.status).toBe(400);
    expect(wrongPlayers.body.error).toMatch(/reads observations of 675 values \(3 players\), a game of 4 has 846/);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed);
  });

  test('a good model plays every game and the sweep records its hash', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec('policy(model=policy-3p.onnx)') });
    expect(created.status).toBe(201);
    const done = await waitForSweep(lab, created.body.id);
    expect(done.counts).toMatchObject({ done: created.body.games, failed: 0 });
    const sha = createHash('sha256').update(readFileSync(`${MODELS}/policy-3p.onnx`)).digest('hex');
    expect(done.provenance.models).toEqual({ 'policy-3p.onnx': sha });
  });

  test('an MCTS seat guided by a network plays, its model is recorded, and one without values for eval=net is a 400', async () => {
    const refused = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec('mcts(it=20,time=0,model=policy-3p.onnx,eval=net)') });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('seats.0');
    expect(refused.body.error).toMatch(/eval=net needs a network with values/);
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec('mcts(it=20,time=0,model=net-3p.onnx,eval=mix,prior=net)') });
    expect(created.status).toBe(201);
    const done = await waitForSweep(lab, created.body.id);
    expect(done.counts).toMatchObject({ done: created.body.games, failed: 0 });
    const sha = createHash('sha256').update(readFileSync(`${MODELS}/net-3p.onnx`)).digest('hex');
    expect(done.provenance.models).toEqual({ 'net-3p.onnx': sha });
  });
});
