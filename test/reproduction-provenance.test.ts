/**
 * What the reproduction collectors record of a sweep's provenance (reproduction/scripts/provenance.mjs):
 * the code version and dirty flag the lab reported for the sweep, never the collecting
 * checkout's; a sweep played from uncommitted code refused unless allowed, and then marked.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const reproduction = new URL('../reproduction/', import.meta.url);
const scriptsDir = new URL('scripts/', reproduction);
// A script of the reproduction folder (plain ESM, untyped: imported by URL).
const { ProvenanceError, shortCommit, sweepProvenance } = await import(new URL('provenance.mjs', scriptsDir).href);

const COMMIT = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);

/** A sweep detail as GET /api/sweeps/:id gives it, reduced to what provenance reads. */
function detail(code: object | null, workers: object[]) {
  return {
    id: 'mx1',
    name: 'repro/thesis-7.4-iterations/d50/s1000000',
    status: 'done',
    spec: { deals: { firstSeed: 1_000_000, count: 50 } },
    counts: { done: 3150, failed: 0 },
    firstGameAt: '2026-12-01T10:00:01.000Z',
    lastGameAt: '2026-12-01T10:30:00.000Z',
    provenance: {
      code,
      created: '2026-12-01T10:00:00.000Z',
      startedAt: '2026-12-01T10:00:00.500Z',
      finishedAt: '2026-12-01T10:30:00.500Z',
      wallSeconds: 1800,
      activeSeconds: 1790,
      cpuSeconds: 3500.5,
      workers,
    },
  };
}

const clean = { package: 'wonderlab', version: '0.1.0', commit: COMMIT, dirty: false, node: 'v20.19.0' };
const worker = (over: object = {}) => ({ host: 'h', pid: 1, version: '0.1.0', commit: COMMIT, dirty: false, games: 3150, ...over });

describe('sweepProvenance', () => {
  test("records the lab's code version, the seeds, games, wall and CPU time", () => {
    const p = sweepProvenance(detail(clean, [worker({ games: 2000 }), worker({ pid: 2, games: 1150 })]));
    expect(p).toMatchObject({
      sweep: 'mx1',
      code: clean,
      dirty: false,
      seeds: { firstSeed: 1_000_000, deals: 50 },
      games: 3150,
      wallSeconds: 1800,
      activeSeconds: 1790,
      cpuSeconds: 3500.5,
    });
    // Two processes of one code version are one entry, their games added.
    expect(p.workers).toEqual([{ version: '0.1.0', commit: COMMIT, dirty: false, games: 3150 }]);
    expect(shortCommit(p)).toBe('aaaaaaa');
  });

  test('refuses a sweep whose coordinator or any worker had uncommitted changes, unless allowed; then marks it', () => {
    const dirtyCode = detail({ ...clean, dirty: true }, [worker()]);
    expect(() => sweepProvenance(dirtyCode)).toThrow(ProvenanceError);
    const dirtyWorker = detail(clean, [worker({ games: 3000 }), worker({ pid: 2, dirty: true, games: 150 })]);
    expect(() => sweepProvenance(dirtyWorker)).toThrow(/uncommitted changes.*worker aaaaaaa\+ \(150 games\)/);
    const kept = sweepProvenance(dirtyWorker, { allowDirty: true });
    expect(kept.dirty).toBe(true);
    expect(shortCommit(kept)).toBe('aaaaaaa+dirty');
  });

  test('a tree whose state git could not tell is neither clean nor refused: dirty null', () => {
    const { dirty: _, ...noGit } = clean;
    expect(sweepProvenance(detail(noGit, [worker({ dirty: undefined })])).dirty).toBeNull();
  });

  test('--commit labels a sweep the lab recorded no code for, and may not contradict one it did', () => {
    const old = sweepProvenance(detail(null, []), { commit: '7faa332' });
    expect(old.code).toBeNull();
    expect(old.commitGiven).toBe('7faa332');
    expect(old.dirty).toBeNull();
    expect(shortCommit(old)).toBe('7faa332 (given, not reported by the lab)');
    expect(() => sweepProvenance(detail(clean, [worker()]), { commit: OTHER.slice(0, 7) })).toThrow(/the lab reports commit/);
    expect(sweepProvenance(detail(clean, [worker()]), { commit: COMMIT.slice(0, 7) }).commitGiven).toBeUndefined();
  });
});

test("no reproduction script stamps the collecting checkout's commit", () => {
  // The lab's record is the only source: a script asking git would name the collector's HEAD.
  const scripts = (dir: URL): URL[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? scripts(new URL(`${e.name}/`, dir)) : e.name.endsWith('.mjs') ? [new URL(e.name, dir)] : []));
  const found = scripts(reproduction);
  expect(found.length).toBeGreaterThan(5);
  for (const file of found) expect(readFileSync(file, 'utf8'), file.pathname).not.toMatch(/rev-parse|child_process/);
});
