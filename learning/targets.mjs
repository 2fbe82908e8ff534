// Collects the learning runs' target evaluations (issue 45's targets: a network agent against
// mcts-strong at equal wall time per move; the network alone against two rulebased) from a lab
// into learning/<run>/targets.json, as the lab reported them: its code version and models, its
// workers (host, processor), games, per agent the win rate with its Wilson interval, VP and wall
// time per decision, and the head-to-head matrix; and, from the games themselves, per deal the
// first seat's agent's score against the second's and its wins (the games of a deal share the
// cards: report.mjs judges a target on the spread between deals). Only finished sweeps are kept.
//   node learning/targets.mjs --url http://127.0.0.1:8080 --run strong --sweep ID [--sweep ID …]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, run: { type: 'string' }, sweep: { type: 'string', multiple: true } } });
if (!values.url || !values.run || !values.sweep?.length) {
  console.error('usage: node learning/targets.mjs --url URL --run NAME --sweep ID [--sweep ID …]');
  process.exit(2);
}
const file = new URL(`${values.run}/targets.json`, import.meta.url);

/**
 * Per deal (and board set) of the sweep, in deal order: `more`, the mean over the deal's games of
 * agent a's score against agent b at the table (1 more VP, ½ a tie, 0 fewer), and `wins`, the
 * share of its games a won (strictly the most VP). Agents by their spec as the sweep writes them.
 */
async function dealScores(id, a, b) {
  const res = await fetch(new URL(`/api/sweeps/${id}/export?format=jsonl`, values.url));
  if (!res.ok) throw new Error(`sweep ${id} export: ${res.status} ${await res.text()}`);
  const deals = new Map();
  for (const line of (await res.text()).split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line);
    const pa = g.players.find((p) => p.agent === a);
    const pb = g.players.find((p) => p.agent === b);
    if (!pa || !pb) continue;
    const key = `${g.set}:${g.deal}`;
    const d = deals.get(key) ?? { set: g.set, deal: g.deal, more: 0, wins: 0, games: 0 };
    d.more += pa.score.total > pb.score.total ? 1 : pa.score.total === pb.score.total ? 0.5 : 0;
    d.wins += pa.winner ? 1 : 0;
    d.games++;
    deals.set(key, d);
  }
  const sorted = [...deals.values()].sort((x, y) => x.set - y.set || x.deal - y.deal);
  return { more: sorted.map((d) => d.more / d.games), wins: sorted.map((d) => d.wins / d.games), games: sorted.reduce((n, d) => n + d.games, 0) };
}
const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { sweeps: [] };
for (const id of values.sweep) {
  const res = await fetch(new URL(`/api/sweeps/${id}`, values.url));
  if (!res.ok) throw new Error(`sweep ${id}: ${res.status} ${await res.text()}`);
  const d = /** @type {import('@wonderlab/coordinator').SweepDetail} */ (await res.json());
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
    dealScores: await dealScores(id, d.spec.seats[0], d.spec.seats[1]),
  };
  kept.sweeps = kept.sweeps.filter((s) => s.sweep !== id).concat(entry);
  console.error(`kept ${d.name}: ${entry.games} games`);
}
writeFileSync(file, JSON.stringify(kept, null, 2) + '\n');
