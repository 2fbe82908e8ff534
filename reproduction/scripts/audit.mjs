#!/usr/bin/env node
// The next audit in one command (issue 59): `npm run audit`. Recomputes from the stored files what
// the report and the docs say about them, prints each check, and exits 1 on any mismatch:
// - counts: REPRODUCTION.md's summary, per table and in total, both ways a tie for the most VP
//   is counted (strictly; on coins where the paper does not say), against the confirmation results;
// - figures: every claim of inputs/claims.json (a sentence of a doc with its numbers left as {},
//   and how each number is computed from a stored file) is in its doc as recomputed now;
// - labels: every stored result a doc cites without the lab's record of a clean commit
//   (manifest.json) is in a passage or section that calls it history or in-sample;
// - findings: every finding of published-reasons.json marked tested names what tested it (a stored
//   file that exists, or the table's own run), and every row that differs by either count has a reason;
// - words: each "reproduced", "confirms" or "strongest" in README.md, REPRODUCTION.md and docs/
//   sits in a passage or section that cites a stored run, or links to a section that does;
// - targets: every learning target's "met" or "not met" in LEARNING.md, recomputed from the
//   stored tries (learning/<run>/targets.json) by the rule (every try counted), and every try
//   played from the lab's record of a clean commit.
//   node reproduction/scripts/audit.mjs [--quiet]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PUBLISHED_TABLES, REPORT_RESULTS, compareBothWays, comparePaper, rowFromCells } from '../../shared/dist/src/index.js';
import { CITING, citations, resultFiles } from './manifest.mjs';
import { shortName } from './tables.mjs';

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);
const root = new URL('..', here);

/** The documents whose words are checked: the README, the report and docs/ (LEARNING.md is the learning report's own). */
const WORDED = ['README.md', 'REPRODUCTION.md', ...CITING.filter((d) => d.startsWith('docs/'))];
const CLAIMED_WORDS = /\b(reproduced|confirms|strongest)\b/gi;
/** What labels a passage as history: the word itself, or in-sample (paths are left out before looking). */
const HISTORY = /history|in-sample/i;
const PATHS = /[\w./<>*…-]*[\w<>*-]\.json|reproduction\/[\w./<>*…-]*/g;

// ---------------------------------------------------------------------------------------------
// Reading the repository, with overrides (the test changes a doc or a stored file this way).

function reader(files) {
  const text = (path) => files[path] ?? readFileSync(new URL(path, root), 'utf8');
  // Listed once: the folders of stored results, and the fit's (its intro.md documents its results).
  const results = resultFiles();
  const stored = [...results, ...readdirSync(new URL('fit/', here)).map((f) => `reproduction/fit/${f}`)];
  const cache = new Map();
  const json = (path) => {
    if (!cache.has(path)) cache.set(path, JSON.parse(text(path)));
    return cache.get(path);
  };
  const exists = (path) => path in files || existsSync(new URL(path, root));
  return { text, json, exists, results, stored, compared: new Map() };
}

/** Markdown blocks: paragraphs, and each table row on its own with the paragraph before its table; each with the headings above it. */
export function blocksOf(text) {
  const out = [];
  const headings = [];
  let para = [];
  let start = 0;
  let before = '';
  const flush = () => {
    if (para.length) {
      out.push({ text: para.join('\n'), line: start + 1, headings: [...headings], before: '' });
      before = para.join('\n');
    }
    para = [];
  };
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const heading = /^(#+) (.*)/.exec(line);
    if (heading) {
      flush();
      headings.length = heading[1].length - 1;
      headings[heading[1].length - 1] = heading[2];
      before = '';
    } else if (line.startsWith('|')) {
      flush();
      out.push({ text: line, line: i + 1, headings: [...headings], before });
    } else if (!line.trim()) {
      flush();
      if (!lines[i + 1]?.startsWith('|')) before = '';
    } else {
      if (!para.length) start = i;
      para.push(line);
    }
  });
  flush();
  return out;
}

const prose = (s) => s.replace(PATHS, '');
const labelled = (block) => [block.text, block.before, ...block.headings].some((s) => s && HISTORY.test(prose(s)));

// ---------------------------------------------------------------------------------------------
// Numbers from stored files (claims.json's measures).

