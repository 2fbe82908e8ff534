/**
 * `wonderlab remote` as a user runs it (the real bin in a child process) against a real lab with
 * an API token: submit, wait with a progress bar, status, export, cancel, and the errors and exit
 * codes of the other commands (2 for bad input, 1 otherwise).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseSweepSpec } from '@wonderlab/shared';
import { api, startLab, waitForSweep, type TestLab } from './harness.js';

const BIN = resolve(import.meta.dirname, '../../../bin/wonderlab.mjs');
const TOKEN = 'remote-secret';
const dir = mkdtempSync(join(tmpdir(), 'wonderlab-remote-'));
let lab: TestLab;

/** The bin in a child process, without blocking this process (the lab runs here). */
function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runWith({}, ...args);
}

function runWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, WONDERLAB_URL: '', WONDERLAB_TOKEN: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const spec = { name: 'remote test', players: 3, seats: [{ agent: 'mcts', params: { it: [5, 10] } }, 'rulebased', 'random'], deals: { count: 3 } };

beforeAll(async () => {
  lab = await startLab({ workers: 1, slots: 2, apiToken: TOKEN });
});
afterAll(async () => {
  await lab?.close();
});

describe('wonderlab remote', () => {
  test('submit needs the token; submitted, wait draws a progress bar until done, then prints the status and the summary with ratings', async () => {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify(spec));
    const refused = await run('remote', 'submit', file, '--url', lab.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^wonderlab remote: the lab at .* needs its API token \(--token or WONDERLAB_TOKEN\)/);

    const submitted = await run('remote', 'submit', file, '--url', lab.url, '--token', TOKEN);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.split(/\s+/)[0];
    expect(submitted.stdout).toContain(`remote test: 6 games in 2 cells`);
    const stored = (await api(lab.url, `/api/sweeps/${id}`)).body;
    expect(stored.spec).toEqual(JSON.parse(JSON.stringify(parseSweepSpec(spec))));

    const waited = await run('remote', 'wait', id, '--url', lab.url, '--every', '0.1');
    expect(waited.code, waited.stderr).toBe(0);
    const bars = waited.stderr.trim().split('\n');
    for (const bar of bars) expect(bar).toMatch(/^\[[#.]{30}\] +\d+\.\d % \d+\/6 games, \d+\.\d\d games\/s, ETA .* \((running|done)\)$/);
    expect(bars[bars.length - 1]).toMatch(/^\[#{30}\] 100\.0 % 6\/6 games, .* \(done\)$/);
    expect(waited.stdout).toContain(`remote test (${id}): done`);
    expect(waited.stdout).toContain('All cells: each agent pooled over the cells it plays in');
    expect(waited.stdout).toMatch(/Ratings: Bradley–Terry on the Elo scale, 0 = the mean of each component, over 6 games/);

    const status = await run('remote', 'status', id, '--url', lab.url, '--json');
    expect(status.code).toBe(0);
    const detail = JSON.parse(status.stdout);
    const now = (await api(lab.url, `/api/sweeps/${id}`)).body;
    expect({ id: detail.id, status: detail.status, counts: detail.counts, ratings: detail.ratings }).toEqual({ id: now.id, status: now.status, counts: now.counts, ratings: now.ratings });

    // Exports: to a file, and to stdout, as the API gives them.
    const out = join(dir, 'summary.csv');
    const exported = await run('remote', 'export', id, '--url', lab.url, '--format', 'summary-csv', '--out', out);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(await (await fetch(`${lab.url}/api/sweeps/${id}/summary?format=csv`)).text());
    const games = await run('remote', 'export', id, '--url', lab.url, '--format', 'jsonl');
    expect(games.code).toBe(0);
    expect(games.stdout).toBe(await (await fetch(`${lab.url}/api/sweeps/${id}/export?format=jsonl`)).text());
    expect(games.stdout.trim().split('\n')).toHaveLength(6);
  }, 60_000);

  test('cancel stops a sweep; waiting for a cancelled sweep exits 1', async () => {
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify({ ...spec, name: 'remote long', seats: ['mcts(it=300)', 'rulebased', 'random'], deals: { count: 500 } }));
    const submitted = await run('remote', 'submit', file, '--url', lab.url, '--token', TOKEN);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.split(/\s+/)[0];
    const cancelled = await run('remote', 'cancel', id, '--url', lab.url, '--token', TOKEN);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`^${id}: cancelled after \\d+ of 500 games`));
    await waitForSweep(lab, id, 30_000);
    const waited = await run('remote', 'wait', id, '--url', lab.url);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toMatch(new RegExp(`wonderlab remote: sweep ${id} was cancelled after \\d+ of 500 games`));
    const list = await run('remote', 'list', '--url', lab.url);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`\\n${id} +cancelled `));
  }, 60_000);

  test('submit <preset> --deals N shrinks the preset as sweep run does; the lab comes from WONDERLAB_URL without --url', async () => {
    const submitted = await runWith({ WONDERLAB_URL: lab.url, WONDERLAB_TOKEN: TOKEN }, 'remote', 'submit', 'quick-demo', '--deals', '2');
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.split(/\s+/)[0];
    expect(submitted.stdout).toContain(': 2 games in 1 cell');
    const stored = (await api(lab.url, `/api/sweeps/${id}`)).body;
    const preset = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../presets/quick-demo.json'), 'utf8'));
    expect(stored.spec).toEqual(JSON.parse(JSON.stringify(parseSweepSpec({ ...preset, deals: { ...preset.deals, count: 2 } }))));
    expect(stored.spec.deals.count).toBe(2);
    await run('remote', 'cancel', id, '--url', lab.url, '--token', TOKEN);
  }, 60_000);

  test('tune --wait follows a tune and its confirmation, then prints the recommendation and the verdict as the API has them', async () => {
    const file = join(dir, 'race.json');
    const race = {
      name: 'remote race',
      players: 3,
      seats: [{ agent: 'mcts', params: { it: [1, 20], depth: 3 } }, 'random', 'random'],
      seating: 'rotate',
      deals: { firstSeed: 300, count: 30 },
      tune: { method: 'racing', delta: 0.2, epsilon: 0.45, roundDeals: 5, confirm: { firstSeed: 60_000, deals: 4 } },
    };
    writeFileSync(file, JSON.stringify(race));
    const tuned = await run('remote', 'tune', file, '--wait', '--every', '0.2', '--url', lab.url, '--token', TOKEN);
    expect(tuned.code, tuned.stderr).toBe(0);
    const id = tuned.stdout.split(/\s+/)[0];
    const d = (await api(lab.url, `/api/sweeps/${id}`)).body;
    expect(d.tune.confirmation.status).toBe('done');
    expect(tuned.stdout).toContain(`recommendation: ${d.tune.recommendation}`);
    expect(tuned.stdout).toMatch(new RegExp(`confirmation ${d.tune.confirmation.sweep} \\(done\\): ${d.tune.confirmation.games} games, SPRT `));
    expect(tuned.stderr).toMatch(/^racing: /);
    // status names the tune's part too; a spec without "tune" is refused before anything is sent.
    expect((await run('remote', 'status', id, '--url', lab.url)).stdout).toContain(`recommendation: ${d.tune.recommendation}`);
    const sweepFile = join(dir, 'not-a-tune.json');
    writeFileSync(sweepFile, JSON.stringify(spec));
    const refused = await run('remote', 'tune', sweepFile, '--url', lab.url, '--token', TOKEN);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe('wonderlab remote: remote tune submits a tune: give a spec with "tune" (docs/tuning.md), or use remote submit for a sweep');
  }, 120_000);

  test('bad input exits 2, an unknown sweep or an unreachable lab exits 1, each with one line saying what is wrong', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...spec, seats: ['mcts(it=abc)', 'rulebased', 'random'] }));
    const refused = await run('remote', 'submit', bad, '--url', lab.url, '--token', TOKEN);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toMatch(/^wonderlab remote: seats\.0: agent 'mcts\(it=abc\)': it: expected an integer/);
    expect((await run('remote', 'status', 'x1', '--url', lab.url)).code).toBe(2);
    const unknown = await run('remote', 'status', 'zzzzzzzzzz', '--url', lab.url);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("wonderlab remote: no sweep 'zzzzzzzzzz'\n");
    const notUrl = await run('remote', 'status', 'zzzzzzzzzz', '--url', 'lab');
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr.split('\n')[0]).toBe("wonderlab remote: --url: 'lab' is not a URL (e.g. http://127.0.0.1:8080)");
    const away = await run('remote', 'list', '--url', 'http://127.0.0.1:1');
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(/^wonderlab remote: cannot reach the lab at http:\/\/127\.0\.0\.1:1\//);
    expect((await run('remote', 'frobnicate', '--url', lab.url)).code).toBe(2);
    expect((await run('remote', 'export', 'zzzzzzzzzz', '--url', lab.url, '--format', 'xml')).code).toBe(2);
    // A name of Object's prototype is an unknown format too, not a path made of a function's text.
    const inherited = await run('remote', 'export', 'zzzzzzzzzz', '--url', lab.url, '--format', 'constructor');
    expect(inherited.code).toBe(2);
    expect(inherited.stderr).toContain("--format must be one of csv, jsonl, summary-csv, summary-json, training, got 'constructor'");
    // A mistyped option or a missing value: one line in the words of the other errors, not Node's.
    const typo = await run('remote', 'submit', 'quick-demo', '--deal', '10', '--url', lab.url);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("wonderlab remote: unknown option '--deal'\nrun \"wonderlab remote --help\" for its options\n");
    const missing = await run('remote', 'submit', 'quick-demo', '--url', lab.url, '--deals');
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('wonderlab remote: --deals needs a value');
    const zero = await run('remote', 'submit', 'quick-demo', '--url', lab.url, '--deals', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr.split('\n')[0]).toBe("wonderlab remote: --deals must be a positive integer, got '0'");
    const help = await run('remote', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: wonderlab remote <command> [options] [--url URL] [--token T]');
  }, 60_000);
});
