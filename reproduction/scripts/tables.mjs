// The markdown of a paper table against one stored result, and of the summary over the tables:
// shared by report.mjs (the confirmation run, REPRODUCTION.md) and history.mjs (the earlier runs,
// history.md), so that both print a row, a verdict and a count the same way.
import { existsSync, readFileSync } from 'node:fs';
import { VERDICT_ALPHA, comparePaper, rulebookRowFromCells } from '../../shared/dist/src/index.js';

export const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pct = (x) => (x === null ? '–' : fmt(100 * x));
const signed = (x) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(100 * x))}`;
// Five decimals near α, so that a p just under it (0.04998) does not print as 0.050.
const pValue = (p) => (p < 0.001 ? '< 0.001' : Math.abs(p - VERDICT_ALPHA) < 0.0005 ? p.toFixed(5) : p.toFixed(3));
const counted = (c) => `${c.agrees} agree, ${c.inconclusive} inconclusive, ${c.differs} differ`;

/** A stored result `<preset>.json` of a folder (a URL ending in /), or undefined when there is none. */
export function readResult(folder, preset) {
  const path = new URL(`${preset}.json`, folder);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** Seconds as the headings give them: hours past one hour, else minutes. */
export const duration = (s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${Math.round(s / 60)} min`);

/** What each table varies, for the summary's first column (the titles are too long for it). */
const TOPICS = {
  'thesis-7.1': 'seating order',
  'thesis-7.2': 'exploration constant C',
  'thesis-7.3': 'simulation depth',
  'thesis-7.4': 'iterations per decision',
  'thesis-7.5': 'MCTS against MCTS',
  'robilliard-2': 'MCTS against two rule-based',
  'robilliard-3': 'K_UCT, MCTS against MCTS',
  'robilliard-4': 'N against 2N simulations',
  'robilliard-5': 'progressive widening',
  'robilliard-6': 'real-score bias',
};

/** "Thesis 7.4: iterations per decision" from a table's id. */
export function shortName(table) {
  const name = table.id.startsWith('thesis-') ? `Thesis ${table.id.slice('thesis-'.length)}` : `2014 Table ${table.id.split('-')[1]}`;
  return TOPICS[table.id] ? `${name}: ${TOPICS[table.id]}` : name;
}

/**
 * A table's rows against ours (comparePaper's `comparison`), one markdown line each; a row
 * without games says `missing` (the report's "confirmation pending", the history's "not run").
 */
export function rowLines(table, comparison, missing) {
  const hasVp = table.rows.some((r) => r.vp !== undefined);
  const lines = [
    `| row | paper win % | ours win % (95 %) | games | ${hasVp ? 'paper VP | ours VP | ' : ''}ours − paper (95 %) | p (Holm) | verdict | reason, if it differs (see "Why rows differ") |`,
    `| --- | --- | --- | --- | ${hasVp ? '--- | --- | ' : ''}--- | --- | --- | --- |`,
  ];
  for (const row of comparison.rows) {
    const paper = `${pct(row.paper.winRate)} ± ${pct(row.paper.halfWidth)}`;
    const vp = (o) => (hasVp ? `${fmt(row.paper.vp ?? NaN)} | ${o} | ` : '');
    if (!row.ours) {
      lines.push(`| ${row.label} | ${paper} | ${missing} | – | ${vp('–')}– | – | ${missing} | |`);
      continue;
    }
    const d = row.difference;
    const difference = `${signed(d.estimate)} (${signed(d.low)} to ${signed(d.high)})`;
    const verdict = row.verdict === 'differs' ? `**differs**` : row.verdict;
    lines.push(`| ${row.label} | ${paper} | ${pct(row.ours.winRate)} ± ${pct(row.ours.halfWidth)} | ${row.ours.games} | ${vp(fmt(row.ours.vp ?? NaN))}${difference} | ${pValue(d.pHolm)} | ${verdict} | ${row.reason ?? ''} |`);
  }
  return lines;
}

/** One line on how the table reads with VP ties decided on coins (rulebookRowFromCells), or undefined where some row cannot be told. */
export function rulebookLine(table, result, strict) {
  const rulebook = comparePaper(table, (row) => rulebookRowFromCells(result.cells, row));
  const pairs = strict.rows.map((s, i) => [s, rulebook.rows[i]]).filter(([s, r]) => s.ours && r.ours);
  if (pairs.length === 0 || pairs.length !== strict.rows.filter((s) => s.ours).length) return undefined;
  const shifts = pairs.map(([s, r]) => 100 * (r.ours.winRate - s.ours.winRate));
  return (
    `Counted by the rulebook instead (a VP tie goes to the seat with more coins; the coin wins are in the same cells): ` +
    `the rates rise by ${fmt(Math.min(...shifts))}–${fmt(Math.max(...shifts))} points; ${counted(rulebook)} (counted strictly: ${counted(strict)}).`
  );
}

/**
 * The summary: one line per paper table (summarizeTable's), and the total. `missing` names the
 * column of rows without games ("pending" in the report, "not run" in the history), shown only
 * when some row has none.
 */
export function summaryLines(summaries, missing) {
  const sum = (k) => summaries.reduce((a, s) => a + s[k], 0);
  const any = sum('notRun') > 0;
  const games = (g) => (!g ? '–' : g.min === g.max ? String(g.min) : `${g.min}–${g.max}`);
  const out = [
    `| paper table | rows | agree | inconclusive | differ | ${any ? `${missing} | ` : ''}games per row | main cause of the differences |`,
    `| --- | --- | --- | --- | --- | ${any ? '--- | ' : ''}--- | --- |`,
  ];
  for (const s of summaries) out.push(`| ${s.name} | ${s.rows} | ${s.agrees} | ${s.inconclusive} | ${s.differs} | ${any ? `${s.notRun} | ` : ''}${games(s.games)} | ${s.cause ?? '–'} |`);
  out.push(`| **all** | ${sum('rows')} | ${sum('agrees')} | ${sum('inconclusive')} | ${sum('differs')} | ${any ? `${sum('notRun')} | ` : ''} | |`, '');
  out.push(
    'Rows of one table can share games (a pair\'s two seats in the 2014 Tables 3–6, Table 7.1\'s averages): each is counted, ' +
      'and Holm holds whatever the dependence. A cause marked *not tested* has no experiment in the repo behind it.',
    '',
  );
  return out;
}