const tableOf = (id) => {
  const table = PUBLISHED_TABLES.find((t) => t.id === id);
  if (!table) throw new Error(`no published table ${id}`);
  return table;
};
/** A row measure's table and row ("thesis-7.4/100 iterations"). */
function rowRef(ref) {
  const slash = ref.indexOf('/');
  const table = tableOf(ref.slice(0, slash));
  const row = table.rows.find((r) => r.label === ref.slice(slash + 1));
  if (!row) throw new Error(`${table.id} has no row '${ref.slice(slash + 1)}'`);
  return { table, row };
}
/** The row with its pair's agents in the other order and its agent in the other seat (thesis 7.5 read with its P1 as our second seat). */
const swapped = (row) => ({ ...row, agents: [...row.agents].reverse(), seat: 1 - row.seat });

/** A table compared as a measure asks: strictly or on coins, seats as listed or swapped (computed once per run). */
function comparisonOf(m, io) {
  const table = typeof m.row === 'string' ? rowRef(m.row).table : tableOf(m.verdicts);
  const file = m.file ?? `${REPORT_RESULTS}${table.preset}.json`;
  const key = `${table.id} ${file} ${m.count ?? 'strict'} ${Boolean(m.swap)}`;
  if (!io.compared.has(key)) {
    const result = io.json(file);
    if (m.swap) io.compared.set(key, comparePaper(table, (row) => rowFromCells(result.cells, swapped(row))));
    else io.compared.set(key, compareBothWays(table, result)[m.count === 'coins' ? 'onCoins' : 'strict']);
  }
  const comparison = io.compared.get(key);
  if (!comparison) throw new Error(`${table.id}: not counted on coins`);
  return comparison;
}

const ROW_STATS = {
  rate: (r) => r.ours.winRate,
  low: (r) => r.ours.wilson.low,
  high: (r) => r.ours.wilson.high,
  hw: (r) => r.ours.halfWidth,
  games: (r) => r.ours.games,
  vp: (r) => r.ours.vp,
  difference: (r) => r.difference.estimate,
  paper: (r) => r.paper.winRate,
  paperVp: (r) => r.paper.vp,
  paperHw: (r) => r.paper.halfWidth,
  vpGap: (r) => r.ours.vp - r.paper.vp,
};
const CELL_STATS = {
  // A seat's role (followed through the seat orders), a label's pooled seats, or the cell itself.
  rate: (x) => x.winRate ?? x.wins / x.games,
  vp: (x) => x.meanVp ?? x.vp.mean,
  median: (x) => x.vp.median,
  low: (x) => x.wilson.low,
  high: (x) => x.wilson.high,
  games: (x) => x.games,
  ties: (cell) => (cell.decidedBy.coins + cell.decidedBy.shared) / cell.games,
};
const AGGREGATES = {
  min: (xs) => Math.min(...xs),
  max: (xs) => Math.max(...xs),
  mean: (xs) => xs.reduce((a, x) => a + x, 0) / xs.length,
};

/** The cells a measure names: an index, a list, { agents }, or "all". */
function cellsOf(result, which) {
  if (which === 'all') return result.cells;
  return [which].flat().map((w) => {
    const cell = typeof w === 'number' ? result.cells[w] : result.cells.find((c) => w.agents.every((a, i) => c.agents[i] === a));
    if (!cell) throw new Error(`no cell ${JSON.stringify(w)}`);
    return cell;
  });
}

/** One number a claim cites, computed from the stored files (see claims.json's `about`). */
export function measure(m, io) {
  for (const op of ['min', 'max', 'mean']) if (m[op]) return AGGREGATES[op](m[op].map((x) => measure(x, io)));
  if (m.minus) return measure(m.minus[0], io) - measure(m.minus[1], io);
  if (m.plus) return m.plus.reduce((a, x) => a + measure(x, io), 0);
  if (m.abs) return Math.abs(measure(m.abs, io));
  if (m.verdicts) return comparisonOf(m, io).rows.filter((r) => r.verdict === m.verdict).length;
  if (typeof m.row === 'string' && m.row.startsWith('@')) {
    // A list of rows named once in claims.json's `sets`.
    const rows = io.json('reproduction/inputs/claims.json').sets?.[m.row.slice(1)];
    if (!rows) throw new Error(`claims.json has no set ${m.row}`);
    return measure({ ...m, row: rows }, io);
  }
  if (m.row) {
    const stat = ROW_STATS[m.stat ?? 'rate'];
    if (!stat) throw new Error(`unknown row stat ${m.stat}`);
    const values = [m.row].flat().map((ref) => {
      const { row } = rowRef(ref);
      const compared = comparisonOf({ ...m, row: ref }, io).rows.find((r) => r.label === row.label);
      if (!compared.ours) throw new Error(`${ref}: not played`);
      return stat(compared);
    });
    return Array.isArray(m.row) ? AGGREGATES[m.agg](values) : values[0];
  }
  const result = io.json(m.file);
  if (m.path) return m.path.split('.').reduce((x, k) => x?.[k], result);
  if (m.cell === undefined) throw new Error(`a measure without row, cell or path: ${JSON.stringify(m)}`);
  const stat = CELL_STATS[m.stat ?? 'rate'] ?? ((x) => m.stat.split('.').reduce((y, k) => y?.[k], x));
  const values = cellsOf(result, m.cell).map((cell) => {
    if (m.seat !== undefined) return stat(cell.roles[m.seat]);
    if (m.label !== undefined) return stat((cell.labels ?? cell.rates).find((l) => l.label === m.label));
    return stat(cell);
  });
  if (values.some((v) => !Number.isFinite(v))) throw new Error(`${m.file}: ${JSON.stringify(m)} is not a number`);
  return m.cell === 'all' || Array.isArray(m.cell) ? AGGREGATES[m.agg](values) : values[0];
}

