#!/usr/bin/env node
// Which reading of the thesis's MCTS agent fits its tables? Plays every candidate reading
// (readings.json) on a running lab through the API, then scores each against thesis Tables
// 7.1-7.5 (win rates and mean VP) and Figure 7.2's medians, all at once.
//
//   node reproduction/fit/fit.mjs submit  [--url U] [--token T] [--deals N] [--tables 7.4,7.3,7.2,7.1,7.5] [--readings a,b] [--c 0.1,0.4,0.9]
//   node reproduction/fit/fit.mjs collect [--url U] [--partial] [--allow-dirty] [--commit C]   # saves finished sweeps to results/
//   node reproduction/fit/fit.mjs report [--rows N]               # the fit tables (markdown) on stdout
//   node reproduction/fit/fit.mjs pairs --readings a,b [--url U] [--deals N] [--tables 7.4,…]
//                                                   # each row's correlation of a and b on the same deals, to pairs/
//
// A sweep is named `fit/<reading>/<table>/d<deals>`; submit skips names that exist already. A
// stage is one size (deals per board set): χ² grows with the games per row when a reading is off,
// so readings are compared only within a stage, one table per stage.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PUBLISHED_TABLES, REMOVED_PARAMETERS, Z95, canonicalSpec, chiSquare, chiSquareGap, fitZ, pairedChiSquareGap, parseAgentSpec } from '../../shared/dist/src/index.js';
import { sampleCorrelation } from 'simple-statistics';
import { labApi, options } from '../scripts/lab-client.mjs';
import { provenanceOptions, refusals } from '../scripts/provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

const here = new URL('.', import.meta.url);
const root = new URL('../../', here);
const { readings, base } = JSON.parse(readFileSync(new URL('readings.json', here), 'utf8'));

/**
 * The readings this commit can play: a retired one names mcts options removed with issue 41, which
 * the spec parser now refuses. Its stored results were played at the commits they record.
 */
const playable = Object.keys(readings).filter((r) => !readings[r].retired);

/** Throws, with the way back, unless `reading` is known and playable here. */
function checkPlayable(reading) {
  if (!readings[reading]) throw new Error(`unknown reading '${reading}' (known: ${playable.join(', ')})`);
  if (readings[reading].retired) {
    throw new Error(`reading '${reading}' is retired (${readings[reading].retired}); its stored results were played at the commits they record: check one out to play it again`);
  }
}

/**
 * A reading's mcts options on one table: its `tables` entry there, else its `params`, over `base`
 * (written out in full, so that a change of mcts's defaults cannot change what a reading plays).
 */
function readingParams(reading, table) {
  return { ...base, ...(readings[reading].tables?.[table] ?? readings[reading].params) };
}


const args = process.argv.slice(3);
const opt = options(args);
const url = opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080');
const token = opt('token', process.env.API_TOKEN);

const TABLES = {
  '7.4': 'thesis-7.4-iterations',
  '7.3': 'thesis-7.3-depth',
  '7.2': 'thesis-7.2-exploration',
  '7.1': 'thesis-7.1-seating',
  '7.5': 'thesis-7.5-mcts-matrix',
};

const api = labApi(url, token);

/** An MCTS seat of a preset with the reading's options added. */
function withReading(seat, params) {
  if (typeof seat === 'string') {
    const m = /^mcts:(\d+),(\d+),(\d+)$/.exec(seat);
    if (!m) return seat;
    return { agent: 'mcts', params: { it: +m[1], time: +m[2], depth: +m[3], ...params } };
  }
  return seat.agent === 'mcts' ? { ...seat, params: { ...seat.params, ...params } } : seat;
}

/** A matchup's agent text (`mcts:100,10,100`) with the reading's options, as key=value text. */
function textWithReading(text, params) {
  const seat = withReading(text, params);
  if (typeof seat === 'string') return seat;
  return `${seat.agent}(${Object.entries(seat.params).map(([k, v]) => `${k}=${v}`).join(',')})`;
}

