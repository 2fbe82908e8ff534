/**
 * The manifest of cited results (reproduction/manifest.json). What it checks:
 * - every result file README.md, REPRODUCTION.md, reproduction/history.md and docs/*.md cite exists and is listed,
 *   with the code version the lab reported for it, its seeds and games, as manifest.mjs reads them
 *   now;
 * - every result of the confirmation run (reproduction/confirmation/, the report's source) names
 *   a commit the lab reported, known clean, and was played on the held-out first seed.
 * Earlier results are listed as history, as they are (most without the lab's code version): they
 * are not held to the second rule, which they could not meet.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const reproduction = new URL('../reproduction/', import.meta.url);
const scriptsDir = new URL('scripts/', reproduction);
// Scripts of the reproduction folder (plain ESM, untyped: imported by URL).
const { CITING, buildManifest, citations, unconfirmed } = await import(new URL('manifest.mjs', scriptsDir).href);
const { readSeeds } = await import(new URL('seeds.mjs', scriptsDir).href);

type Entry = { path: string; role: 'confirmation' | 'history'; code: { commit: string; dirty: boolean | null } | null; seeds: { firstSeed: number } | null };

const manifest: { files: Entry[] } = JSON.parse(readFileSync(new URL('manifest.json', reproduction), 'utf8'));
const confirmationSeed: number = readSeeds().confirmation.firstSeed;

describe('the manifest of cited results', () => {
  test('is what manifest.mjs reads from the files now (node reproduction/scripts/manifest.mjs rewrites it)', () => {
    expect(manifest).toEqual(buildManifest());
  });

  test.each(CITING as string[])('lists every result file %s cites, and every citation names a file', (doc) => {
    const { cited, dangling } = citations(readFileSync(new URL(`../${doc}`, import.meta.url), 'utf8'));
    expect(dangling).toEqual([]);
    const listed = new Set(manifest.files.map((e) => e.path));
    expect(cited.filter((f: string) => !listed.has(f))).toEqual([]);
  });

  test("every confirmation result names a clean commit the lab reported, on the held-out seeds", () => {
    for (const e of manifest.files.filter((x) => x.role === 'confirmation')) expect(unconfirmed(e, confirmationSeed), e.path).toEqual([]);
  });

  test('the rule above refuses what a confirmation result must not be', () => {
    const entry = (code: Entry['code'], firstSeed = confirmationSeed) => ({ path: 'x', role: 'confirmation', code, seeds: { firstSeed } });
    const commit = 'c'.repeat(40);
    expect(unconfirmed(entry({ commit, dirty: false }), confirmationSeed)).toEqual([]);
    expect(unconfirmed(entry({ commit, dirty: true }), confirmationSeed)).toEqual(['played from uncommitted code']);
    expect(unconfirmed(entry({ commit, dirty: null }), confirmationSeed)).toEqual(['dirty flag not recorded']);
    expect(unconfirmed(entry(null), confirmationSeed)).toEqual(['no code version reported by the lab']);
    expect(unconfirmed(entry({ commit, dirty: false }, 1), confirmationSeed)).toEqual([`first seed 1, not the confirmation's ${confirmationSeed}`]);
  });
});
