/**
 * Reading benchmark output back: the `name: value unit` lines that harness.ts prints, and the
 * comparison of two builds' runs of one benchmark (bench --compare, compare.ts). No timing here,
 * so that it can be tested.
 */
import { median } from './harness.js';

export interface Figure {
  value: number;
  unit: string;
}

/** One benchmark run: its figures by name. */
export type Figures = Map<string, Figure>;

const FIGURE = /^([A-Za-z0-9_.-]+): (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?) (\S+)/;

/**
 * The figures of one run's output. Comment lines (`#`) and anything else that is not a figure
 * (warnings, stack traces) are skipped, so that a stray line cannot shift a figure.
 */
export function parseFigures(output: string): Figures {
  const figures: Figures = new Map();
  for (const line of output.split('\n')) {
    const m = FIGURE.exec(line.trim());
    if (m) figures.set(m[1], { value: Number(m[2]), unit: m[3] });
  }
  return figures;
}

export interface Comparison {
  name: string;
  unit: string;
  oldMedian: number;
  newMedian: number;
  /** new / old: above 1 the new build's figure is larger (faster, for a rate). */
  ratio: number;
  /** Half the range of each build's runs relative to its median: how far one run strays. */
  oldSpread: number;
  newSpread: number;
}

function spread(xs: number[], med: number): number {
  return med === 0 ? 0 : (Math.max(...xs) - Math.min(...xs)) / 2 / Math.abs(med);
}

/**
 * Per figure, in the order the new build prints them: the median over each build's runs and
 * their ratio. A figure missing from either build's runs is left out: a benchmark added or
 * renamed between the two has nothing to compare with.
 */
export function compareRuns(oldRuns: Figures[], newRuns: Figures[]): Comparison[] {
  const names: string[] = [];
  for (const run of newRuns) for (const name of run.keys()) if (!names.includes(name)) names.push(name);
  const out: Comparison[] = [];
  for (const name of names) {
    const olds = oldRuns.flatMap((r) => (r.has(name) ? [r.get(name)!.value] : []));
    const news = newRuns.flatMap((r) => (r.has(name) ? [r.get(name)!.value] : []));
    if (olds.length === 0 || news.length === 0) continue;
    const oldMedian = median(olds);
    const newMedian = median(news);
    out.push({
      name,
      unit: newRuns.find((r) => r.has(name))!.get(name)!.unit,
      oldMedian,
      newMedian,
      ratio: oldMedian === 0 ? NaN : newMedian / oldMedian,
      oldSpread: spread(olds, oldMedian),
      newSpread: spread(news, newMedian),
    });
  }
  return out;
}

/** Times (s, ms, µs), sizes (bytes) and costs over a baseline (cost-ratio) improve downwards, unlike rates and ratios. */
export function lowerIsBetter(unit: string): boolean {
  return unit === 's' || unit === 'ms' || unit === 'µs' || unit === 'us' || unit === 'bytes' || unit === 'cost-ratio';
}

function number(x: number): string {
  return Math.abs(x) >= 100 ? String(Math.round(x)) : x.toPrecision(3);
}

/** One line per figure, itself a `name: value unit` line whose value is the ratio new/old. */
export function formatComparison(c: Comparison): string {
  const pct = (x: number) => `±${(x * 100).toFixed(1)}%`;
  const better = lowerIsBetter(c.unit) ? ', lower is better' : '';
  return (
    `${c.name}: ${c.ratio.toFixed(3)} new/old ` +
    `(old ${number(c.oldMedian)} ${pct(c.oldSpread)}, new ${number(c.newMedian)} ${pct(c.newSpread)} ${c.unit}${better})`
  );
}