const minus = (x) => (x < 0 ? '−' : '');
const FORMATS = {
  pct: (x) => (100 * x).toFixed(1),
  pct0: (x) => (100 * x).toFixed(0),
  pp: (x) => `${x < 0 ? '−' : '+'}${Math.abs(100 * x).toFixed(1)}`,
  f1: (x) => `${minus(x)}${Math.abs(x).toFixed(1)}`,
  f0: (x) => x.toFixed(0),
  int: (x) => String(Math.round(x)),
};

/** A claim's sentence with its numbers recomputed. */
export function rendered(claim, io) {
  let i = 0;
  return claim.text.replace(/\{\}/g, () => {
    const value = claim.values[i++];
    if (!value) throw new Error(`more {} than values in "${claim.text}"`);
    return FORMATS[value.format ?? 'pct'](measure(value, io));
  });
}

// ---------------------------------------------------------------------------------------------
// The checks.

/** REPRODUCTION.md's summary lines as printed: by table name and tie count, the totals by their labels. */
function printedSummary(text) {
  const start = text.indexOf('## Summary');
  const lines = text.slice(start, text.indexOf('\n## ', start + 1)).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'));
  const header = lines.shift().slice(2, -2).split(' | ');
  const col = (name) => header.indexOf(name);
  return lines.map((l) => {
    const c = l.slice(2, -2).split(' | ');
    return { key: `${c[0]} | ${c[col('a tie for the most VP')]}`, counts: [c[col('agree')], c[col('inconclusive')], c[col('differ')]].join(' / ') };
  });
}

function countChecks(io, check) {
  const printed = new Map(printedSummary(io.text('REPRODUCTION.md')).map((l) => [l.key, l.counts]));
  const add = (to, c) => ['agrees', 'inconclusive', 'differs'].forEach((k) => (to[k] += c[k]));
  const zero = () => ({ agrees: 0, inconclusive: 0, differs: 0 });
  const totals = { thesis: zero(), strict2014: zero(), coins2014: zero(), all: zero(), eachPapers: zero() };
  const show = (c) => `${c.agrees} / ${c.inconclusive} / ${c.differs}`;
  for (const table of PUBLISHED_TABLES) {
    const file = `${REPORT_RESULTS}${table.preset}.json`;
    const result = io.exists(file) ? io.json(file) : undefined;
    const { strict, onCoins } = compareBothWays(table, result);
    const thesis = table.id.startsWith('thesis-');
    const strictKey = `${shortName(table)} | ${table.ties === 'strict' ? "no win (the thesis's rule)" : 'no win'}`;
    check('counts', `${strictKey}: ${show(strict)}`, printed.get(strictKey) === show(strict), `recomputed ${show(strict)}, printed ${printed.get(strictKey) ?? 'nothing'}`);
    add(totals.all, strict);
    add(thesis ? totals.thesis : totals.strict2014, strict);
    add(totals.eachPapers, onCoins ?? strict);
    if (onCoins) {
      const key = `${shortName(table)} | to more coins`;
      check('counts', `${key}: ${show(onCoins)}`, printed.get(key) === show(onCoins), `recomputed ${show(onCoins)}, printed ${printed.get(key) ?? 'nothing'}`);
      add(totals.coins2014, onCoins);
    } else if (table.ties === 'unstated' && result) check('counts', `${shortName(table)} | to more coins`, false, 'a played table of a paper silent on ties cannot be counted on coins');
  }
  const expected = [
    ["**the thesis** | no win (the thesis's rule)", totals.thesis],
    ['**the 2014 paper** | no win', totals.strict2014],
    ['**the 2014 paper** | to more coins', totals.coins2014],
    ['**all** | no win', totals.all],
    ["**all** | the thesis's rule; the 2014 paper's on coins", totals.eachPapers],
  ];
  for (const [key, c] of expected) check('counts', `${key}: ${show(c)}`, printed.get(key) === show(c), `recomputed ${show(c)}, printed ${printed.get(key) ?? 'nothing'}`);
  return totals;
}

