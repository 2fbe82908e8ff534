/**
 * A fresh clone, README only (issue 60): every command the README and docs/ print runs as written.
 *
 * The commands are every line of their ```sh blocks (a line ending in `\` joined to the next, a
 * trailing `# comment` dropped) and every inline `npx wonderlab …` or `curl …`. Each one is run
 * here, in the order printed, by bash from the repository's root, or is in NOT_RUN with the reason
 * (a suite of its own, Docker, a browser, CPU-hours); a command added to the docs is run unless it
 * is listed there, and a listed command the docs no longer print fails the test. A command fails
 * when it exits non-zero, or, for curl (which exits 0 on an HTTP error), when the lab answered an
 * error.
 *
 * The lab they talk to is started as the README's first screen says: `npm start --
 * --private-redis` (its own redis-server, data in a temporary DATA_DIR, on a free PORT). The
 * commands' http://127.0.0.1:8080 is its address, WONDERLAB_URL tells `npx wonderlab remote` the
 * same, and `<id>` is the sweep the last command before it created. What the commands write in
 * the checkout is WRITES: none of it may be there before (the test would overwrite it), all of it
 * is removed after, and nothing else may appear.
 *
 * Needs the build, redis-server on PATH and the Python environment (.venv, made by vitest's global
 * setup). Takes minutes: it plays a few hundred small games and trains three small networks.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, waitUntil } from './support/processes.js';

/** A command as printed: where, and its text. */
interface Printed {
  file: string;
  line: number;
  command: string;
}

/** The commands a markdown text prints: its sh blocks' lines, and inline `npx wonderlab …` and `curl …`. */
export function printedCommands(file: string, text: string): Printed[] {
  const out: Printed[] = [];
  const lines = text.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]);
    if (open) {
      fence = fence === undefined ? open[1] : undefined;
      continue;
    }
    if (fence === undefined) {
      for (const m of lines[i].matchAll(/`((?:npx wonderlab|curl) [^`]+)`/g)) out.push({ file, line: i + 1, command: m[1] });
      continue;
    }
    if (fence !== 'sh' && fence !== 'bash') continue;
    const line = i + 1;
    let command = lines[i];
    while (command.endsWith('\\') && i + 1 < lines.length) command = `${command.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
    command = command.replace(/\s+#\s.*$/, '').trim();
    if (command !== '' && !command.startsWith('#')) out.push({ file, line, command });
  }
  return out;
}

/** The commands not run here, each with the reason; every one is printed somewhere. */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm start': 'npm ci would reinstall node_modules under the running tests; this file starts the lab with `npm start -- --private-redis`',
  'npm ci && npm test': 'the whole suite, this file among it',
  'npm start': 'the lab this file started',
  'npm test': 'the whole suite, this file among it',
  'npm run typecheck': 'run by npm test before the suite',
  'npm run chaos': 'a suite of its own (kills processes for minutes)',
  'npm run lint:deploy': 'runs kubectl kustomize; test/deployment.test.ts runs the linter',
  'npm run bench': 'benchmarks, minutes of CPU',
  'npm run bench:compare -- REF --same-process': 'benchmarks against another checkout (REF)',
  'bash python/setup.sh': 'installs PyTorch; vitest\'s global setup has run it',
  '.venv/bin/pytest python/tests': 'test/python.test.ts runs the Python suite',
  "python3 -c \"import pandas as pd; print(pd.read_json('http://127.0.0.1:8080/api/sweeps/<id>/summary?format=json'))\"": 'needs pandas, which the lab does not install',
  'npx wonderlab play --ai="mcts:500,10,100;rulebased;rulebased" --setup thesis --out games.jsonl': "the thesis's Table 7.4 row, 1050 games at 500 iterations: CPU-minutes (cli-play.test.ts plays --setup thesis with --deals)",
  'npx wonderlab learn --name g --generations 5 --self-play 2000 --eval-games 2000': 'days of CPU; the small run printed above it is run',
  'cp .env.example .env': 'Docker (test/docker-build.sh builds and runs the images)',
  'bin/build-images': 'Docker (test/docker-build.sh runs it)',
  'docker compose up -d': 'Docker (test/docker-build.sh)',
  'docker compose logs -f worker': 'Docker (test/docker-build.sh)',
  'docker compose down': 'Docker (test/docker-build.sh)',
  'docker compose -f docker-compose.yml -f docker-compose.host-redis.yml up -d redis': 'Docker (test/docker-build.sh)',
  'REDIS_URL=redis://127.0.0.1:6379 npm start': 'a lab that runs until stopped, on the shared Redis; this file starts its own with --private-redis',
  'open http://localhost:8081/': 'opens a browser',
};

/** A command still running after this is killed and counted as failed (a lab started by a doc's command never exits). */
const COMMAND_LIMIT_MS = 300_000;

/** What the commands write in the checkout, removed after them. */
const WRITES = ['games.csv', 'summary.csv', 'rows', 'rows-strong', 'self-play.json', 'models/net.onnx', 'models/net.json', 'models/net-g1.onnx', 'models/net-g1.json', 'models/try', 'runs/try'];

const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const PRINTED = FILES.flatMap((file) => printedCommands(file, readFileSync(join(ROOT, file), 'utf8')));

