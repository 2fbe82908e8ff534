// staleBuild: a process refuses to run a dist/ older than its sources (the lab would stamp old
// code with the new commit). Checked on a repository laid out in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { staleBuild } from '../src/lab/results/provenance.js';

let root: string;
const BUILT = new Date('2026-11-28T10:00:00Z');
const before = new Date(BUILT.getTime() - 60_000);
const after = new Date(BUILT.getTime() + 60_000);

function file(path: string, time: Date, text = ''): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  utimesSync(full, time, time);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'stale-build-'));
  file('tsconfig.json', before, JSON.stringify({ files: [], references: [{ path: 'shared' }, { path: 'services/worker' }] }));
  for (const project of ['shared', 'services/worker']) {
    file(`${project}/dist/tsconfig.tsbuildinfo`, BUILT);
    file(`${project}/src/index.ts`, before);
  }
  file('shared/src/lab/papers/tables.json', before);
  file('services/worker/bench/slots.ts', before);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleBuild', () => {
  test('every source older than its project\'s build: nothing to say', () => {
    expect(staleBuild(root)).toBeUndefined();
  });

  test('a source edited after the build, however deep: named, with the project to build', () => {
    utimesSync(join(root, 'shared/src/lab/papers/tables.json'), after, after);
    const said = staleBuild(root);
    expect(said).toContain('shared/src/lab/papers/tables.json is newer than shared/dist');
    expect(said).toContain('npm run build');
  });

  test('a bench source of a service counts too', () => {
    utimesSync(join(root, 'services/worker/bench/slots.ts'), after, after);
    expect(staleBuild(root)).toContain('services/worker/bench/slots.ts is newer than services/worker/dist');
  });

  test('files the compiler does not read do not count', () => {
    file('shared/src/store/lua/claim.lua', after);
    file('shared/src/README.md', after);
    expect(staleBuild(root)).toBeUndefined();
  });

  test('a project never built, or no tsconfig.json (an image without sources): nothing to compare', () => {
    utimesSync(join(root, 'shared/src/index.ts'), after, after);
    rmSync(join(root, 'shared/dist'), { recursive: true });
    expect(staleBuild(root)).toBeUndefined();
    utimesSync(join(root, 'services/worker/src/index.ts'), after, after);
    expect(staleBuild(root)).toContain('services/worker/src/index.ts');
    rmSync(join(root, 'tsconfig.json'));
    expect(staleBuild(root)).toBeUndefined();
  });
});
