/**
 * The coordinator's model checks (model-checks.ts) through the real API: a model file is read and
 * checked on a thread, never on the event loop; one over MAX_MODEL_BYTES is refused from its size
 * without being read; a check's result, failures included, is kept by the file's identity, so
 * asking again about an unchanged file costs a stat; links out of MODELS_DIR are answered as
 * missing files; the play page's agents are checked as a sweep's are; and a model file replaced
 * after a sweep was submitted fails that sweep's games, naming both hashes, instead of playing
 * them with another network.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/models', import.meta.url));
const MiB = 2 ** 20;
/** Large enough that reading and hashing a file of it takes the thread a while, as a real network's would. */
const LIMIT = 64 * MiB;

const root = mkdtempSync(join(tmpdir(), 'wl-model-checks-'));
const DIR = join(root, 'models');
let lab: TestLab;
let before: string | undefined;

beforeAll(async () => {
  mkdirSync(DIR);
  for (const name of ['policy-3p.onnx', 'net-3p.onnx']) copyFileSync(join(FIXTURES, name), join(DIR, name));
  before = process.env.MODELS_DIR;
  // Read by the coordinator's checks and by the game threads of the worker added below.
  process.env.MODELS_DIR = DIR;
  // No worker at first: the sweep whose model is replaced is submitted before any game is played.
  lab = await startLab({ workers: 0, env: { MAX_MODEL_BYTES: String(LIMIT) } });
});
afterAll(async () => {
  await lab?.close();
  if (before === undefined) delete process.env.MODELS_DIR;
  else process.env.MODELS_DIR = before;
  rmSync(root, { recursive: true, force: true });
});

const spec = (seat0: string, players = 3) => ({ name: 'model-checks', players, seats: [seat0, ...Array(players - 1).fill('random')], deals: { count: 2 } });
const validate = (seat0: string) => api(lab.url, '/api/sweeps/validate', { method: 'POST', json: spec(seat0) });
const loads = () => lab.coordinator.models.loads;
/** A sparse file of `bytes` zeros: as large as asked, nothing written to disk. */
const sparse = (name: string, bytes: number) => {
  writeFileSync(join(DIR, name), '');
  truncateSync(join(DIR, name), bytes);
};

describe('model checks at submit', () => {
  test('a file over MAX_MODEL_BYTES is refused from its size, naming the field, the model, its size and the setting; it is never read', async () => {
    sparse('huge.onnx', 1.5 * 2 ** 30);
    const first = loads();
    for (let i = 0; i < 2; i++) {
      const refused = await validate('policy(model=huge.onnx)');
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        field: 'seats.0',
        error: "seats.0: model 'huge.onnx': 1.50 GiB (1,610,612,736 bytes), over this lab's limit of 64.0 MiB (67,108,864 bytes) per model file (MAX_MODEL_BYTES)",
      });
    }
    expect(loads()).toBe(first);
  });

  test('a bad file under the limit is checked on a thread while /healthz answers; asked again, it is not read again until it changes', async () => {
    sparse('junk.onnx', LIMIT - 1);
    const first = loads();
    let settled = false;
    const checking = validate('policy(model=junk.onnx)').finally(() => (settled = true));
    // The request is at the thread once its load is counted: the event loop is free meanwhile.
    await waitFor(async () => loads() === first + 1, 'the check to reach its thread', 10_000, 5);
    const health = await api(lab.url, '/healthz');
    expect(health.status).toBe(200);
    expect(settled).toBe(false);
    const refused = await checking;
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('seats.0');
    expect(refused.body.error).toMatch(/^seats\.0: model 'junk\.onnx': not a model onnxruntime can load \(/);
    // The failure is kept by the file's identity: the same answer, from a stat.
    const again = await validate('policy(model=junk.onnx)');
    expect([again.status, again.body]).toEqual([400, refused.body]);
    expect(loads()).toBe(first + 1);
    // Touched, it is another file to the check: read again.
    utimesSync(join(DIR, 'junk.onnx'), 1_700_000_000, 1_700_000_000);
    expect((await validate('policy(model=junk.onnx)')).body).toEqual(refused.body);
    expect(loads()).toBe(first + 2);
  });

  test('a good model is read once, however often it is asked about', async () => {
    const ok = await validate('policy(model=policy-3p.onnx)');
    expect(ok.status).toBe(200);
    const after = loads();
    expect((await validate('mcts(it=10,time=0,model=policy-3p.onnx,prior=net)')).status).toBe(200);
    expect((await validate('policy(model=policy-3p.onnx)')).status).toBe(200);
    expect(loads()).toBe(after);
  });

  test('a link out of MODELS_DIR is answered as a missing file, whatever its target; a directory is named as one', async () => {
    symlinkSync('/etc/passwd', join(DIR, 'passwd.onnx'));
    symlinkSync(join(FIXTURES, 'policy-3p.onnx'), join(DIR, 'outside.onnx'));
    for (const name of ['passwd.onnx', 'outside.onnx', 'gone.onnx']) {
      const refused = await validate(`policy(model=${name})`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(`seats.0: model '${name}': no such file in MODELS_DIR (${DIR}; links out of it are not followed)`);
    }
    mkdirSync(join(DIR, 'folder.onnx'));
    expect((await validate('policy(model=folder.onnx)')).body.error).toBe("seats.0: model 'folder.onnx': a directory, not a model file");
  });
});

