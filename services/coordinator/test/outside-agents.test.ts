/**
 * Outside agents on the lab (docs/agent-protocol.md): a sweep naming `ext(name=py-random)` — the
 * built-in random player in Python, agents/py-random — is played by workers through the queue and
 * gives exactly the built-in `random`'s games, summaries and move records; the sweep's provenance
 * records the agent's manifest and the hash of its files; an agent that is not installed is a 400.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentFingerprint, findAgent } from '@wonderlab/shared';
import { api, parseCsv, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

const AGENTS = resolve(import.meta.dirname, '../../../agents');
/** Installs under BROKEN an agent that crashes at its first decision, every time. */
function installBroken(name: string, params: Record<string, unknown> = {}): void {
  mkdirSync(join(BROKEN, name));
  const script = `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.type === 'hello') console.log(JSON.stringify({ type: 'hello', protocol: 1, name: '${name}', version: '0', players: [3] })); if (m.type === 'act') { console.error('no luck'); process.exit(7); } })`;
  writeFileSync(join(BROKEN, name, 'agent.json'), JSON.stringify({ protocol: 1, name, version: '0', summary: 'crashes', command: ['node', '-e', script], players: [3], params }));
}
const BROKEN = mkdtempSync(join(tmpdir(), 'wl-broken-'));
installBroken('broken');
// The same crash, with a parameter a tune can search.
installBroken('broken-typed', { x: { description: 'unused', type: 'number', min: 0, max: 1, default: 0.5 } });
let lab: TestLab;

beforeAll(async () => {
  process.env.AGENTS_DIR = [AGENTS, BROKEN].join(':');
  lab = await startLab({ workers: 1, slots: 2 });
});
afterAll(async () => {
  await lab?.close();
  delete process.env.AGENTS_DIR;
});

const GAMES = 1000;
const spec = (seat0: string) => ({ name: `outside ${seat0}`, players: 3, seats: [seat0, 'rulebased', 'rulebased'], deals: { firstSeed: 777_000, count: GAMES / 2 }, seating: 'swap' });

/** The exported games without what names the agent or times it. */
async function games(id: string) {
  const text = await (await fetch(`${lab.url}/api/sweeps/${id}/export?format=jsonl`)).text();
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .sort((a, b) => a.index - b.index)
    .map((g) => ({ ...g, sweep: undefined, players: g.players.map((p: any) => ({ ...p, agent: undefined, canonical: undefined, decisionMs: undefined })) }));
}

/** Submits a spec and returns its id and its detail once it is paused (suspended by its agent). */
async function submitUntilSuspended(spec: unknown): Promise<{ id: string; paused: any }> {
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id, paused: await suspended(created.body.id) };
}

/** The sweep's detail once it is paused (suspended by its agent). */
function suspended(id: string): Promise<any> {
  return waitFor(async () => {
    const o = (await api(lab.url, `/api/sweeps/${id}?cellLimit=1`)).body;
    return o.status === 'paused' ? o : undefined;
  }, 'the sweep suspended', 60_000);
}

