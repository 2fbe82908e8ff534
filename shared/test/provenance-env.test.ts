/**
 * The code version of a process without git (an image): WONDERLAB_COMMIT and WONDERLAB_DIRTY, the
 * Dockerfile's build arguments, become the commit and dirty flag every sweep records; empty ones
 * mean unknown, and git answers where there is one.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROVENANCE = fileURLToPath(new URL('../dist/src/lab/results/provenance.js', import.meta.url));

/** codeVersion() in a fresh process with this environment (nothing inherited but PATH). */
function versionWith(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(PROVENANCE)}).then((m) => console.log(JSON.stringify(m.codeVersion())))`], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('the code version from an image\'s build arguments', () => {
  it('takes the commit and the dirty flag from the environment', () => {
    expect(versionWith({ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: 'false' })).toMatchObject({ commit: 'abc123', dirty: false });
    expect(versionWith({ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: 'true' })).toMatchObject({ commit: 'abc123', dirty: true });
    expect(versionWith({ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: '' }).dirty).toBeUndefined();
  });

  it('asks git when the variables are empty, as an image built without them passes them', () => {
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    const v = versionWith({ WONDERLAB_COMMIT: '', WONDERLAB_DIRTY: '' });
    expect(v.commit).toBe(head);
    expect(typeof v.dirty).toBe('boolean');
  });
});
