/**
 * REPRODUCTION.md, made from the confirmation run alone (reproduction/scripts/report.mjs), and the earlier
 * runs kept apart as history (reproduction/scripts/history.mjs, reproduction/history.md). What it checks:
 * - the committed REPRODUCTION.md, history.md and table charts are what the scripts write now;
 * - the summary's counts are the ones a re-count, row by row, from the folder the report reads
 *   gives: the committed report from reproduction/confirmation/ (REPORT_RESULTS), and reports
 *   written from an empty folder (every table pending) and from a fixture folder
 *   (test/fixtures/reproduction-confirmation/: a small local sweep of Table 7.4 with a made-up
 *   lab record, not a confirmation result), so both states are tried whatever the run has
 *   delivered;
 * - a collected table's heading line comes from its provenance, a pending one shows no numbers.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EDGE_TOLERANCE, EQUIVALENCE_MARGIN, PUBLISHED_TABLES, REPORT_RESULTS, VERDICT_ALPHA, compareStored, compareStoredOnCoins, summarizeTable, type PaperComparison } from '../shared/src/lab/index.js';

const root = new URL('../', import.meta.url);
const reproduction = new URL('reproduction/', root);
const scriptsDir = new URL('scripts/', reproduction);
// Scripts of the reproduction folder (plain ESM, untyped: imported by URL).
const { CONFIRMATION, chartOf, chartPath, report } = await import(new URL('report.mjs', scriptsDir).href);
const { history } = await import(new URL('history.mjs', scriptsDir).href);
const { readResult } = await import(new URL('tables.mjs', scriptsDir).href);

const FIXTURE = new URL('fixtures/reproduction-confirmation/', import.meta.url);
const EMPTY = pathToFileURL(`${mkdtempSync(join(tmpdir(), 'confirmation-'))}/`);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('the committed report, history and charts', () => {
  test('the report reads the folder the shared code names', () => {
    expect(CONFIRMATION.href).toBe(new URL(REPORT_RESULTS, root).href);
  });

  test('REPRODUCTION.md is what report.mjs writes from the confirmation results now', () => {
    expect(read('REPRODUCTION.md')).toBe(report());
  });

  test('reproduction/history.md is what history.mjs writes from the earlier results now', () => {
    expect(read('reproduction/history.md')).toBe(history());
  });

  test.each(PUBLISHED_TABLES.map((t) => [t.id, t]))("%s: the chart is render-charts.mjs's, from the table's own comparison", (_, table) => {
    expect(read(chartPath(table))).toBe(chartOf(table, readResult(CONFIRMATION, table.preset)));
    expect(read('REPRODUCTION.md')).toContain(`](${chartPath(table)})`);
  });

  test("history.md: 2014 Table 5 at Q = 2 against the paper's rows, labelled a deviation, with the screens that chose Q = 2", () => {
    const text = read('reproduction/history.md');
    const start = text.indexOf('### Robilliard et al. 2014, Table 5');
    const section = text.slice(start, text.indexOf('\n### ', start + 1));
    expect(section).toContain("deviation: played with Q = 2, not the paper's Q = 1.0");
    expect(section).toContain('reproduction/in-sample/robilliard-2014-table5-widening.json');
    expect(section).not.toContain('| not run |');
    for (const screen of ['screen-table5-widening-q.json', 'screen-table5-widening-q2.json']) expect(section).toContain(`reproduction/targets/${screen}`);
    // Not in the report: its Table 5 is the confirmation's, at the paper's Q.
    expect(read('REPRODUCTION.md')).not.toContain('Q = 2, not the paper');
  });

  test('states the rule with the numbers the code applies', () => {
    const text = read('REPRODUCTION.md');
    const rule = text.slice(0, text.indexOf('## Summary'));
    expect(rule).toContain(`inside ± ${100 * EQUIVALENCE_MARGIN} points`);
    expect(rule).toContain(`α = ${VERDICT_ALPHA} after Holm`);
    expect(rule).toContain(`by ${EDGE_TOLERANCE}`);
    expect(rule).toMatch(/not separate evidence/);
  });
});

describe.each([
  ['the committed REPRODUCTION.md, from reproduction/confirmation/', () => read('REPRODUCTION.md'), CONFIRMATION],
  ['a report from an empty folder', () => report(EMPTY), EMPTY],
  ['a report from the fixture folder', () => report(FIXTURE), FIXTURE],
])("%s: the summary, counted again", (_, text: () => string, folder: URL) => {
  const section = () => {
    const t = text();
    return t.slice(t.indexOf('## Summary'), t.indexOf('\n## ', t.indexOf('## Summary') + 1));
  };
  const cells = (line: string) => line.slice(2, -2).split(' | ');

  test('a line per paper table and tie count, each paper\'s totals and all, with the rows, verdicts, games per row and cause of each', () => {
    const [header, , ...lines] = section().split('\n').filter((l) => l.startsWith('|'));
    const column = (name: string) => cells(header).indexOf(name);
    type Counts = { rows: number; agrees: number; inconclusive: number; differs: number };
    const zero = (): Counts => ({ rows: 0, agrees: 0, inconclusive: 0, differs: 0 });
    const sums = { thesis: zero(), paper2014: zero(), paper2014OnCoins: zero(), all: zero(), eachPapers: zero() };
    const add = (to: Counts, rows: number, c: PaperComparison) => {
      // Counted here from the rows' verdicts, not through summarizeTable.
      const count = (v: string) => c.rows.filter((r) => r.verdict === v).length;
      to.rows += rows;
      to.agrees += count('agrees');
      to.inconclusive += count('inconclusive');
      to.differs += count('differs');
    };
    const expectLine = (line: string[], ties: string, rows: number, c: PaperComparison, id: string) => {
      const count = (v: string) => String(c.rows.filter((r) => r.verdict === v).length);
      expect([line[column('a tie for the most VP')], line[column('rows')], line[column('agree')], line[column('inconclusive')], line[column('differ')]], id).toEqual([
        ties,
        String(rows),
        count('agrees'),
        count('inconclusive'),
        count('differs'),
      ]);
      if (column('pending') >= 0) expect(line[column('pending')], id).toBe(count('not run'));
      else expect(count('not run'), id).toBe('0');
    };
    let i = 0;
    for (const t of PUBLISHED_TABLES) {
      const result = readResult(folder, t.preset);
      const c = compareStored(t, result);
      const played = c.rows.flatMap((r) => (r.ours ? [r.ours.games] : []));
      const line = cells(lines[i++]);
      expectLine(line, t.ties === 'strict' ? "no win (the thesis's rule)" : 'no win', t.rows.length, c, t.id);
      const [lo, hi] = [Math.min(...played), Math.max(...played)];
      expect(line[column('games per row')], t.id).toBe(played.length === 0 ? '–' : lo === hi ? String(lo) : `${lo}–${hi}`);
      const differs = c.rows.some((r) => r.verdict === 'differs');
      expect(line[column('main cause of the differences')], t.id).toBe(differs ? summarizeTable(t, c).cause : '–');
      add(sums.all, t.rows.length, c);
      add(t.id.startsWith('thesis-') ? sums.thesis : sums.paper2014, t.rows.length, c);
      if (t.ties === 'strict') add(sums.eachPapers, t.rows.length, c);
      // A paper silent on ties: a second line, the same games with a VP tie going to more coins.
      const onCoins = compareStoredOnCoins(t, result);
      // Every played row of the 2014 tables can be counted on coins (its agent holds one seat of its cell).
      if (t.ties === 'unstated' && result) expect(onCoins, t.id).toBeDefined();
      if (t.ties === 'unstated' && onCoins) {
        expectLine(cells(lines[i++]), 'to more coins', t.rows.length, onCoins, `${t.id} on coins`);
        add(sums.paper2014OnCoins, t.rows.length, onCoins);
        add(sums.eachPapers, t.rows.length, onCoins);
      }
    }
    const totals = lines.slice(i).map(cells);
    const counts = (c: Counts) => [c.rows, c.agrees, c.inconclusive, c.differs].map(String);
    const read = (line: string[]) => [line[column('rows')], line[column('agree')], line[column('inconclusive')], line[column('differ')]];
    const coinsCounted = sums.paper2014OnCoins.rows > 0;
    expect(totals.map((l) => l[0])).toEqual(['**the thesis**', '**the 2014 paper**', ...(coinsCounted ? ['**the 2014 paper**'] : []), '**all**', ...(coinsCounted ? ['**all**'] : [])]);
    const expected = [sums.thesis, sums.paper2014, ...(coinsCounted ? [sums.paper2014OnCoins] : []), sums.all, ...(coinsCounted ? [sums.eachPapers] : [])];
    totals.forEach((l, k) => expect(read(l), l.join(' | ')).toEqual(counts(expected[k])));
  });

  test("each table's heading line: the lab's record of its confirmation, or pending", () => {
    const t = text();
    for (const table of PUBLISHED_TABLES) {
      const start = t.indexOf(`### ${table.title}\n`);
      // Up to the next table, or the section after the last one.
      const body = t.slice(start, t.slice(start + 1).search(/\n##/) + start + 1);
      const result = readResult(folder, table.preset);
      const rows = body.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| row') && !l.startsWith('| ---'));
      expect(rows, table.id).toHaveLength(table.rows.length);
      if (!result) {
        expect(body, table.id).toContain('**Confirmation pending**');
        for (const row of rows) expect(row, table.id).toMatch(/\| pending \| – \|.* \| pending \| (– \| – \| – \| )?\|$/);
        continue;
      }
      // A table played in parts (collect --merge) keeps each sweep's record.
      const parts = result.provenance.parts ?? [result.provenance];
      const heading = body.split('\n')[2];
      expect(heading).toContain(`Confirmation: ${parts.reduce((t: number, p: { games: number }) => t + p.games, 0)} games`);
      // Each commit the parts were played at, once.
      expect(heading).toContain(`at commit ${[...new Set(parts.map((p: { code: { commit: string } }) => p.code.commit.slice(0, 7)))].join(' + ')},`);
      for (const p of parts) expect(p.seeds, table.id).toEqual(parts[0].seeds);
      expect(heading).toContain(`first seed ${parts[0].seeds.firstSeed} (${parts[0].seeds.deals} deals)`);
      expect(heading).toMatch(/of wall time, .* of CPU time/);
    }
  });
});

describe('the fixture and the empty folder', () => {
  const fixture = report(FIXTURE);
  const empty = report(EMPTY);

  test('a collected table shows its numbers, every other one stays pending, and no earlier run is read', () => {
    expect(fixture).toContain('Confirmation: 2520 games (840 per cell), played on the lab at commit 0123456');
    expect(fixture.match(/\*\*Confirmation pending\*\*/g)).toHaveLength(PUBLISHED_TABLES.length - 1);
    expect(empty.match(/\*\*Confirmation pending\*\*/g)).toHaveLength(PUBLISHED_TABLES.length);
    // The earlier runs' heading lines and numbers are history's (history.md), never the report's.
    const rows = (text: string) => text.slice(text.indexOf('## Row by row'), text.indexOf('## Why rows differ'));
    for (const text of [fixture, empty, read('REPRODUCTION.md')]) expect(rows(text)).not.toContain('reproduction/in-sample/');
    expect(empty).not.toMatch(/\| \d+\.\d ± \d+\.\d \| \d+\.\d ± \d+\.\d \|/);
  });

  test('a sweep collected before it finished (collect --partial) is marked so in its heading', () => {
    const partial = JSON.parse(readFileSync(new URL('thesis-7.4-iterations.json', FIXTURE), 'utf8'));
    partial.provenance.status = 'running';
    const folder = pathToFileURL(`${mkdtempSync(join(tmpdir(), 'confirmation-'))}/`);
    writeFileSync(new URL('thesis-7.4-iterations.json', folder), JSON.stringify(partial));
    expect(report(folder)).toContain('Confirmation: 2520 games (840 per cell) — **unfinished** (running), played on the lab');
    expect(fixture).not.toContain('unfinished');
  });

  test("a chart draws ours only where the table has them, the paper's always", () => {
    const t74 = PUBLISHED_TABLES.find((t) => t.id === 'thesis-7.4')!;
    const drawn = chartOf(t74, readResult(FIXTURE, t74.preset));
    const pending = chartOf(t74, undefined);
    // One circle is the legend's; one square per row is the paper's, one more the legend's.
    expect(drawn.match(/<circle/g)).toHaveLength(t74.rows.length + 1);
    expect(pending.match(/<circle/g)).toHaveLength(1);
    expect(pending.match(/<rect x="[^"]*" y="[^"]*" width="8"/g)).toHaveLength(t74.rows.length + 1);
    expect(pending.match(/font-style="italic">pending</g)).toHaveLength(t74.rows.length);
  });
});
