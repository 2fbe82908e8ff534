#!/usr/bin/env node
// Which deals the stored results were played on, so that the confirmation run plays others.
//
//   node reproduction/scripts/seeds.mjs      # rewrites seeds.json's `used` from the stored results
//
// A sweep's deal d (0 ≤ d < deals.count) deals its cards from deriveSeed(firstSeed, 'deal', d),
// the same for every board set and seat order of the deal (Tournament.game), and the 2014 board
// sets are drawn from firstSeed itself: a deal is named by its first seed and index. Two sweeps
// share deals only if they share a first seed, so the used ranges are grouped by first seed;
// the test of seeds.json also compares the engine seeds themselves, which is what a game is.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { deriveSeed } from '../../shared/dist/src/index.js';

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);

/** The folders (under reproduction/) of stored results played before the confirmation. */
export const STORED = ['in-sample/', 'targets/', 'fit/results/'];

/** seeds.json: the used ranges, the stored results without a spec (declared by hand), and the confirmation's first seed. */
export const readSeeds = () => JSON.parse(readFileSync(new URL('inputs/seeds.json', here), 'utf8'));

/**
 * Each stored result's deals: `{ file, firstSeed, deals }` from its spec, or what seeds.json
 * declares for a file without one (`engineSeeds: [first, last]` for games dealt from plain
 * seeds). Throws for a file with neither, so that no result escapes the check.
 */
export function storedDeals(declared = readSeeds().declared) {
  const found = [];
  for (const dir of STORED) {
    for (const name of readdirSync(new URL(dir, here)).filter((f) => f.endsWith('.json')).sort()) {
      const file = `reproduction/${dir}${name}`;
      const deals = JSON.parse(readFileSync(new URL(`${dir}${name}`, here), 'utf8')).spec?.deals;
      if (deals) found.push({ folder: dir, file, firstSeed: deals.firstSeed ?? 1, deals: deals.count });
      else if (declared[file]) found.push({ folder: dir, file, ...declared[file] });
      else throw new Error(`${file} has no spec.deals and seeds.json does not declare its seeds`);
    }
  }
  return found;
}

/**
 * The used ranges of each folder (the fit's are fit/results/'s): per first seed, the most deals
 * any of its results played from it and how many results; plain engine seeds as they are.
 */
export function usedRanges(entries) {
  const used = {};
  for (const folder of STORED) {
    const byFirst = new Map();
    for (const e of entries.filter((x) => x.folder === folder)) {
      const key = e.firstSeed ?? `engine ${e.engineSeeds}`;
      const r = byFirst.get(key) ?? (e.engineSeeds ? { engineSeeds: e.engineSeeds, results: 0 } : { firstSeed: e.firstSeed, deals: 0, results: 0 });
      if (!e.engineSeeds) r.deals = Math.max(r.deals, e.deals);
      r.results++;
      byFirst.set(key, r);
    }
    used[folder] = [...byFirst.values()].sort((a, b) => (a.firstSeed ?? 0) - (b.firstSeed ?? 0));
  }
  return used;
}

/** The engine seeds a result's games were dealt from. */
export function engineSeeds(entry) {
  if (entry.engineSeeds) {
    const [first, last] = entry.engineSeeds;
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  }
  return Array.from({ length: entry.deals }, (_, d) => deriveSeed(entry.firstSeed, 'deal', d));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seeds = readSeeds();
  seeds.used = usedRanges(storedDeals(seeds.declared));
  writeFileSync(new URL('inputs/seeds.json', here), JSON.stringify(seeds, null, 1) + '\n');
  for (const [folder, ranges] of Object.entries(seeds.used)) {
    for (const r of ranges) console.log(`${folder}\t${r.engineSeeds ? `engine seeds ${r.engineSeeds.join('..')}` : `first seed ${r.firstSeed}: ${r.deals} deals`} (${r.results} results)`);
  }
}