describe('an outside agent on the lab', () => {
  test(`py-random through the queue plays the built-in random's ${GAMES} games: the same summaries and move records`, async () => {
    const ids: string[] = [];
    for (const seat0 of ['ext(name=py-random)', 'random']) {
      const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec(seat0) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.id);
    }
    for (const id of ids) expect((await waitForSweep(lab, id, 240_000)).counts).toMatchObject({ done: GAMES, failed: 0 });
    const [outside, builtIn] = await Promise.all(ids.map(games));
    expect(outside).toHaveLength(GAMES);
    expect(outside).toEqual(builtIn);
    for (const gameId of [outside[0].id, outside[GAMES - 1].id]) {
      const [a, b] = await Promise.all(ids.map(async (id) => (await api(lab.url, `/api/sweeps/${id}/games/${gameId}`)).body.record));
      expect(a.moves).toEqual(b.moves);
    }
    // The provenance names the agent as it was installed: its manifest and the hash of its files.
    const detail = (await api(lab.url, `/api/sweeps/${ids[0]}?cellLimit=1`)).body;
    expect(detail.provenance.agents).toEqual({ 'py-random': JSON.parse(JSON.stringify(agentFingerprint(findAgent('py-random', [AGENTS])))) });
    expect(detail.provenance.agents['py-random'].sha256).toMatch(/^[0-9a-f]{64}$/);
  }, 300_000);

  test('an agent that fails AGENT_SUSPEND_AFTER games in a row suspends its sweep: paused, saying why; resume clears it', async () => {
    const { id, paused } = await submitUntilSuspended({ name: 'broken', players: 3, seats: ['ext(name=broken)', 'random', 'random'], deals: { count: 40 } });
    expect(paused.suspended).toMatch(/^outside agent 'broken' failed [5-9] games in a row, the last: (Error: )?outside agent 'broken' exited with code 7; its stderr ended: no luck/);
    // The games already claimed may still fail as they come back; none is played once it is paused, and most never ran.
    expect(paused.counts.failed).toBeGreaterThanOrEqual(5);
    expect(paused.counts.done).toBe(0);
    expect(paused.counts.failed).toBeLessThan(40);
    const resumed = await api(lab.url, `/api/sweeps/${id}/resume`, { method: 'POST' });
    expect(resumed.body).toMatchObject({ status: 'running', suspended: null });
    await api(lab.url, `/api/sweeps/${id}/cancel`, { method: 'POST' });
  }, 90_000);

  test("a tune's steps (two games each) count their agent's failures together: the step and the tune are suspended, the tune saying which step; its resume resumes it", async () => {
    const { id, paused: tune } = await submitUntilSuspended({ name: 'tune broken', players: 3, seats: ['ext(name=broken-typed)', 'random', 'random'], deals: { firstSeed: 5, count: 1 }, tune: { method: 'spsa', seat: 0, params: [{ key: 'x', min: 0, max: 1 }], steps: 20, inFlight: 3 } });
    expect(tune.suspended).toMatch(/^its step \S+: outside agent 'broken-typed' failed \d+ games in a row, the last: (Error: )?outside agent 'broken-typed' exited with code 7/);
    const step = /^its step (\S+):/.exec(tune.suspended)![1];
    // The step is paused with it, or done already when the limit fell on its last game.
    const stepped = (await api(lab.url, `/api/sweeps/${step}?cellLimit=1`)).body;
    expect(stepped.stepOf).toBe(id);
    expect(['paused', 'done']).toContain(stepped.status);
    // Its other steps in flight are paused with it (or done): at once for those it had, and a step
    // the tune driver was making as it was suspended is paused by the driver or the ledger's second pass.
    await waitFor(async () => {
      const statuses = await Promise.all((tune.tune.inFlight as string[]).map(async (other) => (await api(lab.url, `/api/sweeps/${other}?cellLimit=1`)).body.status));
      return statuses.every((x) => x === 'paused' || x === 'done') ? statuses : undefined;
    }, "the tune's steps in flight paused", 5_000);
    // A step is paused and resumed with its tune, never alone: the tune would wait on it.
    for (const name of ['resume', 'pause']) {
      const alone = await api(lab.url, `/api/sweeps/${step}/${name}`, { method: 'POST' });
      expect(alone.status).toBe(409);
      expect(alone.body.error).toBe(`sweep ${step} is a step of tune ${id}: ${name} the tune (POST /api/sweeps/${id}/${name}), which ${name}s its steps`);
    }
    // No step is made while the tune is suspended.
    const proposed = tune.tune.proposed;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api(lab.url, `/api/sweeps/${id}?cellLimit=1`)).body.tune.proposed).toBe(proposed);
    const resumed = await api(lab.url, `/api/sweeps/${id}/resume`, { method: 'POST' });
    expect(resumed.body).toMatchObject({ status: 'running', suspended: null });
    // The tune goes on: its agent fails again, so it is suspended anew, five failures later.
    const again = await suspended(id);
    expect(again.tune.proposed).toBeGreaterThan(proposed);
    await api(lab.url, `/api/sweeps/${id}/cancel`, { method: 'POST' });
  }, 90_000);

  test('fault=forfeit: the games stand, marked in both exports; an agent forfeiting game after game suspends the sweep as failing them would', async () => {
    const { id, paused } = await submitUntilSuspended({ name: 'forfeits', players: 3, seats: ['ext(name=broken,fault=forfeit)', 'random', 'random'], deals: { count: 200 } });
    expect(paused.suspended).toMatch(/^outside agent 'broken' failed \d+ games in a row, the last: forfeited game \S+: outside agent 'broken' exited with code 7; its stderr ended: no luck/);
    expect(paused.counts.failed).toBe(0);
    expect(paused.counts.done).toBeGreaterThanOrEqual(5);
    expect(paused.counts.done).toBeLessThan(200);
    // Games in flight when it paused may still be stored: the CSV is read first, and each of its
    // games is then in the JSONL, read after.
    const [header, ...rows] = parseCsv(await (await fetch(`${lab.url}/api/sweeps/${id}/export?format=csv`)).text());
    const jsonl = (await (await fetch(`${lab.url}/api/sweeps/${id}/export?format=jsonl`)).text()).trim().split('\n').map((l) => JSON.parse(l));
    const csvGames = new Set(rows.map((r) => r[header.indexOf('game')]));
    expect(csvGames.size).toBeGreaterThanOrEqual(5);
    expect(rows).toHaveLength(csvGames.size * 3);
    for (const gameId of csvGames) {
      const g = jsonl.find((x) => x.id === gameId);
      expect(g, gameId).toBeDefined();
      const seat = g.players.find((p: any) => p.agent.startsWith('ext(')).seat;
      expect(g.forfeits).toEqual([{ seat, reason: expect.stringMatching(/^outside agent 'broken' exited with code 7/) }]);
      for (const row of rows.filter((r) => r[header.indexOf('game')] === gameId)) {
        expect(row[header.indexOf('forfeit')]).toBe(Number(row[header.indexOf('seat')]) === seat ? g.forfeits[0].reason : '');
      }
    }
    await api(lab.url, `/api/sweeps/${id}/cancel`, { method: 'POST' });
  }, 90_000);

  test('the play page: an outside agent as an opponent and as a hint', async () => {
    const post = (path: string, json: unknown, token?: string) => api(lab.url, path, { method: 'POST', json, headers: token ? { 'x-play-token': token } : {} });
    const created = await post('/api/play', { players: 3, seat: 0, agents: ['human', 'ext(name=node-first)', 'ext(name=py-random)'], seed: 12 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, token, view } = created.body;
    const moved = await post(`/api/play/${id}/move`, { move: view.hand[0].moves[0].move, version: view.version }, token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.version).toBe(3);
    const hint = await post(`/api/play/${id}/hint`, { agent: 'ext(name=node-first)' }, token);
    expect(hint.status, JSON.stringify(hint.body)).toBe(200);
    expect(hint.body.agent).toBe('ext(name=node-first)');
    expect(moved.body.hand.flatMap((c: any) => c.moves.map((m: any) => m.move))).toContain(hint.body.move.code);
    // The pages suggest the installed outside agents beside the kinds (the lab's catalogue lists them).
    const catalog = (await api(lab.url, '/api/schema/agents.json')).body;
    expect(catalog.outside.map((a: any) => a.spec)).toEqual(expect.arrayContaining(['ext(name=py-random)', 'ext(name=node-first)', 'ext(name=broken)']));
    expect(catalog.kinds.map((k: any) => k.kind)).toContain('ext');
    const refused = await post('/api/play', { players: 3, seat: 0, agents: ['human', 'ext(name=nobody)', 'random'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^body\.agents\.1: outside agent 'nobody': not installed/);
  });

  test('an agent that is not installed, or that does not play this many players, is a 400 naming the seat', async () => {
    const missing = await api(lab.url, '/api/sweeps', { method: 'POST', json: { ...spec('rulebased'), seats: ['rulebased', 'ext(name=nobody)', 'random'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('seats.1');
    expect(missing.body.error).toMatch(/outside agent 'nobody': not installed/);
  });
});