function specFor(reading, table, deals, cValues) {
  const preset = JSON.parse(readFileSync(new URL(`presets/${TABLES[table]}.json`, root), 'utf8'));
  const params = readingParams(reading, table);
  const seats = preset.seats.map((seat) => withReading(seat, params));
  if (table === '7.2' && cValues) seats[0].params.c = cValues;
  const matchup = preset.matchup && { ...preset.matchup, specs: preset.matchup.specs.map((text) => textWithReading(text, params)) };
  return { ...preset, name: `fit/${reading}/${table}/d${deals}`, seats, ...(matchup ? { matchup } : {}), deals: { ...preset.deals, count: deals } };
}

async function submit() {
  const deals = Number(opt('deals', '10'));
  const tables = opt('tables', '7.4,7.3,7.2,7.1').split(',');
  const names = opt('readings', playable.join(',')).split(',');
  const cValues = opt('c', '0.1,0.4,0.9').split(',').map(Number);
  const existing = new Set((/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).map((s) => s.name));
  for (const reading of names) {
    checkPlayable(reading);
    for (const table of tables) {
      const n = dealsFor(table, deals);
      const spec = specFor(reading, table, n, cValues);
      if (existing.has(spec.name)) continue;
      const { id } = await api('/api/sweeps', spec);
      console.log(`${spec.name}\t${id}`);
    }
  }
}

/**
 * The parts of a sweep's detail the fit reads (roles and each label's VP summary), with the
 * sweep's provenance as the lab reported it (code version, dirty flag, seeds, times).
 */
function slim(detail, provenance) {
  return {
    name: detail.name,
    status: detail.status,
    spec: detail.spec,
    provenance,
    gamesPerCell: detail.gamesPerCell,
    cells: detail.cells.map((c) => ({
      index: c.index,
      agents: c.agents,
      swept: c.swept,
      games: c.games,
      roles: c.roles,
      labels: Object.values(c.labels).map((l) => ({ label: l.label, seats: l.seats, games: l.games, wins: l.wins, vp: l.vp })),
    })),
  };
}

/**
 * A sweep's deals per stage deal. A stage dN plays N deals on each of the 21 wonder sets of Tables
 * 7.2-7.4 (21·N games per row). Table 7.1 plays every seat order (6 per deal), so a sixth of 21·N
 * deals gives as many games; Table 7.5 draws its boards per deal, so it needs 21·N deals per pair.
 */
const DEALS_PER_STAGE_DEAL = { '7.1': 21 / 6, '7.5': 21 };
const dealsFor = (table, stageDeals) => Math.max(1, Math.round(stageDeals * (DEALS_PER_STAGE_DEAL[table] ?? 1)));

/** The stage of a sweep, from its table and deals (the inverse of dealsFor): 7.1's d53 is stage d15. */
const stageOf = (table, deals) => `d${Math.round(Number(deals.slice(1)) / (DEALS_PER_STAGE_DEAL[table] ?? 1))}`;

async function collect() {
  const partial = args.includes('--partial');
  const refused = refusals(provenanceOptions(args, opt));
  for (const s of /** @type {SweepOverview[]} */ (await api('/api/sweeps'))) {
    if (!s.name.startsWith('fit/') || (s.status !== 'done' && !partial)) continue;
    const [, reading, table, deals] = s.name.split('/');
    const name = `${reading}--${table}--${stageOf(table, deals)}.json`;
    const full = /** @type {SweepDetail} */ (await api(`/api/sweeps/${s.id}`));
    const provenance = refused.check(full);
    if (!provenance) continue;
    const detail = slim(full, provenance);
    const games = detail.cells.reduce((t, c) => t + c.games, 0);
    // A sweep cancelled before a game finished has nothing to score; saving it would hide the reading's row.
    if (games === 0) continue;
    const file = new URL(`results/${name}`, here);
    const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).cells.reduce((t, c) => t + c.games, 0) : 0;
    if (saved > games) {
      console.log(`${s.name}: ${games} games (${s.status}), kept results/${name} (${saved} games)`);
      continue;
    }
    writeFileSync(file, JSON.stringify(detail, null, 1) + '\n');
    console.log(`${s.name}: ${games} games (${s.status}) -> results/${name}`);
  }
  refused.done();
}

