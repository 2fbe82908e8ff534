/**
 * `npm run bench:compare -- [REF] [--rounds N] [--bench NAME]`: the same benchmark (default
 * `engine`) on the build of REF (default HEAD~1) and on this checkout's build, in alternating
 * processes (old, new, old, new, …), then per figure the two medians and the ratio new/old, so that
 * a regression shows as a number. Alternating spreads a busy or warming machine's drift over both
 * builds instead of charging it to whichever ran second.
 *
 * With --same-process, the two builds run instead in one process, in alternating slices of a few
 * workloads (ab.ts), which measures a few per cent where whole runs drift by tens.
 *
 * REF is built in a temporary git worktree (npm ci, tsc -b) that is removed afterwards. This
 * checkout is taken as built (the npm script runs tsc -b first), uncommitted changes included.
 */
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRuns, formatComparison, parseFigures, type Figures } from './figures.js';
import { formatBothOrders } from './interleave.js';
import { processorLine } from '../src/lab/results/provenance.js';

interface Options {
  ref: string;
  rounds: number;
  bench: string;
  sameProcess: boolean;
}

const USAGE =
  'usage: npm run bench:compare -- [REF (default HEAD~1)] [--rounds N (default 3)] [--bench engine|agents|records] [--same-process]';

function parseArgs(argv: string[]): Options {
  const opts: Options = { ref: 'HEAD~1', rounds: 3, bench: 'engine', sameProcess: false };
  let refGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rounds') {
      opts.rounds = Number(argv[++i]);
      if (!Number.isInteger(opts.rounds) || opts.rounds < 1) fail(`--rounds: expected a positive integer, got '${argv[i]}'`);
    } else if (a === '--bench') {
      opts.bench = argv[++i] ?? '';
      if (!/^[a-z][a-z0-9-]*$/.test(opts.bench)) fail(`--bench: expected a benchmark name such as engine, got '${opts.bench}'`);
    } else if (a === '--same-process') {
      opts.sameProcess = true;
    } else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (!a.startsWith('-') && !refGiven) {
      opts.ref = a;
      refGiven = true;
    } else {
      fail(`unexpected argument '${a}'`);
    }
  }
  return opts;
}

function fail(message: string): never {
  console.error(`bench:compare: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The child running now, so that an interrupt can stop it before the worktree goes. */
let current: ChildProcess | undefined;

/**
 * Runs a command to completion and returns its stdout. Asynchronous, unlike spawnSync, so that a
 * SIGINT or SIGTERM is handled while a long build or benchmark runs rather than after it.
 */
function run(cmd: string, args: string[], cwd: string, stdio: StdioOptions = ['ignore', 'pipe', 'inherit']): Promise<string> {
  return new Promise((done, failed) => {
    const child = spawn(cmd, args, { cwd, stdio });
    current = child;
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', failed);
    child.on('close', (code, signal) => {
      current = undefined;
      if (code === 0) done(out);
      else failed(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${code ?? signal}`));
    });
  });
}

async function git(root: string, ...args: string[]): Promise<string> {
  return (await run('git', args, root)).trim();
}

async function benchOnce(checkout: string, bench: string): Promise<Figures> {
  const file = join(checkout, 'shared', 'dist', 'bench', `${bench}.js`);
  // As `npm run bench` runs it, and the lab's workers their games: one thread's garbage collection.
  return parseFigures(await run(process.execPath, ['--single-threaded-gc', file], checkout));
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  // This file runs as shared/dist/bench/compare.js.
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const root = await git(here, 'rev-parse', '--show-toplevel');
  const sha = await git(root, 'rev-parse', '--verify', `${opts.ref}^{commit}`);
  const label = `${opts.ref} (${sha.slice(0, 7)})`;
  if (!existsSync(join(root, 'shared', 'dist', 'bench', `${opts.bench}.js`))) {
    fail(`no shared/dist/bench/${opts.bench}.js in this checkout: build it first (npm run build)`);
  }

  const tree = mkdtempSync(join(tmpdir(), 'wonderlab-bench-'));
  let removed = false;
  const removeTree = () => {
    if (removed) return;
    removed = true;
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
    rmSync(tree, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
  };
  // process.exit skips finally blocks; 'exit' listeners run on every way out.
  process.on('exit', removeTree);
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    const child = current;
    if (!child) process.exit(code);
    // npm ci keeps writing into the tree for a while after a SIGINT: wait for it, then remove.
    child.on('close', () => process.exit(code));
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  console.error(`bench:compare: building ${label} in ${tree}`);
  await git(root, 'worktree', 'add', '--detach', tree, sha);
  // stdout to stderr as well: npm's and tsc's chatter is progress, not result.
  const toStderr: StdioOptions = ['ignore', 2, 2];
  await run('npm', ['ci', '--no-audit', '--no-fund'], tree, toStderr);
  await run('npx', ['tsc', '-b'], tree, toStderr);
  if (!existsSync(join(tree, 'shared', 'dist', 'bench', `${opts.bench}.js`))) {
    fail(`${label} has no ${opts.bench} benchmark (shared/bench/${opts.bench}.ts)`);
  }

  if (opts.sameProcess) {
    // Both builds in one process, in alternating slices (ab.ts): steadier on a drifting machine.
    // Twice, each build loaded first once: the first loaded runs a little faster.
    const ab = join(root, 'shared', 'dist', 'bench', 'ab.js');
    const oldFirst = await run(process.execPath, [ab, tree, root], root);
    process.stdout.write(oldFirst);
    const newFirst = await run(process.execPath, [ab, tree, root, '--load-new-first'], root);
    process.stdout.write(newFirst);
    process.stdout.write(formatBothOrders(oldFirst, newFirst));
    return;
  }

  const oldRuns: Figures[] = [];
  const newRuns: Figures[] = [];
  for (let i = 1; i <= opts.rounds; i++) {
    console.error(`bench:compare: round ${i}/${opts.rounds}: old`);
    oldRuns.push(await benchOnce(tree, opts.bench));
    console.error(`bench:compare: round ${i}/${opts.rounds}: new`);
    newRuns.push(await benchOnce(root, opts.bench));
  }

  console.log(processorLine());
  console.log(`# bench:compare ${opts.bench} — old: ${label}, new: this checkout; ${opts.rounds} runs each, alternating`);
  console.log('# medians over the runs; ± is half the range of the runs; ratio > 1: the new figure is larger');
  for (const c of compareRuns(oldRuns, newRuns)) console.log(formatComparison(c));
}

main().catch((err: unknown) => {
  console.error(`bench:compare: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
