#!/usr/bin/env node
// Writes REPRODUCTION.md: intro.md, then a table per experiment from the published numbers
// (shared/src/lab/published.ts, the reasons from published-reasons.json) and
// reproduction/results/<preset>.json (ours, from `wonderlab sweep run <preset> --json` or
// `lab.mjs collect`) with the verdicts of
// shared/src/lab/paper-comparison.ts — the sweep page's own — then reasons.md and the charts:
//   node reproduction/report.mjs > REPRODUCTION.md
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { PUBLISHED_TABLES, comparePaper, compareStored, rulebookRowFromCells } from '../shared/dist/src/index.js';
import { fitReport } from './fit/fit.mjs';

const here = new URL('.', import.meta.url);
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pct = (x) => (x === null ? '–' : fmt(100 * x));
const signed = (x) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(100 * x))}`;
const pValue = (p) => (p < 0.001 ? '< 0.001' : p.toFixed(3));
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

const lines = [];
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
    readFileSync(new URL('intro.md', here), 'utf8').trim(),
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
