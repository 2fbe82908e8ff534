/**
 * Vitest's global setup: the repository's Python environment (.venv, made by python/setup.sh)
 * before any test file runs. Several files use it at once (the pytest suite, the .npz check read
 * by NumPy, `wonderlab learn`'s trainer), so it is made here once rather than by whichever file
 * comes first; on a fresh clone `npm test` then works without .ci/run. With --train (torch):
 * the suite runs the trainer's tests. A .venv whose Python imports the package is left as it is
 * (one without torch fails those tests with the command that adds it); one left half-made by an
 * interrupted setup is made again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): void {
  const python = `${ROOT}/.venv/bin/python`;
  if (existsSync(python) && spawnSync(python, ['-c', 'import wonderlab'], { cwd: ROOT }).status === 0) return;
  const made = spawnSync('bash', ['python/setup.sh', '--train'], { cwd: ROOT, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`python/setup.sh --train failed (exit ${made.status}):\n${made.stdout.slice(-2000)}${made.stderr.slice(-2000)}`);
}