function figureChecks(io, check) {
  const { claims } = io.json('reproduction/inputs/claims.json');
  // Compared on one line: a doc's sentence may wrap anywhere.
  const docs = new Map();
  const oneLine = (doc) => docs.get(doc) ?? docs.set(doc, io.text(doc).replace(/\s*\n\s*/g, ' ')).get(doc);
  for (const claim of claims) {
    let text;
    try {
      text = rendered(claim, io);
    } catch (err) {
      check('figures', `${claim.doc}: ${claim.text.slice(0, 60)}`, false, err.message);
      continue;
    }
    const doc = oneLine(claim.doc);
    check('figures', `${claim.doc}: ${text.length > 90 ? `${text.slice(0, 87)}…` : text}`, doc.includes(text), `not in ${claim.doc} as recomputed: "${text}"`);
  }
}

/** manifest.json's files with the lab's record of a clean commit (every part's). */
function cleanFiles(io) {
  const clean = (e) => [e.code].flat().every((c) => c?.commit && c.dirty === false);
  return new Set(io.json('reproduction/manifest.json').files.filter(clean).map((e) => e.path));
}

function labelChecks(io, check) {
  const clean = cleanFiles(io);
  for (const doc of CITING) {
    for (const block of blocksOf(io.text(doc))) {
      // A result folder named as a whole ("in `reproduction/targets/`") cites no one file, nor does a bare placeholder (`<model>.json`).
      const named = block.text.replace(/reproduction\/[\w/-]*\/(?![\w.<>*…-])/g, '').replace(/(?<![\w/.-])<[^>]*>\.json/g, '');
      const cited = citations(named, io.results).cited.filter((f) => !clean.has(f));
      if (cited.length === 0) continue;
      const files = cited.length > 2 ? `${cited.slice(0, 2).join(', ')} and ${cited.length - 2} more` : cited.join(', ');
      check('labels', `${doc}:${block.line}: ${files}`, labelled(block), 'cited without the lab\'s clean-commit record and not labelled history or in-sample');
    }
  }
}

