#!/usr/bin/env node
// Head-to-head of every pair of agents in a lab sweep's games: how often one scored more VP than
// the other in the same game (ties half), with its Wilson 95 % interval.
//
//   node reproduction/scripts/h2h.mjs <sweep id or name> [--url U] [--json [--allow-dirty] [--commit C]]
//
// --json adds each agent's win rate, the sweep's spec and its provenance as the lab reported it
// (provenance.mjs: code version and dirty flag, seeds, games, wall and CPU time) — what
// reproduction/targets/ keeps. A sweep played from uncommitted code is refused unless --allow-dirty.
import { HeadToHead } from '../../shared/dist/src/index.js';
import { labApi, options, positional } from './lab-client.mjs';
import { provenanceOptions, sweepProvenance } from './provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

const args = process.argv.slice(2);
const opt = options(args);
const api = labApi(opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080'), opt('token', process.env.API_TOKEN));

/** The head-to-head pairs of a sweep (by id or exact name). */
export async function sweepHeadToHead(ref) {
  const sweep = (/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).find((s) => s.id === ref || s.name === ref);
  if (!sweep) throw new Error(`no sweep '${ref}'`);
  const h = new HeadToHead();
  for (const line of (await api(`/api/sweeps/${sweep.id}/export?format=jsonl`)).split('\n')) if (line) h.add(JSON.parse(line));
  return { sweep, pairs: h.pairs() };
}

const ref = positional(args, ['--json', '--allow-dirty']);
if (!ref) {
  console.error('usage: h2h.mjs <sweep id or name> [--url U] [--json [--allow-dirty] [--commit C]]');
  process.exit(2);
}
const { sweep, pairs } = await sweepHeadToHead(ref);
if (args.includes('--json')) {
  // With each agent's own win rate and the sweep's provenance, so a saved file is a whole record.
  const detail = /** @type {SweepDetail} */ (await api(`/api/sweeps/${sweep.id}`));
  const pooled = detail.pooled.map((p) => ({ label: p.label, games: p.games, wins: p.wins, winRate: p.winRate, wilson: p.wilson, meanVp: p.vp.mean, decisionMs: p.decisionMs }));
  const provenance = sweepProvenance(detail, provenanceOptions(args, opt));
  console.log(JSON.stringify({ sweep: sweep.name, id: sweep.id, spec: detail.spec, provenance, pooled, pairs }, null, 1));
}
else {
  console.log(`${sweep.name} (${sweep.counts.done} games)\n\n| a | b | games | a more VP | ties | a's score | 95 % |\n| --- | --- | --- | --- | --- | --- | --- |`);
  for (const p of pairs) console.log(`| ${p.a} | ${p.b} | ${p.games} | ${p.aMore} | ${p.ties} | ${(100 * p.score).toFixed(1)} % | ${(100 * p.interval.low).toFixed(1)}–${(100 * p.interval.high).toFixed(1)} |`);
}
