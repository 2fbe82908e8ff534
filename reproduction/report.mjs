#!/usr/bin/env node
// Writes REPRODUCTION.md: intro.md, then a table per experiment from reproduction/papers.json
// (the published numbers) and reproduction/results/<preset>.json (ours, from
// `wonderlab sweep run <preset> --json`), then reasons.md and the charts in reproduction/charts:
//   node reproduction/report.mjs > REPRODUCTION.md
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fitReport } from './fit/fit.mjs';

const Z = 1.959963984540054;
const here = new URL('.', import.meta.url);
const papers = JSON.parse(readFileSync(new URL('papers.json', here), 'utf8'));
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');

function ours(table, row, result) {
  if (table.kind === 'orders') {
    const block = result.orders?.[0];
    const agent = result.cells[0].agents[row.seat];
    if (row.order === 'all') {
      const role = result.cells[0].roles[row.seat];
      return { wins: role.wins, games: role.games, vp: role.meanVp };
    }
    const s = block?.orders[row.order]?.standings.find((x) => x.agent === agent);
    return s ? { wins: s.wins, games: s.games, vp: s.vp.mean } : undefined;
  }
  const cell = result.cells.find((c) =>
    row.swept ? Object.entries(row.swept).every(([k, v]) => c.swept[k] === v) : row.agents.every((a, i) => c.agents[i] === a),
  );
  if (!cell) return undefined;
  const role = cell.roles[row.seat];
  return { wins: role.wins, games: role.games, vp: role.meanVp };
}

const lines = [];
let inside = 0;
let outside = 0;
let missing = 0;
for (const table of papers.tables) {
  const path = new URL(`results/${table.preset}.json`, here);
  const result = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  lines.push(`### ${table.title}`, '');
  if (result?.lab) {
    const { games, wallSeconds, gamesPerSecond, commit } = result.lab;
    const wall = wallSeconds >= 3600 ? `${(wallSeconds / 3600).toFixed(1)} h` : `${Math.round(wallSeconds / 60)} min`;
    lines.push(`Ours: played on the lab (\`node reproduction/lab.mjs submit --presets ${table.preset} --deals ${result.spec.deals.count}\`): ${result.gamesPerCell} games per cell, ${games} in all, in ${wall} of wall time on the 2-core dev machine (${gamesPerSecond.toFixed(2)} games/s; commit ${commit}).`, '');
  } else if (result) {
    const deals = result.spec.deals.count;
    lines.push(`Ours: \`wonderlab sweep run ${table.preset} --deals ${deals}\` (${result.gamesPerCell} games per cell; the paper: see the title).`, '');
  } else {
    lines.push(`Not run yet: \`wonderlab sweep run ${table.preset}\` (add \`--deals N\` for a smaller run), then \`node reproduction/report.mjs\`.`, '');
  }
  const hasVp = table.rows.some((r) => r.vp !== undefined);
  lines.push(`| row | paper win % | ours win % (95 %) | games | ${hasVp ? 'paper VP | ours VP | ' : ''}verdict | reason, if outside (see below) |`);
  lines.push(`| --- | --- | --- | --- | ${hasVp ? '--- | --- | ' : ''}--- | --- |`);
  for (const row of table.rows) {
    const [p, hw] = row.paper;
    const o = result && ours(table, row, result);
    if (!o) {
      missing++;
      lines.push(`| ${row.label} | ${fmt(p)} ± ${fmt(hw)} | not run | – | ${hasVp ? `${fmt(row.vp)} | – | ` : ''}– | |`);
      continue;
    }
    const rate = (100 * o.wins) / o.games;
    const half = 100 * Z * Math.sqrt((o.wins / o.games) * (1 - o.wins / o.games) / o.games);
    const within = Math.abs(rate - p) <= hw;
    // Are the two estimates different beyond both sampling errors? (difference ± 1.96·√(se² + se²))
    const seBoth = Math.sqrt((half / Z) ** 2 + (hw / Z) ** 2);
    const differs = Math.abs(rate - p) > Z * seBoth;
    if (within) inside++;
    else outside++;
    const verdict = within ? 'inside' : `outside${differs ? ' (differs)' : ' (within both errors)'}`;
    const reason = within ? '' : differs ? (row.reason ?? table.reason ?? 'unknown') : 'sampling (within both samples\' errors)';
    lines.push(`| ${row.label} | ${fmt(p)} ± ${fmt(hw)} | ${fmt(rate)} ± ${fmt(half)} | ${o.games} | ${hasVp ? `${fmt(row.vp)} | ${fmt(o.vp)} | ` : ''}${verdict} | ${reason} |`);
  }
  lines.push('');
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
