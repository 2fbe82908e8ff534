#!/usr/bin/env node
// Writes REPRODUCTION.md from the confirmation run alone (issue 42): intro.md (the verdict rule,
// its numbers filled in from the code), one summary table counted from the confirmation results,
// methods.md, then per paper table its published numbers (shared/src/lab/papers/published.ts,
// the reasons from published-reasons.json) beside the confirmation's
// (reproduction/confirmation/<preset>.json, saved by `reproduction/confirm.sh collect`) with the
// verdicts of shared/src/lab/papers/paper-comparison.ts — the sweep page's own — and its chart,
// then reasons.md. A table not collected yet is "confirmation pending", never an earlier run's
// numbers: those are history (history.mjs, reproduction/history.md).
//   node reproduction/scripts/report.mjs > REPRODUCTION.md
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EDGE_TOLERANCE, EQUIVALENCE_MARGIN, PUBLISHED_TABLES, REPORT_RESULTS, VERDICT_ALPHA, compareBothWays, compareStored, summarizeTable } from '../../shared/dist/src/index.js';
import { dqnSection } from './dqn-section.mjs';
import { shortCommit } from './provenance.mjs';
import { tableChart } from './table-chart.mjs';
import { duration, fmt, readResult, rowLines, rulebookLine, shortName, summaryLines } from './tables.mjs';

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);
/** The confirmation results, the report's only source (the folder the tests count again). */
export const CONFIRMATION = new URL(`../${REPORT_RESULTS}`, here);
/** The word for a table or row the confirmation has not played yet. */
const PENDING = 'pending';

/**
 * intro.md with the rule's numbers taken from the code, so that the stated rule cannot drift from
 * the one applied; a placeholder it does not know is an error rather than text left in the report.
 */
function intro() {
  const values = { margin: fmt(100 * EQUIVALENCE_MARGIN, 0), alpha: String(VERDICT_ALPHA), tolerance: String(EDGE_TOLERANCE) };
  return readFileSync(new URL('inputs/intro.md', here), 'utf8').trim().replace(/\{(\w+)\}/g, (_, k) => {
    if (!(k in values)) throw new Error(`intro.md: unknown placeholder {${k}}`);
    return values[k];
  });
}

/**
 * The lab's record of a confirmation result, summed over its sweeps (one, unless it was played in
 * parts): games, the commits the lab reported, the first seed and deals, wall and CPU seconds.
 */
function provenanceOf(result) {
  const parts = result.provenance?.parts ?? [result.provenance];
  if (parts.some((p) => !p)) throw new Error(`${result.spec.name}: a confirmation result without the lab's provenance record`);
  const sum = (k) => (parts.some((p) => p[k] == null) ? null : parts.reduce((t, p) => t + p[k], 0));
  return {
    games: sum('games'),
    commit: [...new Set(parts.map(shortCommit))].join(' + '),
    dirty: parts.some((p) => p.dirty !== false),
    firstSeed: parts[0].seeds.firstSeed,
    deals: parts[0].seeds.deals,
    wallSeconds: sum('wallSeconds'),
    cpuSeconds: sum('cpuSeconds'),
    sweeps: parts.map((p) => p.sweep).join(' + '),
    status: parts.every((p) => p.status === 'done') ? 'done' : parts.map((p) => p.status).join(' + '),
  };
}

/** The line under a table's heading: where its numbers come from, or that they are still to come. */
export function sourceLine(table, result) {
  // No file name of a result not saved yet: a citation of a missing file fails the manifest's test.
  if (!result) return `**Confirmation pending**: not collected yet (\`reproduction/confirm.sh collect\` saves it to \`${REPORT_RESULTS}\` when its sweep is done).`;
  const p = provenanceOf(result);
  const time = (s) => (s == null ? 'not recorded' : duration(s));
  const clean = p.dirty ? ' — **not known to be clean**' : '';
  // A sweep collected before it finished (collect --partial) says so: its games are not the table's size.
  const unfinished = p.status !== 'done' ? ` — **unfinished** (${p.status})` : '';
  return (
    `Confirmation: ${p.games} games (${result.gamesPerCell} per cell)${unfinished}, played on the lab at commit ${p.commit}${clean}, ` +
    `deals from first seed ${p.firstSeed} (${p.deals} deals); ${time(p.wallSeconds)} of wall time, ${time(p.cpuSeconds)} of CPU time (sweep ${p.sweeps}; \`${REPORT_RESULTS}${table.preset}.json\`).`
  );
}

/** A table's chart file, from the repository's root (render-charts.mjs writes it). */
export const chartPath = (table) => `reproduction/charts/${table.preset}.svg`;

/** A table's chart (SVG) from the same comparison as its rows. */
export function chartOf(table, result) {
  const p = result && provenanceOf(result);
  const subtitle = p ? `ours: the confirmation run, ${p.games} games at commit ${p.commit}, deals from first seed ${p.firstSeed}` : 'ours: confirmation pending';
  return tableChart(compareStored(table, result), { title: shortName(table), subtitle, missing: PENDING });
}

/** REPRODUCTION.md from the results in `folder` (a URL ending in /; the confirmation's by default). */
export function report(folder = CONFIRMATION) {
  const lines = [];
  const summaries = [];
  const total = { agrees: 0, inconclusive: 0, differs: 0, notRun: 0 };
  // The same total with the 2014 paper's VP ties decided on coins (the thesis's count stays strict, as it states).
  const eachPapers = { ...total };
  for (const table of PUBLISHED_TABLES) {
    const result = readResult(folder, table.preset);
    const { strict, onCoins } = compareBothWays(table, result);
    for (const k of Object.keys(total)) {
      total[k] += strict[k];
      eachPapers[k] += (onCoins ?? strict)[k];
    }
    summaries.push({ name: shortName(table), ...summarizeTable(table, strict, onCoins) });
    lines.push(`### ${table.title}`, '', sourceLine(table, result), '', `![${shortName(table)}: the paper's win rates and ours, with 95 % intervals](${chartPath(table)})`, '');
    lines.push(...rowLines(table, strict, PENDING, onCoins), '');
    const rulebook = result && table.ties === 'strict' && rulebookLine(table, result, strict);
    if (rulebook) lines.push(rulebook, '');
  }
  const counts = (c) => `${c.agrees} agree, ${c.inconclusive} inconclusive, ${c.differs} differ, ${c.notRun} pending`;
  return [
    intro(),
    '',
    '## Summary',
    '',
    ...summaryLines(summaries, PENDING),
    readFileSync(new URL('inputs/methods.md', here), 'utf8').trim(),
    '',
    '## Row by row',
    '',
    `Rows, a tie for the most VP counted as no win: ${counts(total)}; with the 2014 paper's ties on coins (the thesis's stay no win): ${counts(eachPapers)}. ` +
      'VP columns are the same games\' mean VP, shown without a verdict. Each chart is drawn from the same comparison as its table\'s strict count (`node reproduction/scripts/render-charts.mjs`).',
    '',
    ...lines,
    ...dqnSection(),
    readFileSync(new URL('inputs/reasons.md', here), 'utf8').trim(),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(report());
