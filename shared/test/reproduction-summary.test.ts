/**
 * REPRODUCTION.md's summary of a table (src/lab/papers/reproduction-summary.ts): its counts and
 * the cause its line gives. The committed report's counts are counted again, row by row, from the
 * folder it is made from (REPORT_RESULTS, the confirmation run's) in
 * test/reproduction-report.test.ts, beside reports made from an empty and a fixture folder: that
 * test needs the report's script (reproduction/scripts/report.mjs), which this package does not hold.
 */
import { describe, expect, it } from 'vitest';
import { comparePaper, summarizeTable, type PublishedTable } from '../src/lab/index.js';
import { tableFixture } from './published-fixtures.js';

const table = tableFixture([
  { label: 'a', seat: 0, paper: [70, 3], agents: ['x'] },
  { label: 'b', seat: 0, paper: [50, 3], agents: ['y'] },
  { label: 'c', seat: 0, paper: [50, 3], agents: ['z'] },
]);
const games = { a: { games: 1000, wins: 800, vp: NaN }, b: { games: 500, wins: 251, vp: NaN } } as const;
const compared = (t: PublishedTable) => comparePaper(t, (r) => games[r.label as keyof typeof games]);

describe('the summary of a table', () => {
  it('counts the verdicts and the games per played row', () => {
    const s = summarizeTable(table, compared(table));
    expect(s).toMatchObject({ rows: 3, agrees: 0, inconclusive: 1, differs: 1, notRun: 1, games: { min: 500, max: 1000 } });
  });

  it('a cause with its experiment, "not tested" before one without, "not tested" alone without any; none without a row that differs', () => {
    expect(summarizeTable({ ...table, cause: 'ties', shownBy: 'the rulebook count' }, compared(table)).cause).toBe('ties; shown by the rulebook count');
    expect(summarizeTable({ ...table, cause: 'ties' }, compared(table)).cause).toBe('not tested: ties');
    expect(summarizeTable(table, compared(table)).cause).toBe('not tested');
    const none = comparePaper(table, () => undefined);
    expect(summarizeTable({ ...table, cause: 'ties' }, none)).toMatchObject({ cause: null, games: null, notRun: 3 });
  });
});