/** The checkout's untracked and ignored entries, as git lists them (folders whole). */
function untracked(): Set<string> {
  const r = spawnSync('git', ['status', '--porcelain', '--ignored'], { cwd: ROOT, encoding: 'utf8' });
  return new Set(r.stdout.split('\n').filter((l) => l.startsWith('?? ') || l.startsWith('!! ')).map((l) => l.slice(3)));
}

function run(command: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The lab's answer in a curl command's output (or the file it was sent to), when it is an error. */
function labError(command: string, stdout: string): string | undefined {
  if (!command.startsWith('curl ')) return undefined;
  const file = /> *(\S+)\s*$/.exec(command)?.[1];
  const text = file ? readFileSync(join(ROOT, file), 'utf8') : stdout;
  try {
    const body = JSON.parse(text) as { error?: string };
    return typeof body?.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

describe('the commands the README and docs print', () => {
  test('each is run below or listed as not run, with the reason; every one listed is still printed', () => {
    const commands = new Set(PRINTED.map((p) => p.command));
    expect(Object.keys(NOT_RUN).filter((c) => !commands.has(c)), 'listed as not run, but printed nowhere').toEqual([]);
    expect(PRINTED.filter((p) => !(p.command in NOT_RUN)).length).toBeGreaterThan(15);
  });

  test('a tournament printed to be run says how many games it plays: without --games, play plays 1000', () => {
    const unsized = PRINTED.filter((p) => /^npx wonderlab play /.test(p.command) && !(p.command in NOT_RUN) && !/ --(games|deals) \d+/.test(p.command));
    expect(unsized.map((p) => `${p.file}:${p.line}: ${p.command}`)).toEqual([]);
  });

  describe('run as written, against a lab started with npm start -- --private-redis', () => {
    let lab: ChildProcess | undefined;
    let labUrl = '';
    let labLog = '';
    const dataDir = mkdtempSync(join(tmpdir(), 'wl-docs-redis-'));
    let before = new Set<string>();
    let id: string | undefined;

    beforeAll(async () => {
      const there = WRITES.filter((path) => existsSync(join(ROOT, path)));
      if (there.length > 0) throw new Error(`the docs' commands would overwrite ${there.join(', ')}: move them away first`);
      before = untracked();
      const { NODE_OPTIONS: _ignored, ...env } = process.env;
      // Its own process group: a stop reaches npm, node and the redis-server they started.
      lab = spawn('npm', ['start', '--', '--private-redis'], { cwd: ROOT, detached: true, env: { ...env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
      lab.stdout!.on('data', (d) => (labLog += d));
      lab.stderr!.on('data', (d) => (labLog += d));
      labUrl = await waitUntil(() => {
        if (lab!.exitCode !== null) throw new Error(`npm start exited (${lab!.exitCode}):\n${labLog}`);
        return /Wonderlab is running: open the dashboard at (http:\/\/[^/\s]+)\//.exec(labLog)?.[1];
      }, 'the lab to start', 120_000, 100);
    }, 150_000);

    afterAll(async () => {
      if (lab?.pid !== undefined && lab.exitCode === null) {
        const exited = new Promise((resolve) => lab!.once('close', resolve));
        process.kill(-lab.pid, 'SIGINT');
        const timer = setTimeout(() => process.kill(-lab!.pid!, 'SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      for (const path of WRITES) rmSync(join(ROOT, path), { recursive: true, force: true });
      for (const dir of ['models', 'runs']) {
        if (!before.has(`${dir}/`) && existsSync(join(ROOT, dir)) && readdirSync(join(ROOT, dir)).length === 0) rmdirSync(join(ROOT, dir));
      }
    }, 60_000);

    test.each(FILES)('%s', async (file) => {
      const { NODE_OPTIONS: _ignored, WONDERLAB_TOKEN: _token, ...inherited } = process.env;
      const env = { ...inherited, WONDERLAB_URL: labUrl };
      const failed: string[] = [];
      for (const p of PRINTED.filter((x) => x.file === file && !(x.command in NOT_RUN))) {
        if (p.command.includes('<id>') && id === undefined) {
          failed.push(`${p.file}:${p.line}: ${p.command}\n  needs a sweep id, and no command before it made a sweep`);
          continue;
        }
        const command = p.command.replaceAll('http://127.0.0.1:8080', labUrl).replaceAll('<id>', id ?? '');
        const r = await run(command, env, COMMAND_LIMIT_MS);
        const error = r.code === 0 ? labError(p.command, r.stdout) : r.code === null ? `still running after ${COMMAND_LIMIT_MS / 1000} s: killed` : `exit ${r.code}`;
        if (error !== undefined) failed.push(`${p.file}:${p.line}: ${p.command}\n  ${error}\n  ${(r.stderr + r.stdout).trim().split('\n').slice(-6).join('\n  ')}`);
        // The sweep a command made, by the page both name: the API's 201 (its url) and `remote submit`.
        id = /\/sweeps\/([a-z0-9]+)/.exec(r.stdout)?.[1] ?? id;
      }
      expect(failed).toEqual([]);
    }, 1_200_000);

    test('they wrote nothing in the checkout but what WRITES lists', () => {
      const written = [...untracked()].filter((path) => !before.has(path));
      const listed = (path: string) => WRITES.some((w) => path === w || path === `${w}/` || w.startsWith(path));
      expect(written.filter((path) => !listed(path))).toEqual([]);
    });
  });
});