/**
 * A spec's canonical form. Stored results spell out `base`, whose steps=redrawn became the only
 * behaviour with issue 41: a removed option at the value now always played is dropped first.
 */
function canonical(text) {
  const kept = text.replace(/([(,])\s*([a-z]+)\s*=\s*([^,)]*)\s*(?=[,)])/g, (part, sep, key, value) =>
    Object.hasOwn(REMOVED_PARAMETERS, key) && REMOVED_PARAMETERS[key] === value ? sep : part,
  );
  return canonicalSpec(parseAgentSpec(kept.replace(/,+/g, ',').replace(/\(,/, '(').replace(/,\)/, ')')));
}

/** The aggregate of the agent in `seat` (labels pool the seats of one canonical spec). */
const labelOf = (cell, seat) => cell.labels.find((l) => l.label === canonical(cell.agents[seat]));

/** Our estimate for a paper row: the role of the row's seat in the matching cell. */
function oursFor(table, row, result, params) {
  if (table.kind === 'orders') {
    if (row.order !== 'all') return undefined;
    const role = result.cells[0].roles[row.seat];
    const label = labelOf(result.cells[0], row.seat);
    return { wins: role.wins, games: role.games, vp: role.meanVp, sd: label?.vp.sd ?? 8 };
  }
  // A matchup row names its agents as the preset does; the sweep played them with the reading's options.
  const wanted = row.agents?.map((text) => canonical(textWithReading(text, params)));
  const cell = result.cells.find((c) =>
    row.swept ? Object.entries(row.swept).every(([k, v]) => c.swept[k] === v) : wanted?.every((w, i) => canonical(c.agents[i]) === w),
  );
  if (!cell || cell.games === 0) return undefined;
  const role = cell.roles[row.seat];
  const label = labelOf(cell, row.seat);
  return { wins: role.wins, games: role.games, vp: role.meanVp, sd: label?.vp.sd ?? 8, cell };
}

/**
 * Each game of a finished fit sweep on the lab, by game id (the deal, board set and seat order, the
 * same for every reading), with the agent of every seat's win and VP.
 */
async function gamesOf(sweepId) {
  const text = await api(`/api/sweeps/${sweepId}/export?format=jsonl`);
  const games = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line);
    games.set(g.id, { seed: g.seed, players: g.players.map((p) => ({ agent: p.agent, win: p.winner ? 1 : 0, vp: p.score.total })) });
  }
  return games;
}

/** A row's per-game outcome: the one player of the game playing the row's agent. */
function rowOutcome(game, agent) {
  const players = game.players.filter((p) => p.agent === agent);
  return players.length === 1 ? players[0] : undefined;
}

/**
 * Two readings played on the same deals: each row's correlation of their outcomes (win, VP) game by
 * game, saved to pairs/ for the report's paired gap. Rows pooled over seat orders (Table 7.1) and
 * Figure 7.2's medians are left out; the report takes them as uncorrelated.
 */
