/**
 * Timing helpers shared by the benchmarks: each figure is the median of several timed rounds on
 * one core, printed as `name: value unit`, next to a calibration figure measured in the same run
 * so that ratios compare across machines.
 *
 * BENCH_SECONDS (default 1) sets the length of one round; BENCH_ROUNDS (default 5) their number.
 */
import type { Slice } from './interleave.js';

export const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

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

