/**
 * Timing helpers shared by the benchmarks, on one core, each figure printed as `name: value unit`:
 * measure's the median of several timed rounds; measurePerCalibration's a workload's ratio to a
 * calibration loop from alternating slices of the two, so that ratios compare across machines.
 *
 * BENCH_SECONDS (default 1) sets the length of one round; BENCH_ROUNDS (default 5) their number;
 * BENCH_PAIRS (default 10) the pairs of slices behind a figure per calibration.
 */
import { pairedSummary, type Slice } from './interleave.js';

export const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Pairs of alternating slices behind each figure per calibration (measurePerCalibration). */
export const CALIBRATION_PAIRS = Number(process.env.BENCH_PAIRS ?? 10);
const CALIBRATION_SLICE_MS = 250;
const WARM_UP_MS = 2000;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** This process's CPU seconds (user and system) while `body` runs. */
export function cpuSeconds(body: () => void): number {
  const before = process.cpuUsage();
  body();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/**
 * One timed slice of a same-process comparison (interleave.ts): `work` run over and over for `ms`
 * of wall time, each call returning the operations it did; the slice's operations and CPU seconds.
 */
export function cpuSlice(build: 0 | 1, ms: number, work: () => number): Slice {
  const cpu0 = process.cpuUsage();
  const until = performance.now() + ms;
  let ops = 0;
  while (performance.now() < until) ops += work();
  const cpu = process.cpuUsage(cpu0);
  return { build, ops, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/**
 * Two workloads (0 "old", 1 "new") in `pairs` pairs of alternating `ms` slices, after a warm-up
 * slice of each (`warmUpMs`): old-new, then new-old, by turns, so that a machine speeding up or
 * slowing down favours neither. The slices in the order run, for pairedSummary.
 */
export function alternatingSlices(pairs: number, ms: number, works: readonly [() => number, () => number], warmUpMs: readonly [number, number]): Slice[] {
  for (const b of [0, 1] as const) cpuSlice(b, warmUpMs[b], works[b]);
  const slices: Slice[] = [];
  for (let k = 0; k < pairs; k++) {
    for (const b of k % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) slices.push(cpuSlice(b, ms, works[b]));
  }
  return slices;
}

/** Runs `body` (which does `batch` operations) repeatedly for one round; returns ops per second. */
export function rate(body: () => void, batch: number): number {
  const until = performance.now() + ROUND_SECONDS * 1000;
  let ops = 0;
  const start = performance.now();
  while (performance.now() < until) {
    body();
    ops += batch;
  }
  return ops / ((performance.now() - start) / 1000);
}

export function measure(name: string, unit: string, body: () => void, batch: number): number {
  rate(body, batch); // warm-up round: let the JIT settle
  const rounds: number[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(rate(body, batch));
  const med = median(rounds);
  const spread = (Math.max(...rounds) - Math.min(...rounds)) / med;
  console.log(`${name}: ${Math.round(med)} ${unit} (median of ${ROUNDS}, spread ±${(spread * 50).toFixed(1)}%)`);
  return med;
}

/**
 * Calibration: a fixed integer-and-array workload of roughly the engine's flavour (typed arrays,
 * small loops, a PRNG), unrelated to the engine's code, so that engine/calibration ratios are
 * comparable between machines.
 */
export function calibrationUnit(): void {
  const a = new Int32Array(256);
  let x = 0x12345678;
  for (let i = 0; i < 4096; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    a[x & 255] += x & 7;
  }
  if (a[0] === -1) console.log('unreachable');
}

/**
 * A workload's rate and its ratio to the calibration loop, the two run in alternating slices of
 * 250 ms (calibration first, then the workload first, by turns), so that the machine's drift over
 * a run is in neither: the ratio is the median of the neighbouring pairs' ratios, with quartiles.
 * Measured one after the other, the same build's ratio ranged 0.30–0.43 in runs ten minutes apart
 * on the 2-core VM. In CPU time: `npm run bench` runs it with --single-threaded-gc, as the lab's
 * workers play, so that the collector's helper threads (a third more CPU per 7-player random game
 * without the flag) are neither left out nor added. `work` runs some operations and returns how
 * many. Prints the rate (operations per CPU-second over the workload's slices) and
 * `NAME_per_calibration`, with `note(rate)` after its quartiles if given; returns the rate.
 */
export function measurePerCalibration(name: string, unit: string, work: () => number, note?: (rate: number) => string): number {
  const calibration = () => {
    calibrationUnit();
    return 1;
  };
  // Build 0 ("old") is the calibration loop, build 1 ("new") the workload: a pair's new/old ratio
  // is the workload's rate per calibration rate. The workload's warm-up is long: a search's first
  // seconds still compile, on threads of their own whose CPU counts.
  const slices = alternatingSlices(CALIBRATION_PAIRS, CALIBRATION_SLICE_MS, [calibration, work], [2 * CALIBRATION_SLICE_MS, WARM_UP_MS]);
  const p = pairedSummary(slices);
  console.log(`${name}: ${Math.round(p.newRate)} ${unit} (per CPU-second over ${p.pairs} slices beside the calibration loop's)`);
  console.log(
    `${name}_per_calibration: ${p.ratio.toFixed(3)} ratio (quartiles ${p.low.toFixed(3)}–${p.high.toFixed(3)} over ${p.pairs} pairs of alternating slices` +
      `${note ? `; ${note(p.newRate)}` : ''})`,
  );
  return p.newRate;
}