/** The files a finding's "tested" names exist (a path, a pattern with *, or a bare name under reproduction/). */
function namedFiles(text, io) {
  const names = text.match(/[\w./*<>…-]*[\w*-]\.(json|md)\b/g) ?? [];
  return names.map((name) => {
    const pattern = new RegExp(`(^|/)${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return { name, found: io.exists(name) || io.stored.some((f) => pattern.test(f)) };
  });
}

function findingChecks(io, check) {
  const reasons = io.json('shared/src/lab/papers/published-reasons.json');
  for (const [id, given] of Object.entries(reasons)) {
    const lists = [['cause', given.cause], ['table', given.table], ...Object.entries(given.rows ?? {}).map(([label, f]) => [`row '${label}'`, f])];
    for (const [where, findings] of lists) {
      for (const f of findings ?? []) {
        if (!f.tested) {
          check('findings', `${id} ${where}: not tested: ${f.text.slice(0, 50)}…`, true, '');
          continue;
        }
        const files = namedFiles(f.tested, io);
        const ok = files.length ? files.every((x) => x.found) : /\bsame (run|games)\b/.test(f.tested);
        check('findings', `${id} ${where}: tested by ${f.tested.slice(0, 60)}…`, ok, files.length ? `names ${files.filter((x) => !x.found).map((x) => x.name).join(', ')}, not stored` : 'names neither a stored file nor the table\'s own run');
      }
    }
  }
  for (const table of PUBLISHED_TABLES) {
    const file = `${REPORT_RESULTS}${table.preset}.json`;
    if (!io.exists(file)) continue;
    const { strict, onCoins } = compareBothWays(table, io.json(file));
    const rows = [...strict.rows, ...(onCoins?.rows ?? [])].filter((r) => r.verdict === 'differs');
    const bare = [...new Set(rows.filter((r) => !r.reason).map((r) => r.label))];
    check('findings', `${table.id}: every row that differs has a reason, and the table a cause`, bare.length === 0 && (rows.length === 0 || Boolean(table.cause)), `without a reason: ${bare.join('; ') || 'the table\'s cause'}`);
  }
}

/** Whether a block, or the section it is in, cites a stored run (a .json under reproduction/ or learning/ that exists). */
function citesRun(blocks, i, io) {
  const runs = (s) => (s.match(/[\w./-]*[\w-]\.json/g) ?? []).some((name) => namedFiles(name, io).every((x) => x.found) || io.exists(name));
  if (runs(blocks[i].text) || runs(blocks[i].before)) return true;
  const section = blocks.filter((b) => b.headings.join('/') === blocks[i].headings.join('/'));
  return section.some((b) => runs(b.text));
}

function wordChecks(io, check) {
  const sections = new Map();
  const sectionCites = (doc, anchor) => {
    const blocks = blocksOf(io.text(doc));
    const slug = (h) => h.toLowerCase().replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-');
    const at = blocks.findIndex((b) => b.headings.length && slug(b.headings.at(-1)) === anchor);
    return at >= 0 && citesRun(blocks, at, io);
  };
  for (const doc of WORDED) {
    const blocks = blocksOf(io.text(doc));
    blocks.forEach((block, i) => {
      for (const [word] of prose(block.text).matchAll(CLAIMED_WORDS)) {
        // A link to a section (file#anchor) that cites a run backs the word too.
        const links = [...block.text.matchAll(/\]\(([^)#]*)#([^)]+)\)/g)].map(([, file, anchor]) => {
          const target = file ? new URL(file, new URL(doc, root)).href.slice(root.href.length) : doc;
          const key = `${target}#${anchor}`;
          if (!sections.has(key)) sections.set(key, io.exists(target) && sectionCites(target, anchor));
          return sections.get(key);
        });
        const backed = citesRun(blocks, i, io) || links.some(Boolean);
        check('words', `${doc}:${block.line}: "${word}"`, backed, 'no stored run cited in its passage or section, nor in a section it links to');
      }
    });
  }
}

/** Each target's verdict as LEARNING.md prints it, against the same verdict recomputed from the stored tries. */
async function targetChecks(io, check) {
  const { targetVerdicts } = await import('../../learning/report.mjs');
  const learning = io.text('LEARNING.md');
  for (const run of readdirSync(new URL('learning/', root), { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const path = `learning/${run.name}/targets.json`;
    if (!io.exists(path)) continue;
    const { sweeps } = io.json(path);
    for (const v of targetVerdicts(sweeps)) {
      check('targets', `${run.name}: ${v.line}`, learning.includes(v.line), 'LEARNING.md does not say this (a stale report, or a changed stored try)');
    }
    for (const t of sweeps) check('targets', `${run.name}: ${t.name} played from a clean commit`, t.code?.dirty === false && typeof t.code?.commit === 'string', `its code record is ${JSON.stringify(t.code)}`);
  }
}

const GROUPS = { counts: countChecks, figures: figureChecks, labels: labelChecks, findings: findingChecks, words: wordChecks, targets: targetChecks };

/**
 * Every check, each { group, subject, ok, detail }, and the recomputed totals. `files` overrides
 * what is read (path from the repository's root → text), so that a test can change a doc or a
 * stored file and see a check fail; `groups` runs some of the checks only (a test's, for speed).
 */
export async function audit({ files = {}, groups = Object.keys(GROUPS) } = {}) {
  const io = reader(files);
  const checks = [];
  const check = (group, subject, ok, detail) => checks.push({ group, subject, ok, detail: ok ? '' : detail });
  let totals;
  for (const g of groups) totals = (await GROUPS[g](io, check)) ?? totals;
  return { checks, totals };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { checks, totals } = await audit();
  const quiet = process.argv.includes('--quiet');
  for (const c of checks) if (!quiet || !c.ok) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.group}: ${c.subject}${c.ok ? '' : `\n     ${c.detail}`}`);
  const show = (c) => `${c.agrees} agree / ${c.inconclusive} inconclusive / ${c.differs} differ`;
  console.log(`\nrows, a tie for the most VP no win: ${show(totals.all)}; the 2014 paper's: ${show(totals.strict2014)}, on coins ${show(totals.coins2014)}; the thesis's rule with the 2014 paper's on coins: ${show(totals.eachPapers)}`);
  const failed = checks.filter((c) => !c.ok);
  const groups = [...new Set(checks.map((c) => c.group))].map((g) => `${g} ${checks.filter((c) => c.group === g).length}`).join(', ');
  console.log(`${checks.length} checks (${groups}): ${failed.length ? `${failed.length} FAILED` : 'all hold'}`);
  process.exit(failed.length ? 1 : 0);
}
