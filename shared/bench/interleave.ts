/**
 * Summing up a same-process A/B (ab.ts): two builds run the same workload in short alternating
 * slices, and each pair of neighbouring slices gives one new/old ratio. On a shared VM whose speed
 * drifts by tens of percent between runs, neighbouring slices see nearly the same machine, so
 * the median of those ratios is steadier than any ratio of whole runs. No timing here, so that it
 * can be tested.
 */
import { median } from './harness.js';

/** One timed slice: which build ran it (0 old, 1 new), the operations done and the CPU seconds. */
export interface Slice {
  build: 0 | 1;
  ops: number;
  cpuSeconds: number;
}

export interface PairedSummary {
  /** Operations per CPU-second over all of each build's slices. */
  oldRate: number;
  newRate: number;
  pairs: number;
  /** Median and quartiles of new/old over neighbouring pairs of slices. */
  ratio: number;
  low: number;
  high: number;
}

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * Pairs slices in the order they ran (slice 2k with slice 2k + 1, one of each build) and sums up
 * their rates. Throws when the slices do not alternate: a pair must hold one slice of each build.
 */
export function pairedSummary(slices: readonly Slice[]): PairedSummary {
  const rates: [number[], number[]] = [[], []];
  const totals = [
    { ops: 0, cpu: 0 },
    { ops: 0, cpu: 0 },
  ];
  const ratios: number[] = [];
  for (let k = 0; k + 1 < slices.length; k += 2) {
    const a = slices[k];
    const b = slices[k + 1];
    if (a.build === b.build) throw new Error(`slices ${k} and ${k + 1} are both of build ${a.build}: they must alternate`);
    const [older, newer] = a.build === 0 ? [a, b] : [b, a];
    ratios.push(newer.ops / newer.cpuSeconds / (older.ops / older.cpuSeconds));
  }
  for (const s of slices) {
    rates[s.build].push(s.ops / s.cpuSeconds);
    totals[s.build].ops += s.ops;
    totals[s.build].cpu += s.cpuSeconds;
  }
  if (ratios.length === 0) throw new Error('no pair of slices to compare');
  const sorted = [...ratios].sort((x, y) => x - y);
  return {
    oldRate: totals[0].ops / totals[0].cpu,
    newRate: totals[1].ops / totals[1].cpu,
    pairs: ratios.length,
    ratio: median(ratios),
    low: quantile(sorted, 0.25),
    high: quantile(sorted, 0.75),
  };
}

/** A `name: value unit` line (parseFigures reads it) whose value is the median pair ratio. */
export function formatPaired(name: string, unit: string, s: PairedSummary): string {
  const n = (x: number) => (Math.abs(x) >= 100 ? String(Math.round(x)) : x.toPrecision(3));
  return (
    `${name}: ${s.ratio.toFixed(3)} new/old ` +
    `(quartiles ${s.low.toFixed(3)}–${s.high.toFixed(3)} over ${s.pairs} pairs of slices; old ${n(s.oldRate)}, new ${n(s.newRate)} ${unit} per CPU-second)`
  );
}

/** Per workload, the geometric mean of its two median ratios (formatPaired's lines `name: R new/old (…`):
 * the build loaded first into a process runs a little faster, and each build was first once. */
export function formatBothOrders(oldFirst: string, newFirst: string): string {
  const ratios = (text: string) => new Map([...text.matchAll(/^(\S+): ([0-9.]+) new\/old/gm)].map((m) => [m[1], Number(m[2])]));
  const a = ratios(oldFirst);
  const b = ratios(newFirst);
  const lines = ['# both load orders: geometric mean of the two median ratios new/old'];
  for (const [name, r] of a) {
    const r2 = b.get(name);
    if (r2 !== undefined) lines.push(`${name}: ${Math.sqrt(r * r2).toFixed(3)} new/old (old loaded first ${r.toFixed(3)}, new loaded first ${r2.toFixed(3)})`);
  }
  return lines.join('\n') + '\n';
}
