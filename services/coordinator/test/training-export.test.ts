/**
 * Training rows through the real API, queue and game threads: a sweep with `training: true`
 * plays, and GET /api/sweeps/{id}/training gives its decisions as an .npz archive whose rows
 * match the stored games (one per decision of the chosen seats, every root move's visits);
 * refusals name their field.
 */
import { spawn } from 'node:child_process';
import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACTION_COUNT, observationSize, readNpz } from '@wonderlab/shared';
import { api, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

const BIN = resolve(import.meta.dirname, '../../../bin/wonderlab.mjs');
let lab: TestLab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(async () => {
  await lab?.close();
});

const spec = { name: 'training-rows', players: 3, seats: ['mcts(it=60,time=0)', 'rulebased', 'random'], deals: { count: 3 }, training: true };

async function archive(path: string) {
  const res = await fetch(lab.url + path);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('training rows from a sweep', () => {
  test('training without move records is a 400 naming the field, and nothing is stored', async () => {
    const listed = (await api(lab.url, '/api/sweeps')).body.length;
    const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: { ...spec, keepRecords: false } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('training');
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed);
  });

  test('a sweep’s games come back as rows: one per decision, observations of the right size, whole visit distributions', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
    expect(created.status).toBe(201);
    const done = await waitForSweep(lab, created.body.id);
    expect(done.counts).toMatchObject({ done: 3, failed: 0 });
    const games = (await api(lab.url, `/api/sweeps/${created.body.id}/export?format=jsonl`)).body as string;
    const summaries = games.trim().split('\n').map((line) => JSON.parse(line));
    const decisions = (agent?: string) => summaries.reduce((a, g) => a + g.players.filter((p: any) => !agent || p.agent === agent).reduce((b: number, p: any) => b + p.decisions, 0), 0);

    const all = await archive(`/api/sweeps/${created.body.id}/training`);
    expect(all.status).toBe(200);
    expect(all.headers.get('x-training-games')).toBe('0-3');
    expect(all.headers.get('x-training-next')).toBeNull();
    const rows = readNpz(all.bytes);
    const n = decisions();
    expect(rows.get('obs')!.shape).toEqual([n, observationSize(3)]);
    expect(rows.get('mask')!.shape).toEqual([n, ACTION_COUNT]);
    expect(rows.get('vp')!.shape).toEqual([n, 3]);
    const meta = JSON.parse(Buffer.from(rows.get('meta_json')!.data as Uint8Array).toString('utf8'));
    expect(meta).toMatchObject({ sweep: created.body.id, training: true, games: 3, unplayed: 0, from: 0, to: 3, next: null, rows: n });
    expect(meta.code).toEqual(done.provenance.code);

    // Only the searching seat: every row searched, its visits the decision's iterations (60 in Age I).
    const mcts = readNpz((await archive(`/api/sweeps/${created.body.id}/training?agent=${encodeURIComponent('mcts(it=60,time=0)')}`)).bytes);
    expect(mcts.get('searched')!.shape).toEqual([decisions('mcts(it=60,time=0)')]);
    expect(Array.from(mcts.get('searched')!.data as Uint8Array).every((x) => x === 1)).toBe(true);
    const ages = mcts.get('age')!.data as Uint8Array;
    const visits = mcts.get('visits')!.data as Int32Array;
    for (let i = 0; i < ages.length; i++) if (ages[i] === 1) expect(visits[i]).toBe(60);
    // Any spelling of the same agent chooses the same seats.
    const positional = readNpz((await archive(`/api/sweeps/${created.body.id}/training?agent=${encodeURIComponent('mcts:60,0')}`)).bytes);
    expect(positional.get('searched')!.shape).toEqual(mcts.get('searched')!.shape);

    // A page: one game from the second, and where the next starts.
    const page = await archive(`/api/sweeps/${created.body.id}/training?from=1&games=1`);
    expect(page.headers.get('x-training-games')).toBe('1-2');
    expect(page.headers.get('x-training-next')).toBe('2');
    expect(new Set(readNpz(page.bytes).get('game')!.data as Int32Array)).toEqual(new Set([1]));

    // The CLI pages through the sweep: archives of two games, then of one, the same rows as the API's.
    const dir = mkdtempSync(join(tmpdir(), 'wl-training-'));
    try {
      const cli = await new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [BIN, 'remote', 'export', created.body.id, '--url', lab.url, '--format', 'training', '--games-per-file', '2', '--out', dir]);
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => done({ code, stderr }));
      });
      expect(cli.code, cli.stderr).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(['0-2.npz', '2-3.npz']);
      const obs = ['0-2.npz', '2-3.npz'].map((f) => readNpz(readFileSync(join(dir, f))).get('obs')!);
      expect(obs[0].shape[0] + obs[1].shape[0]).toBe(n);
      expect(Buffer.concat([Buffer.from(obs[0].data.buffer), Buffer.from(obs[1].data.buffer)]).equals(Buffer.from(rows.get('obs')!.data.buffer))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a page too large is a 400 naming the field; a sweep without records is a 409', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: { ...spec, training: false, keepRecords: false, deals: { count: 1 } } });
    expect(created.status).toBe(201);
    await waitForSweep(lab, created.body.id);
    const tooMany = await api(lab.url, `/api/sweeps/${created.body.id}/training?games=100000`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe('query.games');
    const none = await api(lab.url, `/api/sweeps/${created.body.id}/training`);
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/keeps no move records/);
  });
});

describe('training pages under load', () => {
  let busy: TestLab;
  beforeAll(async () => {
    busy = await startLab({ workers: 1, env: { TRAINING_BUILDS: '1' } });
  });
  afterAll(async () => {
    await busy?.close();
  });

  /** The spools of training pages now in the temporary folder. */
  const spools = () => readdirSync(tmpdir()).filter((f) => f.startsWith('wonderlab-training-'));

  test('past TRAINING_BUILDS a page is a 429 with Retry-After; a client that hangs up stops its page and frees its spool', async () => {
    const created = await api(busy.url, '/api/sweeps', { method: 'POST', json: { name: 'training-load', players: 3, seats: ['random', 'random', 'random'], deals: { count: 400 } } });
    expect(created.status).toBe(201);
    await waitForSweep(busy, created.body.id, 120_000);
    const path = `/api/sweeps/${created.body.id}/training?games=400`;
    const before = spools().length;

    // A client that takes the page's headers and then reads nothing: its page is being written.
    const stalled = await new Promise<{ req: ClientRequest; res: IncomingMessage }>((resolve, reject) => {
      const req = httpGet(busy.url + path, (res) => {
        res.pause();
        resolve({ req, res });
      });
      req.on('error', reject);
    });
    expect(stalled.res.statusCode).toBe(200);
    expect(spools().length).toBe(before + 1);

    const refused = await fetch(busy.url + path);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toMatch(/TRAINING_BUILDS/);

    // Hanging up ends that page's work: its spool goes, and the next page is built.
    stalled.req.destroy();
    const served = await waitFor(async () => {
      const res = await fetch(busy.url + path);
      if (res.status === 429) return false;
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    }, 'the page once the stalled client has gone', 30_000, 100);
    expect(served.status).toBe(200);
    expect(readNpz(served.bytes).get('game')!.shape[0]).toBeGreaterThan(400 * 50);
    await waitFor(async () => spools().length === before, 'the spools removed');
  });
});
