#!/usr/bin/env node
// Writes REPRODUCTION.md: intro.md (the verdict rule, its numbers filled in from the code), one
// summary table counted from the stored results, methods.md, then a table per experiment from the
// published numbers (shared/src/lab/papers/published.ts, the reasons from published-reasons.json) and
// reproduction/results/<preset>.json (ours, from `wonderlab sweep run <preset> --json` or
// `lab.mjs collect`) with the verdicts of
// shared/src/lab/papers/paper-comparison.ts — the sweep page's own — then reasons.md and the charts:
//   node reproduction/report.mjs > REPRODUCTION.md
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { EDGE_TOLERANCE, EQUIVALENCE_MARGIN, PUBLISHED_TABLES, VERDICT_ALPHA, comparePaper, compareStored, rulebookRowFromCells, summarizeTable } from '../shared/dist/src/index.js';
import { fitReport } from './fit/fit.mjs';

const here = new URL('.', import.meta.url);
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pct = (x) => (x === null ? '–' : fmt(100 * x));
const signed = (x) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(100 * x))}`;
// Five decimals near α, so that a p just under it (0.04998) does not print as 0.050.
const pValue = (p) => (p < 0.001 ? '< 0.001' : Math.abs(p - VERDICT_ALPHA) < 0.0005 ? p.toFixed(5) : p.toFixed(3));
const counted = (c) => `${c.agrees} agree, ${c.inconclusive} inconclusive, ${c.differs} differ`;

/** One line on how the table reads with VP ties decided on coins (rulebookRowFromCells), or undefined where some row cannot be told. */
function rulebookLine(table, result, strict) {
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
 * intro.md with the rule's numbers taken from the code, so that the stated rule cannot drift from
 * the one applied; a placeholder it does not know is an error rather than text left in the report.
 */
function intro() {
  const values = { margin: fmt(100 * EQUIVALENCE_MARGIN, 0), alpha: String(VERDICT_ALPHA), tolerance: String(EDGE_TOLERANCE) };
  return readFileSync(new URL('intro.md', here), 'utf8').trim().replace(/\{(\w+)\}/g, (_, k) => {
    if (!(k in values)) throw new Error(`intro.md: unknown placeholder {${k}}`);
    return values[k];
  });
}

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
function shortName(table) {
  const name = table.id.startsWith('thesis-') ? `Thesis ${table.id.slice('thesis-'.length)}` : `2014 Table ${table.id.split('-')[1]}`;
  return TOPICS[table.id] ? `${name}: ${TOPICS[table.id]}` : name;
}

/** The summary: one line per paper table, counted from the comparisons of the row tables below. */
function summary(summaries) {
  const sum = (k) => summaries.reduce((a, s) => a + s[k], 0);
  const notRun = sum('notRun') > 0;
  const games = (g) => (!g ? '–' : g.min === g.max ? String(g.min) : `${g.min}–${g.max}`);
  const out = [
    '## Summary',
    '',
    `| paper table | rows | agree | inconclusive | differ | ${notRun ? 'not run | ' : ''}games per row | main cause of the differences |`,
    `| --- | --- | --- | --- | --- | ${notRun ? '--- | ' : ''}--- | --- |`,
  ];
  for (const s of summaries) out.push(`| ${s.name} | ${s.rows} | ${s.agrees} | ${s.inconclusive} | ${s.differs} | ${notRun ? `${s.notRun} | ` : ''}${games(s.games)} | ${s.cause ?? '–'} |`);
  out.push(`| **all** | ${sum('rows')} | ${sum('agrees')} | ${sum('inconclusive')} | ${sum('differs')} | ${notRun ? `${sum('notRun')} | ` : ''} | |`, '');
  out.push(
    'Rows of one table can share games (a pair\'s two seats in the 2014 Tables 3–6, Table 7.1\'s averages): each is counted, ' +
      'and Holm holds whatever the dependence. A cause marked *not tested* has no experiment in the repo behind it.',
    '',
  );
  return out;
}

const lines = [];
const summaries = [];
const total = { agrees: 0, inconclusive: 0, differs: 0, notRun: 0 };
for (const table of PUBLISHED_TABLES) {
  const path = new URL(`results/${table.preset}.json`, here);
  const result = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  lines.push(`### ${table.title}`, '');
  if (result?.lab) {
    const { games, wallSeconds, gamesPerSecond, commit, concurrentSweeps } = result.lab;
    const sharing = concurrentSweeps > 0 ? `, sharing the lab with ${concurrentSweeps} other sweep${concurrentSweeps > 1 ? 's' : ''}` : '';
    const wall = wallSeconds >= 3600 ? `${(wallSeconds / 3600).toFixed(1)} h` : `${Math.round(wallSeconds / 60)} min`;
    // A sweep collected before it finished (--partial): its cells are fed deal by deal, so each has about its share.
    const size = result.lab.status === 'done'
      ? `${result.gamesPerCell} games per cell, ${games} in all`
      : `stopped at ${games} of its ${result.gamesPerCell * result.cells.length} games (${result.cells.map((c) => c.games).join(' / ')} per cell)`;
    lines.push(`Ours: played on the lab (\`node reproduction/lab.mjs submit --presets ${table.preset} --deals ${result.spec.deals.count}\`): ${size}, in ${wall} of wall time on the 2-core dev machine${sharing} (${gamesPerSecond.toFixed(2)} games/s; commit ${commit}).`, '');
  } else if (result) {
    const deals = result.spec.deals.count;
    lines.push(`Ours: \`wonderlab sweep run ${table.preset} --deals ${deals}\` (${result.gamesPerCell} games per cell; the paper: see the title).`, '');
  } else {
    lines.push(`Not run yet: \`wonderlab sweep run ${table.preset}\` (add \`--deals N\` for a smaller run), then \`node reproduction/report.mjs\`.`, '');
  }
  const hasVp = table.rows.some((r) => r.vp !== undefined);
  lines.push(`| row | paper win % | ours win % (95 %) | games | ${hasVp ? 'paper VP | ours VP | ' : ''}ours − paper (95 %) | p (Holm) | verdict | reason, if it differs (see below) |`);
  lines.push(`| --- | --- | --- | --- | ${hasVp ? '--- | --- | ' : ''}--- | --- | --- | --- |`);
  const comparison = compareStored(table, result);
  for (const k of Object.keys(total)) total[k] += comparison[k];
  summaries.push({ name: shortName(table), ...summarizeTable(table, comparison) });
  for (const row of comparison.rows) {
    const paper = `${pct(row.paper.winRate)} ± ${pct(row.paper.halfWidth)}`;
    const vp = (o) => (hasVp ? `${fmt(row.paper.vp ?? NaN)} | ${o} | ` : '');
    if (!row.ours) {
      lines.push(`| ${row.label} | ${paper} | not run | – | ${vp('–')}– | – | not run | |`);
      continue;
    }
    const d = row.difference;
    const difference = `${signed(d.estimate)} (${signed(d.low)} to ${signed(d.high)})`;
    const verdict = row.verdict === 'differs' ? `**differs**` : row.verdict;
    lines.push(`| ${row.label} | ${paper} | ${pct(row.ours.winRate)} ± ${pct(row.ours.halfWidth)} | ${row.ours.games} | ${vp(fmt(row.ours.vp ?? NaN))}${difference} | ${pValue(d.pHolm)} | ${verdict} | ${row.reason ?? ''} |`);
  }
  lines.push('');
  const rulebook = result && rulebookLine(table, result, comparison);
  if (rulebook) lines.push(rulebook, '');
}
lines.unshift(`## Row by row`, '', `Rows: ${total.agrees} agree, ${total.inconclusive} inconclusive, ${total.differs} differ, ${total.notRun} not run yet. VP columns are the same games' mean VP, shown without a verdict.`, '');
const charts = readdirSync(new URL('charts/', here)).filter((f) => f.endsWith('.png')).sort();
console.log(
  [
    intro(),
    '',
    ...summary(summaries),
    readFileSync(new URL('methods.md', here), 'utf8').trim(),
    '',
    ...lines,
    readFileSync(new URL('fit/intro.md', here), 'utf8').trim(),
    '',
    fitReport(1),
    readFileSync(new URL('reasons.md', here), 'utf8').trim(),
    '',
    '## Charts',
    '',
    'Drawn by the dashboard\'s own chart code from the results above (`node reproduction/render-charts.mjs`).',
    '',
    ...charts.map((f) => `![${f.replace(/\.png$/, '')}](reproduction/charts/${f})`),
    '',
  ].join('\n'),
);
