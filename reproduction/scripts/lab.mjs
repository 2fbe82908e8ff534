#!/usr/bin/env node
// Plays the papers' presets on a running lab (`npm start`) and saves their results: to in-sample/
// (the earlier runs, history.md) unless --out; confirm.sh collects the confirmation, which
// REPRODUCTION.md is made from, with --out confirmation:
//
//   node reproduction/scripts/lab.mjs submit  [--url U] [--token T] --presets a,b [--deals N] [--first-seed S] [--priority P] [--pairs FROM-TO]
//   node reproduction/scripts/lab.mjs collect [--url U] [--partial] [--first-seed S] [--out DIR] [--allow-dirty] [--commit C] [--merge]
//
// submit posts each preset (deals.count replaced by --deals, deals.firstSeed by --first-seed when
// given) as a sweep named `repro/<preset>/d<deals>/s<first seed>`, skipping names the lab has
// already: held-out deals (another first seed) are another sweep, never a name already played.
// collect writes each finished one (only those of first seed S with --first-seed) to
// <DIR>/<preset>.json (DIR: in-sample/ unless --out, relative to this folder): the spec, the
// cells' aggregates as the API gives them, each seat order's standings for paired designs
// (computed from the exported games with the lab's own Standings), `provenance` as the lab
// reported it (provenance.mjs: code version and dirty flag, seeds, games, wall and CPU time; a
// sweep played from uncommitted code is refused unless --allow-dirty) and `lab`: the sweep id,
// games, when its first and last game finished, that wall time, games/s, the sweeps sharing the
// lab meanwhile and the commit that played it (the lab's). With --merge, a preset played in parts
// (a sweep of the swept values not played yet, named `repro/<preset>/…`) is added to the saved
// result instead of replacing it (mergeResults). --pairs FROM-TO plays only those of a matchup
// preset's pairs (indices into its `pairs`, or into every ordered pair, in the sweep's order:
// first agent, then second), as `repro/<preset>/d<deals>/s<seed>/pairs<FROM>-<TO>`: a table too
// long for one session's lab is played a few pairs at a time, each part collected with --merge.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Standings, Sweep, parseSweepSpec } from '../../shared/dist/src/index.js';

import { labApi, options } from './lab-client.mjs';
import { matchupPairs, mergeResults, mergedSweeps } from './merge.mjs';
import { provenanceOptions, refusals, shortCommit } from './provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

// The reproduction folder: the scripts sit in its scripts/, their inputs in inputs/, outputs beside them.
const here = new URL('..', import.meta.url);
const root = new URL('..', here);
const args = process.argv.slice(3);
const opt = options(args);
const url = opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080');
const token = opt('token', process.env.API_TOKEN);

const api = labApi(url, token);

async function submit() {
  const presets = (opt('presets') ?? '').split(',').filter(Boolean);
  if (presets.length === 0) throw new Error('--presets a,b is required');
  // A cancelled sweep does not count: its preset may be submitted again (e.g. after fixing it).
  const existing = new Set((/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).filter((s) => s.status !== 'cancelled').map((s) => s.name));
  for (const preset of presets) {
    const spec = JSON.parse(readFileSync(new URL(`presets/${preset}.json`, root), 'utf8'));
    if (opt('deals')) spec.deals = { ...spec.deals, count: Number(opt('deals')) };
    if (opt('first-seed')) spec.deals = { ...spec.deals, firstSeed: Number(opt('first-seed')) };
    // A later priority lets sweeps submitted after this one go first (1 is served first).
    if (opt('priority')) spec.priority = Number(opt('priority'));
    // The first seed is in the name so that sweeps of other deals (the fit's, the confirmation's) never share one.
    spec.name = `repro/${preset}/d${spec.deals.count}/s${spec.deals.firstSeed ?? 1}`;
    if (opt('pairs')) {
      const [from, to] = opt('pairs').split('-').map(Number);
      const all = matchupPairs(spec);
      if (!all || !(from >= 0 && to >= from && to < all.length)) throw new Error(`--pairs ${opt('pairs')}: ${preset} has ${all ? `pairs 0-${all.length - 1}` : 'no matchup'}`);
      spec.matchup = { ...spec.matchup, pairs: all.slice(from, to + 1) };
      spec.name += `/pairs${from}-${to}`;
    }
    if (existing.has(spec.name)) continue;
    const { id, games } = await api('/api/sweeps', spec);
    console.log(`${spec.name}\t${id}\t${games} games`);
  }
}

