/**
 * The confirmation run plays held-out deals: none of its games is dealt from a seed any stored
 * result (the fit's, the earlier reproduction runs', the screens') was played on. Every range is
 * computed here from the stored files themselves (reproduction/scripts/seeds.mjs), so a result added on
 * the confirmation's seeds, or one whose seeds cannot be told, fails this test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { PUBLISHED_TABLES, Sweep, parseSweepSpec } from '@wonderlab/shared';

const reproduction = new URL('../reproduction/', import.meta.url);
// Scripts of the reproduction folder (plain ESM, untyped: imported by URL).
const { engineSeeds, readSeeds, storedDeals, usedRanges } = await import(new URL('scripts/seeds.mjs', reproduction).href);

type Entry = { file: string; firstSeed?: number; deals?: number; engineSeeds?: [number, number] };

const seeds = readSeeds();
const stored: Entry[] = storedDeals();
const confirmationSeed: number = seeds.confirmation.firstSeed;

/** The presets confirm.sh submits, in its order. */
const confirmed = /PRESETS=\(([^)]*)\)/.exec(readFileSync(new URL('confirm.sh', reproduction), 'utf8'))![1].trim().split(/\s+/);
const sweepOf = (preset: string) => new Sweep(parseSweepSpec(JSON.parse(readFileSync(new URL(`../presets/${preset}.json`, import.meta.url), 'utf8'))));
/** Every deal the confirmation plays: each preset's deals from the confirmation's first seed. */
const confirmationDeals = Math.max(...confirmed.map((p) => sweepOf(p).spec.deals.count));

describe('held-out seeds', () => {
  test("seeds.json's used ranges are those of the stored results (node reproduction/scripts/seeds.mjs rewrites them)", () => {
    expect(seeds.used).toEqual(usedRanges(stored));
    // The check below runs on something: the fit alone played from first seed 1.
    expect(seeds.used['fit/results/']).toEqual([expect.objectContaining({ firstSeed: 1 })]);
  });

  test('the confirmation first seed is none of the stored ones, and its range clears theirs even read as plain seeds', () => {
    for (const e of stored) {
      const [first, last] = e.engineSeeds ?? [e.firstSeed!, e.firstSeed! + e.deals! - 1];
      expect(e.firstSeed, e.file).not.toBe(confirmationSeed);
      expect(last < confirmationSeed || first > confirmationSeed + confirmationDeals - 1, `${e.file}: seeds ${first}..${last}`).toBe(true);
    }
  });

  test("no confirmation game is dealt from a stored result's engine seed", () => {
    const used = new Map<number, string>();
    for (const e of stored) for (const s of engineSeeds(e)) used.set(s, e.file);
    expect(used.size).toBeGreaterThan(1000);
    const ours = engineSeeds({ firstSeed: confirmationSeed, deals: confirmationDeals });
    const shared = ours.map((s: number, d: number) => (used.has(s) ? `deal ${d} (seed ${s}) as in ${used.get(s)}` : undefined)).filter(Boolean);
    expect(shared).toEqual([]);
  });
});

/**
 * The papers' games per row: thesis Tables 7.1 (per seat order) and 7.5 (per pair) 1000, Tables
 * 7.2-7.4 1050 (21 wonder sets x 50 deals); the 2014 paper's Tables 2-6 1000 per row.
 */
const PAPER_GAMES: Record<string, number> = { 'thesis-7.2': 1050, 'thesis-7.3': 1050, 'thesis-7.4': 1050 };

test("confirm.sh plays every paper table once, at the paper's games per row", () => {
  expect([...confirmed].sort()).toEqual(PUBLISHED_TABLES.map((t) => t.preset).sort());
  for (const t of PUBLISHED_TABLES) {
    const sweep = sweepOf(t.preset);
    // Table 7.1's rows are seat orders: a cell plays each deal in all six.
    const perRow = t.kind === 'orders' ? sweep.gamesPerCell / sweep.ordersPerDeal : sweep.gamesPerCell;
    expect(perRow, t.preset).toBe(PAPER_GAMES[t.id] ?? 1000);
  }
});