async function pairs() {
  const [a, b] = opt('readings', '').split(',');
  if (!a || !b) throw new Error('pairs needs --readings a,b of two known readings');
  checkPlayable(a);
  checkPlayable(b);
  const deals = Number(opt('deals', '30'));
  const tables = opt('tables', '7.2,7.3,7.4,7.5').split(',');
  const stage = `d${deals}`;
  const sweeps = new Map((/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).filter((s) => s.status === 'done').map((s) => [s.name, s.id]));
  const rho = {};
  for (const table of tables) {
    const ids = [a, b].map((r) => sweeps.get(`fit/${r}/${table}/d${dealsFor(table, deals)}`));
    if (ids.some((id) => !id)) {
      console.log(`${table}: not played to the end by both on this lab, skipped`);
      continue;
    }
    const [ga, gb] = await Promise.all(ids.map(gamesOf));
    const published = PUBLISHED_TABLES.find((t) => t.preset === TABLES[table]);
    const results = [a, b].map((r) => JSON.parse(readFileSync(new URL(`results/${r}--${table}--${stage}.json`, here), 'utf8')));
    for (const row of published.rows) {
      const found = [a, b].map((r, k) => oursFor(published, row, results[k], readingParams(r, table)));
      if (found.some((o) => !o?.cell)) continue;
      const [ca, cb] = found.map((o) => o.cell.index);
      const [agentA, agentB] = found.map((o) => o.cell.agents[row.seat]);
      const xs = { win: [[], []], vp: [[], []] };
      for (const [id, game] of ga) {
        if (!id.startsWith(`c${ca}-`)) continue;
        const other = gb.get(`c${cb}-${id.slice(id.indexOf('-') + 1)}`);
        if (!other || other.seed !== game.seed) continue;
        const pa = rowOutcome(game, agentA);
        const pb = rowOutcome(other, agentB);
        if (!pa || !pb) continue;
        for (const key of ['win', 'vp']) {
          xs[key][0].push(pa[key]);
          xs[key][1].push(pb[key]);
        }
      }
      if (xs.win[0].length < 10) continue;
      rho[`${table}|${row.label}: win %`] = sampleCorrelation(xs.win[0], xs.win[1]);
      if (row.vp !== undefined) rho[`${table}|${row.label}: VP`] = sampleCorrelation(xs.vp[0], xs.vp[1]);
      console.log(`${table} ${row.label}: ${xs.win[0].length} games on the same deals, ρ win ${rho[`${table}|${row.label}: win %`].toFixed(2)}` + (row.vp !== undefined ? `, VP ${rho[`${table}|${row.label}: VP`].toFixed(2)}` : ''));
    }
  }
  const file = new URL(`pairs/${a}--${b}--${stage}.json`, here);
  const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).rho : {};
  writeFileSync(file, JSON.stringify({ readings: [a, b], stage, rho: { ...saved, ...rho } }, null, 1) + '\n');
  console.log(`-> pairs/${a}--${b}--${stage}.json`);
}

/** The saved correlations of two readings' rows at a stage (either order), or undefined. */
function pairsOf(a, b, stage) {
  for (const [x, y] of [[a, b], [b, a]]) {
    const file = new URL(`pairs/${x}--${y}--${stage}.json`, here);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).rho;
  }
  return undefined;
}

/** Figure 7.2: medians of the MCTS-500 agent and the rule-based players in the Table 7.4 games. */
const MEDIANS = { mcts: 47.8, rulebased: 38.2 };
/** The papers give no VP spreads; a game's VP has a standard deviation near 8 in ours. */
const PAPER_VP_SD = 8;
const PAPER_GAMES = 1050;

/** A scored row: our estimate and the paper's with their standard errors, and its z. */
const fitRow = (row) => ({ ...row, z: fitZ(row) });

function score(reading, stage) {
  const rows = [];
  for (const [key, preset] of Object.entries(TABLES)) {
    const file = new URL(`results/${reading}--${key}--${stage}.json`, here);
    if (!existsSync(file)) continue;
    const result = JSON.parse(readFileSync(file, 'utf8'));
    const table = PUBLISHED_TABLES.find((t) => t.preset === preset);
    const params = readingParams(reading, key);
    for (const row of table.rows) {
      const o = oursFor(table, row, result, params);
      if (!o) continue;
      const rate = (100 * o.wins) / o.games;
      const p = Math.min(Math.max(o.wins / o.games, 0.5 / o.games), 1 - 0.5 / o.games);
      const seOurs = 100 * Math.sqrt((p * (1 - p)) / o.games);
      const [paper, hw] = row.paper;
      rows.push(fitRow({ table: key, label: `${row.label}: win %`, paper, ours: rate, games: o.games, se: seOurs, sePaper: hw / Z95, inside: Math.abs(rate - paper) <= hw }));
      if (row.vp !== undefined) {
        rows.push(fitRow({ table: key, label: `${row.label}: VP`, paper: row.vp, ours: o.vp, games: o.games, se: o.sd / Math.sqrt(o.games), sePaper: PAPER_VP_SD / Math.sqrt(PAPER_GAMES) }));
      }
      if (key === '7.4' && row.swept['seats.0.it'] === 500) {
        for (const label of o.cell.labels) {
          const target = label.label.startsWith('mcts') ? MEDIANS.mcts : label.label === 'rulebased' ? MEDIANS.rulebased : undefined;
          if (target === undefined) continue;
          // The median's standard error: √(π/2) · sd / √n.
          const se = (n, sd) => Math.sqrt(Math.PI / 2) * sd / Math.sqrt(n);
          rows.push(fitRow({ table: 'Fig 7.2', label: `median VP, ${label.label.startsWith('mcts') ? 'MCTS-500' : 'rule-based'}`, paper: target, ours: label.vp.median, games: label.vp.n, se: se(label.vp.n, label.vp.sd), sePaper: se(PAPER_GAMES, PAPER_VP_SD) }));
        }
      }
    }
  }
  return rows;
}