async function collect() {
  const partial = args.includes('--partial');
  const firstSeed = opt('first-seed');
  const out = opt('out', 'in-sample').replace(/\/*$/, '/');
  const refused = refusals(provenanceOptions(args, opt));
  const all = /** @type {SweepOverview[]} */ (await api('/api/sweeps'));
  for (const s of all) {
    // Never a cancelled sweep, even with --partial: a resubmitted preset has the same name.
    if (!s.name.startsWith('repro/') || s.status === 'cancelled' || (s.status !== 'done' && !partial)) continue;
    const preset = s.name.split('/')[1];
    const detail = /** @type {SweepDetail} */ (await api(`/api/sweeps/${s.id}`));
    if (firstSeed !== undefined && detail.spec.deals.firstSeed !== Number(firstSeed)) continue;
    const provenance = refused.check(detail);
    if (!provenance) continue;
    const sweep = new Sweep(parseSweepSpec(detail.spec));
    let orders;
    if (sweep.ordersPerDeal > 1) {
      // Each seat order's standings, as `wonderlab sweep run --json` gives them.
      const per = new Map();
      for (const line of (await api(`/api/sweeps/${s.id}/export?format=jsonl`)).split('\n')) {
        if (!line) continue;
        const g = JSON.parse(line);
        const key = `${Math.floor(g.index / sweep.gamesPerCell)}|${g.seating}`;
        if (!per.has(key)) per.set(key, new Standings());
        per.get(key).add(g);
      }
      orders = detail.cells.map((cell) => ({
        cell: cell.index,
        orders: sweep.orders.map((order, o) => ({ order: order.map((a) => sweep.cells[cell.index].agents[a]), standings: per.get(`${cell.index}|${o}`)?.rows() ?? [] })),
      }));
    }
    const wallSeconds = s.firstGameAt && s.lastGameAt ? (Date.parse(s.lastGameAt) - Date.parse(s.firstGameAt)) / 1000 : null;
    // Sweeps that played games while this one did: its wall time and games/s are then shares of the lab.
    const concurrentSweeps = all.filter((o) => o.id !== s.id && o.firstGameAt && o.lastGameAt && s.firstGameAt && s.lastGameAt && o.firstGameAt < s.lastGameAt && o.lastGameAt > s.firstGameAt).length;
    const result = {
      spec: detail.spec,
      gamesPerCell: detail.gamesPerCell,
      cells: detail.cells,
      // The lab's pooled agents and parameter curves, as the dashboard draws them (render-charts.mjs).
      pooled: detail.pooled,
      parameters: detail.parameters,
      ...(orders ? { orders } : {}),
      provenance,
      lab: { sweep: s.id, status: s.status, games: s.counts.done, firstGameAt: s.firstGameAt, lastGameAt: s.lastGameAt, wallSeconds, gamesPerSecond: s.gamesPerSecond, concurrentSweeps, commit: shortCommit(provenance) },
    };
    mkdirSync(new URL(out, here), { recursive: true });
    const file = new URL(`${out}${preset}.json`, here);
    const before = args.includes('--merge') && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    // Collecting again while the lab still holds a merged part must not count its games twice.
    if (before && mergedSweeps(before).includes(s.id)) {
      console.log(`${s.name}: already merged into ${out}${preset}.json, kept as it is`);
      continue;
    }
    const saved = before ? mergeResults(before, result) : result;
    writeFileSync(file, JSON.stringify(saved, null, 1) + '\n');
    console.log(`${s.name}: ${s.counts.done} games (${s.status}) in ${wallSeconds?.toFixed(0)} s -> ${out}${preset}.json`);
  }
  refused.done();
}

const commands = { submit, collect };
const command = commands[process.argv[2]];
if (!command) {
  console.error('usage: lab.mjs submit|collect [options] (see the head of the file)');
  process.exit(2);
}
command().catch((err) => {
  console.error(`lab.mjs: ${err.message}`);
  process.exit(1);
});
