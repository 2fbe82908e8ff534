#!/usr/bin/env node
// Writes reproduction/history.md: the earlier runs, kept as history beside the report made from
// the confirmation run alone (report.mjs). history-intro.md, a summary and a table per experiment
// from reproduction/in-sample/<preset>.json (the runs made while the agents were being read, with
// the same verdict rule), 2014 Table 5 at Q = 2 as a labelled deviation from the paper's Q = 1.0
// with the screens that chose Q = 2, the fit of the thesis's agent (fit/), and the dashboard's
// charts of those results (render-charts.mjs --png).
//   node reproduction/scripts/history.mjs > reproduction/history.md
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PUBLISHED_TABLES, compareBothWays, summarizeTable } from '../../shared/dist/src/index.js';
import { fitReport } from '../fit/fit.mjs';
import { duration, fmt, readResult, rowLines, rulebookLine, shortName, summaryLines } from './tables.mjs';

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);
export const RESULTS = new URL('in-sample/', here);
const NOT_RUN = 'not run';

/**
 * Results played with a setting other than the paper's, shown against the paper's rows with the
 * deviation in the heading: the row agents as the stored result names them (`agent`), the label,
 * and the screens (targets/) that chose the setting.
 */
const DEVIATIONS = {
  'robilliard-5': {
    label: 'deviation: played with Q = 2, not the paper\'s Q = 1.0',
    why:
      'The widening is ⌊Q·m^P⌋; the paper sets Q = 1.0 ("We let the parameter Q = 1.0"). Q = 2 was chosen because screens reproduced the P = 0.15 row with it (below), ' +
      'so these rows are not the paper\'s setting and are not a reproduction of Table 5; the preset plays Q = 1 since commit 06aabb6, and the confirmation run plays it so.',
    agent: (a) => a.replace(/\(pw=([^,)]+)\)/, '(pw=$1,pwq=2)'),
    screens: ['screen-table5-widening-q.json', 'screen-table5-widening-q2.json'],
  },
};

/** The heading line of an earlier run: its size and time as lab.mjs or `sweep run` recorded them. */
function sourceLine(table, result) {
  if (!result) return `Not run: \`wonderlab sweep run ${table.preset}\` (add \`--deals N\` for a smaller run).`;
  if (!result.lab) return `\`wonderlab sweep run ${table.preset} --deals ${result.spec.deals.count}\` (${result.gamesPerCell} games per cell; the paper: see the title; \`reproduction/in-sample/${table.preset}.json\`).`;
  const { games, wallSeconds, gamesPerSecond, commit, concurrentSweeps } = result.lab;
  const sharing = concurrentSweeps > 0 ? `, sharing the lab with ${concurrentSweeps} other sweep${concurrentSweeps > 1 ? 's' : ''}` : '';
  // A sweep collected before it finished (--partial): its cells are fed deal by deal, so each has about its share.
  const size = result.lab.status === 'done'
    ? `${result.gamesPerCell} games per cell, ${games} in all`
    : `stopped at ${games} of its ${result.gamesPerCell * result.cells.length} games (${result.cells.map((c) => c.games).join(' / ')} per cell)`;
  return (
    `Played on the lab (\`node reproduction/scripts/lab.mjs submit --presets ${table.preset} --deals ${result.spec.deals.count}\`): ${size}, in ${duration(wallSeconds)} of wall time ` +
    `on the 2-core dev machine${sharing} (${gamesPerSecond.toFixed(2)} games/s; commit ${commit}, stamped by the collector; \`reproduction/in-sample/${table.preset}.json\`).`
  );
}

/** A screen of targets/ (h2h.mjs's format: cells of per-agent rates) beside the paper's rows at the same P. */
function screenLines(table, file) {
  const screen = JSON.parse(readFileSync(new URL(`targets/${file}`, here), 'utf8'));
  const paperAt = (p, side) => table.rows.find((r) => r.label === `P ${p.toFixed(2)}: ${side}`)?.paper[0];
  const lines = [
    `\`reproduction/targets/${file}\` (${screen.spec.deals.count} deals from first seed ${screen.spec.deals.firstSeed ?? 1}, \`${screen.spec.seats[2]}\` third, commit ${screen.commit.slice(0, 7)}):`,
    '',
    '| widened agent | games | without win % (paper) | with win % (paper) |',
    '| --- | --- | --- | --- |',
  ];
  for (const cell of screen.cells) {
    const [without, widened] = cell.rates;
    const p = Number(/pw=([\d.]+)/.exec(widened.label)[1]);
    const rate = (r) => fmt(100 * r.winRate);
    lines.push(`| ${widened.label} | ${cell.games} | ${rate(without)} (${fmt(paperAt(p, 'without'))}) | ${rate(widened)} (${fmt(paperAt(p, 'with'))}) |`);
  }
  return [...lines, ''];
}

/** history.md from the results in `folder` (a URL ending in /; in-sample/ by default). */
export function history(folder = RESULTS) {
  const lines = [];
  const summaries = [];
  for (const table of PUBLISHED_TABLES) {
    const result = readResult(folder, table.preset);
    const deviation = DEVIATIONS[table.id];
    const read = deviation ? { ...table, rows: table.rows.map((r) => ({ ...r, agents: r.agents.map(deviation.agent) })) } : table;
    const { strict: comparison, onCoins } = compareBothWays(read, result);
    summaries.push({ name: `${shortName(table)}${deviation ? ` (${deviation.label})` : ''}`, ...summarizeTable(table, comparison, onCoins) });
    lines.push(`### ${table.title}${deviation ? ` — ${deviation.label}` : ''}`, '');
    if (deviation) lines.push(`**${deviation.label[0].toUpperCase()}${deviation.label.slice(1)}.** ${deviation.why}`, '');
    // No reasons: they are findings about the confirmation's rows; these runs' account is REPRODUCTION.md's history part.
    lines.push(sourceLine(table, result), '', ...rowLines(read, comparison, NOT_RUN, onCoins, { reasons: false }), '');
    const rulebook = result && table.ties === 'strict' && rulebookLine(read, result, comparison);
    if (rulebook) lines.push(rulebook, '');
    for (const file of deviation?.screens ?? []) lines.push(...screenLines(table, file));
  }
  const charts = readdirSync(new URL('charts/', here)).filter((f) => f.endsWith('.png')).sort();
  return [
    readFileSync(new URL('inputs/history-intro.md', here), 'utf8').trim(),
    '',
    '## Summary of the earlier runs',
    '',
    // No causes: they are the confirmation's (REPRODUCTION.md), not these runs'.
    ...summaryLines(summaries, NOT_RUN, { causes: false }),
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
    'Drawn by the dashboard\'s own chart code from the results above (`node reproduction/scripts/render-charts.mjs --png`).',
    '',
    ...charts.map((f) => `![${f.replace(/\.png$/, '')}](charts/${f})`),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(history());