describe('model checks of the play page', () => {
  const play = (json: unknown) => api(lab.url, '/api/play', { method: 'POST', json });

  test('a game whose agent reads a missing or misfit network is a 400 naming the seat; a fitting one starts', async () => {
    const misfit = await play({ players: 4, seat: 0, agents: ['human', 'policy(model=policy-3p.onnx)', 'random', 'random'] });
    expect(misfit.status).toBe(400);
    expect(misfit.body).toMatchObject({ field: 'body.agents.1', error: expect.stringMatching(/^body\.agents\.1: model 'policy-3p\.onnx': reads observations of 675 values \(3 players\), a game of 4 has 846/) });
    const missing = await play({ players: 3, seat: 1, agents: ['random', 'human', 'policy(model=gone.onnx)'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'body.agents.2', error: expect.stringMatching(/^body\.agents\.2: model 'gone\.onnx': no such file in MODELS_DIR/) });
    const created = await play({ players: 3, seat: 0, agents: ['human', 'policy(model=policy-3p.onnx)', 'random'], seed: 3 });
    expect(created.status).toBe(201);
  });

  test('a hint from an agent whose network is missing or misfit is a 400 naming body.agent', async () => {
    const { id, token } = (await play({ players: 3, seat: 0, agents: ['human', 'random', 'random'], seed: 4 })).body;
    const hint = (agent: string) => api(lab.url, `/api/play/${id}/hint`, { method: 'POST', json: { agent }, headers: { 'x-play-token': token } });
    const missing = await hint('policy(model=gone.onnx)');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'body.agent', error: expect.stringMatching(/^body\.agent: model 'gone\.onnx': no such file in MODELS_DIR/) });
    const noValues = await hint('mcts(it=10,time=0,model=policy-3p.onnx,eval=net)');
    expect(noValues.status).toBe(400);
    expect(noValues.body.error).toMatch(/^body\.agent: model 'policy-3p\.onnx': eval=net needs a network with values/);
    expect((await hint('policy(model=policy-3p.onnx)')).status).toBe(200);
  });
});

describe('a model file replaced after submit', () => {
  test("fails the sweep's games with both hashes, in batches and game by game; none is played by the new file", async () => {
    const original = readFileSync(join(DIR, 'net-3p.onnx'));
    writeFileSync(join(DIR, 'swapped.onnx'), original);
    const seat = 'mcts(it=10,time=0,model=swapped.onnx,eval=net)';
    const batched = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec(seat) });
    // A stopping sweep's games go a game per job.
    const single = await api(lab.url, '/api/sweeps', { method: 'POST', json: { ...spec(seat), stop: { sprt: { seats: [0, 1], elo0: 0, elo1: 50 } } } });
    expect([batched.status, single.status]).toEqual([201, 201]);
    // Another network of the same shape in its place (a retrained generation, say).
    const replaced = Buffer.from(original);
    replaced[Math.floor(replaced.length / 2)] ^= 1;
    writeFileSync(join(DIR, 'swapped.onnx'), replaced);
    lab.addWorker(1);
    const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const reason = `model 'swapped.onnx' changed since the sweep was submitted: sha256 ${sha(original)}… recorded, ${sha(replaced)}… now`;
    for (const created of [batched, single]) {
      const done = await waitForSweep(lab, created.body.id);
      expect(done.counts).toMatchObject({ done: 0, failed: created.body.games });
      const games = await waitFor(async () => (await api(lab.url, `/api/sweeps/${created.body.id}/games`)).body, 'the games');
      expect(games.items.map((g: any) => [g.state, g.error])).toEqual(games.items.map(() => ['failed', reason]));
    }
  });
});
