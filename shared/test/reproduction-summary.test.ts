/**
 * REPRODUCTION.md's summary (src/lab/papers/reproduction-summary.ts, written by reproduction/report.mjs):
 * the cause each table's line gives, and every count of the committed report counted again, row by
 * row, from reproduction/results/*.json — so a report left stale after a result, a reason or the
 * rule changed fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EDGE_TOLERANCE,
  EQUIVALENCE_MARGIN,
  PUBLISHED_TABLES,
  VERDICT_ALPHA,
  comparePaper,
  compareStored,
  summarizeTable,
  type PublishedTable,
} from '../src/lab/index.js';
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

describe("REPRODUCTION.md's summary, counted again from the stored results", () => {
  const report = readFileSync(new URL('../../REPRODUCTION.md', import.meta.url), 'utf8');
  const section = report.slice(report.indexOf('## Summary'), report.indexOf('\n## ', report.indexOf('## Summary') + 1));
  const [header, , ...lines] = section.split('\n').filter((l) => l.startsWith('|'));
  const cells = (line: string) => line.slice(2, -2).split(' | ');
  const column = (name: string) => cells(header).indexOf(name);

  it('one line per paper table and a total, with the rows, verdicts, games per row and cause of each', () => {
    expect(lines).toHaveLength(PUBLISHED_TABLES.length + 1);
    const sums = { rows: 0, agrees: 0, inconclusive: 0, differs: 0 };
    PUBLISHED_TABLES.forEach((t, i) => {
      const path = new URL(`../../reproduction/results/${t.preset}.json`, import.meta.url);
      const c = compareStored(t, existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
      // Counted here from the rows' verdicts, not through summarizeTable.
      const count = (v: string) => c.rows.filter((r) => r.verdict === v).length;
      const played = c.rows.flatMap((r) => (r.ours ? [r.ours.games] : []));
      const line = cells(lines[i]);
      expect(line[column('rows')], t.id).toBe(String(t.rows.length));
      expect(line[column('agree')], t.id).toBe(String(count('agrees')));
      expect(line[column('inconclusive')], t.id).toBe(String(count('inconclusive')));
      expect(line[column('differ')], t.id).toBe(String(count('differs')));
      if (column('not run') >= 0) expect(line[column('not run')], t.id).toBe(String(count('not run')));
      else expect(count('not run'), t.id).toBe(0);
      const [lo, hi] = [Math.min(...played), Math.max(...played)];
      expect(line[column('games per row')], t.id).toBe(played.length === 0 ? '–' : lo === hi ? String(lo) : `${lo}–${hi}`);
      expect(line[column('main cause of the differences')], t.id).toBe(count('differs') === 0 ? '–' : summarizeTable(t, c).cause);
      sums.rows += t.rows.length;
      sums.agrees += count('agrees');
      sums.inconclusive += count('inconclusive');
      sums.differs += count('differs');
    });
    const total = cells(lines.at(-1)!);
    expect([total[column('rows')], total[column('agree')], total[column('inconclusive')], total[column('differ')]]).toEqual(
      [sums.rows, sums.agrees, sums.inconclusive, sums.differs].map(String),
    );
  });

  it('states the rule with the numbers the code applies', () => {
    const rule = report.slice(0, report.indexOf('## Summary'));
    expect(rule).toContain(`inside ± ${100 * EQUIVALENCE_MARGIN} points`);
    expect(rule).toContain(`α = ${VERDICT_ALPHA} after Holm`);
    expect(rule).toContain(`by ${EDGE_TOLERANCE}`);
    expect(rule).toMatch(/not separate evidence/);
  });
});