/** The stages played, smallest first: `d5`, `d15`, … */
function stages() {
  const found = new Set(readdirSync(new URL('results/', here)).map((f) => /--(d\d+)\.json$/.exec(f)?.[1]).filter(Boolean));
  return [...found].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** χ² / row with one standard deviation of our sampling, as `12.4 ± 0.9`. */
const perRow = (fit) => (fit.rows ? `${(fit.chi2 / fit.rows).toFixed(1)} ± ${(fit.sd / fit.rows).toFixed(1)}` : '–');

/**
 * The best two readings' gap with their games paired deal by deal, where `pairs` has measured the
 * rows' correlations (the rest taken as uncorrelated); empty when it has not.
 */
function pairedLine(first, second, stage) {
  const rho = pairsOf(first.reading, second.reading, stage);
  if (!rho) return '';
  const key = (r) => `${r.table}|${r.label}`;
  const gap = (keep) => {
    const a = first.rows.filter(keep);
    const b = a.map((r) => second.rows.find((x) => key(x) === key(r)));
    return b.every(Boolean) ? pairedChiSquareGap(a, b, a.map((r) => rho[key(r)] ?? 0)) : undefined;
  };
  const all = gap(() => true);
  const without71 = gap((r) => r.table !== '7.1');
  const measured = first.rows.filter((r) => key(r) in rho);
  const values = measured.map((r) => rho[key(r)]);
  if (all === undefined || !values.length) return '';
  return (
    ` Paired deal by deal (correlation measured on ${measured.length} of ${first.rows.length} rows, ρ ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}; the rest taken as 0):` +
    ` ${Math.abs(all).toFixed(1)} sd over every row` +
    (without71 === undefined || without71 === all ? '' : `, ${Math.abs(without71).toFixed(1)} sd without Table 7.1`) +
    '.'
  );
}

/**
 * One stage's fit table (markdown), best reading first; with `detailed`, the rows of the best few.
 * Table 7.1 is also left out once (no reading fits its VP, so it can decide a close fit alone), and
 * the best two readings' gap is given in standard deviations of our sampling.
 */
function stageReport(stage, detailed) {
  const files = readdirSync(new URL('results/', here)).filter((f) => f.endsWith(`--${stage}.json`));
  const names = playable.filter((r) => files.some((f) => f.startsWith(`${r}--`)));
  const groups = ['7.1', '7.2', '7.3', '7.4', '7.5', 'Fig 7.2'];
  const scored = names.map((r) => {
    const rows = score(r, stage);
    return { reading: r, rows, fit: chiSquare(rows), without71: chiSquare(rows.filter((row) => row.table !== '7.1')) };
  });
  scored.sort((a, b) => b.rows.length - a.rows.length || a.fit.chi2 - b.fit.chi2);
  const out = [];
  out.push('| reading | options | ' + groups.map((g) => `χ² ${g} (rows)`).join(' | ') + ' | χ² / row (± 1 sd) | without 7.1 | win rows inside |');
  out.push('| --- | --- | ' + groups.map(() => '---').join(' | ') + ' | --- | --- | --- |');
  for (const { reading, rows, fit, without71 } of scored) {
    const per = groups.map((g) => {
      const rs = rows.filter((r) => r.table === g);
      return rs.length ? `${chiSquare(rs).chi2.toFixed(0)} (${rs.length})` : '–';
    });
    const wins = rows.filter((r) => r.inside !== undefined);
    const opts = Object.entries(readings[reading].params).map(([k, v]) => `${k}=${v}`).join(',');
    const extra = readings[reading].tables ? ' (7.1: ' + Object.entries(Object.values(readings[reading].tables)[0]).map(([k, v]) => `${k}=${v}`).join(',') + ')' : '';
    out.push(`| ${reading} | \`${opts}\`${extra} | ${per.join(' | ')} | ${perRow(fit)} | ${perRow(without71)} | ${wins.filter((r) => r.inside).length} / ${wins.length} |`);
  }
  out.push('');
  const retired = Object.keys(readings).filter((r) => readings[r].retired && files.some((f) => f.startsWith(`${r}--`)));
  if (retired.length > 0) {
    out.push(`Not scored here, their options removed with issue 41 (results played at the commits they record): ${retired.join(', ')}.`, '');
  }
  const [first, second] = scored;
  if (second && second.rows.length === first.rows.length) {
    const lead = (key) => {
      const gap = chiSquareGap(first[key], second[key]);
      const [ahead, behind] = gap >= 0 ? [first, second] : [second, first];
      return `${ahead.reading} ahead of ${behind.reading} by ${Math.abs(behind[key].chi2 - ahead[key].chi2).toFixed(0)} in χ², ${Math.abs(gap).toFixed(1)} sd`;
    };
    const has71 = first.rows.some((r) => r.table === '7.1');
    out.push(
      // With retired readings left out, the best two are of those still scored, not of every reading played.
      `Best two${retired.length > 0 ? ' of those scored' : ''}: ${lead('fit')}${has71 ? `; without Table 7.1, ${lead('without71')}` : ''} ` +
        "(sd: one standard deviation of our sampling, the two readings taken as independent)." +
        pairedLine(first, second, stage),
      '',
    );
  }
  for (const { reading, rows } of scored.filter((x) => x.rows.length === scored[0].rows.length).slice(0, detailed)) {
    out.push(`**${reading}** (${stage}) row by row:`, '', '| table | row | thesis | ours | games | z |', '| --- | --- | --- | --- | --- | --- |');
    for (const r of rows) out.push(`| ${r.table} | ${r.label} | ${r.paper.toFixed(1)} | ${r.ours.toFixed(1)} | ${r.games} | ${r.z.toFixed(1)} |`);
    out.push('');
  }
  return out.join('\n');
}

/** The tables the issue fits the readings to; Table 7.5 (played since) is scored beside them. */
const FITTED_TABLES = ['7.1', '7.2', '7.3', '7.4'];

/** Whether some reading has been played on all four fitted tables at `stage`. */
function complete(stage) {
  const files = new Set(readdirSync(new URL('results/', here)));
  return playable.some((r) => FITTED_TABLES.every((t) => files.has(`${r}--${t}--${stage}.json`)));
}

/**
 * Every stage's fit table; with `detailed`, the rows of the best few of the last stage at which a
 * reading was played on every table (a larger stage of one table alone says less of the fit).
 */
export function fitReport(detailed = 0) {
  const all = stages();
  const detailStage = all.filter(complete).at(-1) ?? all.at(-1);
  return all
    .map((stage) => {
      const games = Number(stage.slice(1)) * 21;
      return `**Stage ${stage}: ${games} games per row** (${games} for Table 7.1, every seat order)\n\n${stageReport(stage, stage === detailStage ? detailed : 0)}`;
    })
    .join('\n');
}

const report = () => console.log(fitReport(args.includes('--rows') ? Number(opt('rows', '3')) || 3 : 0));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const commands = { submit, collect, report, pairs };
  const command = commands[process.argv[2]];
  if (!command) {
    console.error('usage: fit.mjs submit|collect|report|pairs [options] (see the head of the file)');
    process.exit(2);
  }
  Promise.resolve(command()).catch((err) => {
    console.error(`fit.mjs: ${err.message}`);
    process.exit(1);
  });
}
