#!/usr/bin/env node
// Writes reproduction/history.md: the earlier runs, kept as history beside the report made from
// the confirmation run alone (report.mjs). history-intro.md, a summary and a table per experiment
// from reproduction/results/<preset>.json (the runs made while the agents were being read, with
// the same verdict rule), the fit of the thesis's agent (fit/), and the dashboard's charts of
// those results (render-charts.mjs --png).
//   node reproduction/history.mjs > reproduction/history.md
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PUBLISHED_TABLES, compareStored, summarizeTable } from '../shared/dist/src/index.js';
import { fitReport } from './fit/fit.mjs';
import { duration, readResult, rowLines, rulebookLine, shortName, summaryLines } from './tables.mjs';

const here = new URL('.', import.meta.url);
export const RESULTS = new URL('results/', here);
const NOT_RUN = 'not run';

/** The heading line of an earlier run: its size and time as lab.mjs or `sweep run` recorded them. */
function sourceLine(table, result) {
  if (!result) return `Not run: \`wonderlab sweep run ${table.preset}\` (add \`--deals N\` for a smaller run).`;
  if (!result.lab) return `\`wonderlab sweep run ${table.preset} --deals ${result.spec.deals.count}\` (${result.gamesPerCell} games per cell; the paper: see the title; \`reproduction/results/${table.preset}.json\`).`;
  const { games, wallSeconds, gamesPerSecond, commit, concurrentSweeps } = result.lab;
  const sharing = concurrentSweeps > 0 ? `, sharing the lab with ${concurrentSweeps} other sweep${concurrentSweeps > 1 ? 's' : ''}` : '';
  // A sweep collected before it finished (--partial): its cells are fed deal by deal, so each has about its share.
  const size = result.lab.status === 'done'
    ? `${result.gamesPerCell} games per cell, ${games} in all`
    : `stopped at ${games} of its ${result.gamesPerCell * result.cells.length} games (${result.cells.map((c) => c.games).join(' / ')} per cell)`;
  return (
    `Played on the lab (\`node reproduction/lab.mjs submit --presets ${table.preset} --deals ${result.spec.deals.count}\`): ${size}, in ${duration(wallSeconds)} of wall time ` +
    `on the 2-core dev machine${sharing} (${gamesPerSecond.toFixed(2)} games/s; commit ${commit}, stamped by the collector; \`reproduction/results/${table.preset}.json\`).`
  );
}

/** history.md from the results in `folder` (a URL ending in /; results/ by default). */
export function history(folder = RESULTS) {
  const lines = [];
  const summaries = [];
  for (const table of PUBLISHED_TABLES) {
    const result = readResult(folder, table.preset);
    const comparison = compareStored(table, result);
    summaries.push({ name: shortName(table), ...summarizeTable(table, comparison) });
    lines.push(`### ${table.title}`, '', sourceLine(table, result), '', ...rowLines(table, comparison, NOT_RUN), '');
    const rulebook = result && rulebookLine(table, result, comparison);
    if (rulebook) lines.push(rulebook, '');
  }
  const charts = readdirSync(new URL('charts/', here)).filter((f) => f.endsWith('.png')).sort();
  return [
    readFileSync(new URL('history-intro.md', here), 'utf8').trim(),
    '',
    '## Summary of the earlier runs',
    '',
    ...summaryLines(summaries, NOT_RUN),
    '## Row by row',
    '',
    'The reasons of rows that differ are discussed in REPRODUCTION.md\'s "Why rows differ", whose figures are these runs\'.',
    '',
    ...lines,
    readFileSync(new URL('fit/intro.md', here), 'utf8').trim(),
    '',
    fitReport(1),
    '## Charts of the earlier runs',
    '',
    'Drawn by the dashboard\'s own chart code from the results above (`node reproduction/render-charts.mjs --png`).',
    '',
    ...charts.map((f) => `![${f.replace(/\.png$/, '')}](charts/${f})`),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(history());
