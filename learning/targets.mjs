// Collects the learning runs' target evaluations (issue 45's targets: a network agent against
// mcts-strong at equal wall time per move; the network alone against two rulebased) from a lab
// into learning/<run>/targets.json, as the lab reported them: its code version and models, its
// workers (host, processor), games, per agent the win rate with its Wilson interval, VP and wall
// time per decision, and the head-to-head matrix. Only finished sweeps are kept; report.mjs reads the file.
//   node learning/targets.mjs --url http://127.0.0.1:8080 --run strong --sweep ID [--sweep ID …]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, run: { type: 'string' }, sweep: { type: 'string', multiple: true } } });
if (!values.url || !values.run || !values.sweep?.length) {
  console.error('usage: node learning/targets.mjs --url URL --run NAME --sweep ID [--sweep ID …]');
  process.exit(2);
}
const file = new URL(`${values.run}/targets.json`, import.meta.url);
const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { sweeps: [] };
for (const id of values.sweep) {
  const res = await fetch(new URL(`/api/sweeps/${id}`, values.url));
  if (!res.ok) throw new Error(`sweep ${id}: ${res.status} ${await res.text()}`);
  const d = await res.json();
  if (d.status !== 'done') {
    console.error(`sweep ${id} (${d.name}) is ${d.status}: not kept`);
    continue;
  }
  const entry = {
    sweep: d.id,
    name: d.name,
    code: d.provenance.code,
    models: d.provenance.models ?? {},
    seats: d.spec.seats,
    seating: d.spec.seating,
    firstSeed: d.spec.deals.firstSeed,
    games: d.counts.done,
    cpuSeconds: d.provenance.cpuSeconds,
    // Host, processor and games of each worker: a time-matched evaluation holds on that processor.
    workers: d.provenance.workers,
    agents: d.pooled.map((p) => ({ agent: p.label, seatGames: p.games, wins: p.wins, winRate: p.winRate, wilson: p.wilson, vpMean: p.vp.mean, decisionMs: p.decisionMs })),
    headToHead: d.headToHead,
  };
  kept.sweeps = kept.sweeps.filter((s) => s.sweep !== id).concat(entry);
  console.error(`kept ${d.name}: ${entry.games} games`);
}
writeFileSync(file, JSON.stringify(kept, null, 2) + '\n');
