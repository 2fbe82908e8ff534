#!/usr/bin/env node
// A lab sweep's cells as a record to keep (reproduction/targets/): each cell's agents, games, how
// its games were decided, and each agent's wins, win rate with its Wilson 95 % interval and mean
// VP — for screens whose question is per cell (a matchup of variants), where h2h.mjs's pooled
// rates would mix the cells.
//
//   node reproduction/scripts/cells.mjs <sweep id or name> [--url U] [--token T] [--allow-dirty] [--commit C]
//
// With the sweep's provenance as the lab reported it (provenance.mjs); a sweep played from
// uncommitted code is refused unless --allow-dirty.
import { labApi, options, positional } from './lab-client.mjs';
import { provenanceOptions, sweepProvenance } from './provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

const args = process.argv.slice(2);
const opt = options(args);
const api = labApi(opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080'), opt('token', process.env.API_TOKEN));

const ref = positional(args, ['--allow-dirty']);
if (!ref) {
  console.error('usage: cells.mjs <sweep id or name> [--url U] [--token T] [--allow-dirty] [--commit C]');
  process.exit(2);
}
const sweep = (/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).find((s) => s.id === ref || s.name === ref);
if (!sweep) throw new Error(`no sweep '${ref}'`);
const detail = /** @type {SweepDetail} */ (await api(`/api/sweeps/${sweep.id}`));
const provenance = sweepProvenance(detail, provenanceOptions(args, opt));
const cells = detail.cells.map((c) => ({
  agents: c.agents,
  games: c.games,
  decidedBy: c.decidedBy,
  rates: c.labels.map((l) => ({ label: l.label, games: l.games, wins: l.wins, winRate: l.winRate, wilson: l.wilson, meanVp: l.vp.mean })),
}));
console.log(JSON.stringify({ sweep: sweep.name, id: sweep.id, status: sweep.status, spec: detail.spec, provenance, cells }, null, 1));
