/**
 * The Python package (python/): its pytest suite, run here so that the README's one test command
 * covers it. The suite drives the real `wonderlab env` server through PettingZoo's api_test and
 * seed_test and Gymnasium's check_env. The environment is .venv at the repository root, made by
 * python/setup.sh (which .ci/run calls, and vitest's global setup when .venv is missing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = `${ROOT}.venv/bin/python`;

describe('python package', () => {
  it('passes its pytest suite (api_test, seed_test, check_env, refusals, replay)', () => {
    expect(existsSync(PYTHON), 'the Python environment (made by vitest\'s global setup, test/support/python-env.ts)').toBe(true);
    // The server the tests start is this checkout's build (tsc -b ran in the typecheck).
    // -rs: a skipped test's reason is printed (the trainer's tests skip without torch).
    const run = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', 'python/tests'], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(run.status, run.stdout.slice(-4000) + run.stderr.slice(-2000)).toBe(0);
    expect(summary).toMatch(/^\d+ passed/);
    // Nothing skipped: the suite (and so CI, which installs the train extra) runs the trainer's tests.
    expect(summary, run.stdout.slice(-4000)).not.toMatch(/skipped/);
  }, 900_000);
});
