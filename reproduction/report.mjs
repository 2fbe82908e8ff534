#!/usr/bin/env node
// Writes REPRODUCTION.md: intro.md, then a table per experiment from the published numbers
// (shared/src/lab/papers/published.ts, the reasons from published-reasons.json) and
// reproduction/results/<preset>.json (ours, from `wonderlab sweep run <preset> --json` or
// `lab.mjs collect`) with the verdicts of
// shared/src/lab/papers/paper-comparison.ts — the sweep page's own — then reasons.md and the charts:
//   node reproduction/report.mjs > REPRODUCTION.md
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { PUBLISHED_TABLES, comparePaper, rowFromCells, rulebookRowFromCells } from '../shared/dist/src/index.js';
import { fitReport } from './fit/fit.mjs';

const here = new URL('.', import.meta.url);
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pct = (x) => (x === null ? '–' : fmt(100 * x));

/** A row's games in a saved result: a seating-order row from the export's per-order standings, any other from the cells. */
function ours(row, result) {
  if (typeof row.order === 'number') {
    const block = result.orders?.[0];
    const agent = result.cells[0].agents[row.seat];
    const s = block?.orders[row.order]?.standings.find((x) => x.agent === agent);
    return s ? { wins: s.wins, games: s.games, vp: s.vp.mean } : undefined;
  }
  return rowFromCells(result.cells, row);
}

/** One line on how the table reads with VP ties decided on coins (rulebookRowFromCells), or undefined where some row cannot be told. */
function rulebookLine(table, result, strict) {
  const rulebook = comparePaper(table, (row) => rulebookRowFromCells(result.cells, row));
  const pairs = strict.rows.map((s, i) => [s, rulebook.rows[i]]).filter(([s, r]) => s.ours && r.ours);
  if (pairs.length === 0 || pairs.length !== strict.rows.filter((s) => s.ours).length) return undefined;
  const shifts = pairs.map(([s, r]) => 100 * (r.ours.winRate - s.ours.winRate));
  const sampling = (c) => c.rows.filter((r) => r.reason === 'sampling').length;
  const rows = (k) => `${k} row${k === 1 ? '' : 's'}`;
  return (
    `Counted by the rulebook instead (a VP tie goes to the seat with more coins; the coin wins are in the same cells): ` +
    `the rates rise by ${fmt(Math.min(...shifts))}–${fmt(Math.max(...shifts))} points; ${rows(rulebook.inside)} inside, ${sampling(rulebook)} within both errors ` +
    `(counted strictly: ${strict.inside} and ${sampling(strict)}).`
  );
}

const lines = [];
let inside = 0;
let outside = 0;
let missing = 0;
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
  lines.push(`| row | paper win % | ours win % (95 %) | games | ${hasVp ? 'paper VP | ours VP | ' : ''}verdict | reason, if outside (see below) |`);
  lines.push(`| --- | --- | --- | --- | ${hasVp ? '--- | --- | ' : ''}--- | --- |`);
  const comparison = comparePaper(table, (row) => (result ? ours(row, result) : undefined));
  inside += comparison.inside;
  outside += comparison.outside;
  missing += comparison.notRun;
  for (const row of comparison.rows) {
    const paper = `${pct(row.paper.winRate)} ± ${pct(row.paper.halfWidth)}`;
    const vp = (o) => (hasVp ? `${fmt(row.paper.vp ?? NaN)} | ${o} | ` : '');
    if (!row.ours) {
      lines.push(`| ${row.label} | ${paper} | not run | – | ${vp('–')}– | |`);
      continue;
    }
    const verdict = row.verdict === 'inside' ? 'inside' : `outside${row.differs ? ' (differs)' : ' (within both errors)'}`;
    const reason = row.reason === 'sampling' ? "sampling (within both samples' errors)" : (row.reason ?? '');
    lines.push(`| ${row.label} | ${paper} | ${pct(row.ours.winRate)} ± ${pct(row.ours.halfWidth)} | ${row.ours.games} | ${vp(fmt(row.ours.vp ?? NaN))}${verdict} | ${reason} |`);
  }
  lines.push('');
  const rulebook = result && rulebookLine(table, result, comparison);
  if (rulebook) lines.push(rulebook, '');
}
lines.unshift(`## Row by row`, '', `Rows: ${inside} inside the paper's interval, ${outside} outside, ${missing} not run yet.`, '');
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
