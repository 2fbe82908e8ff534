/**
 * When a target is met (issue 59): a claim "rate ≥ threshold" is met only when the lower end of
 * its interval clears the threshold — not the point estimate — and every try at the target
 * counts: with k tries, each is held to a one-sided test at 5 %/k (Bonferroni), so that trying
 * again until one sample lands above the line does not make the target met.
 *
 * A try's rate is a mean of per-deal scores when the games of a deal are kept together (seats
 * swapped on a deal: its games share the cards, so they are one cluster, and the interval comes
 * from the spread between deals), or, for a try stored without them, a proportion over games as
 * if independent (Wilson), which the report says.
 */
import { Z95, wilson } from './stats.js';
import { normalUpperQuantile } from './significance.js';

/** The family-wise error rate of a target's tries together. */
export const TARGET_ALPHA = 0.05;

export interface TargetTry {
  name: string;
  /** Per-deal scores in [0, 1] (the mean of the deal's games), when stored. */
  dealScores?: readonly number[];
  /** Otherwise: successes (ties counted as halves allowed) over games. */
  successes?: number;
  games: number;
}

export interface JudgedTry {
  name: string;
  games: number;
  /** Deals when clustered by deal; undefined when the games are taken as independent. */
  deals?: number;
  rate: number;
  /** The two-sided 95 % interval. */
  low: number;
  high: number;
  /** The one-sided lower bound at TARGET_ALPHA / tries. */
  bonferroniLow: number;
  /** bonferroniLow ≥ threshold. */
  met: boolean;
}

export interface TargetJudgement {
  threshold: number;
  tries: JudgedTry[];
  /** Some try's Bonferroni lower bound clears the threshold. */
  met: boolean;
  /** The one-sided level each try was held to. */
  alphaPerTry: number;
}

/** The mean of `xs` with its standard error (0 with one value: a single deal tells no spread). */
function meanAndSe(xs: readonly number[]): { mean: number; se: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : NaN;
  return { mean, se: Math.sqrt(variance / n) };
}

/** Every try at one target against its threshold. */
export function judgeTarget(tries: readonly TargetTry[], threshold: number): TargetJudgement {
  const alphaPerTry = TARGET_ALPHA / Math.max(1, tries.length);
  const z = normalUpperQuantile(alphaPerTry);
  const judged = tries.map((t): JudgedTry => {
    let rate: number;
    let low: number;
    let high: number;
    let bonferroniLow: number;
    if (t.dealScores && t.dealScores.length > 0) {
      const { mean, se } = meanAndSe(t.dealScores);
      rate = mean;
      [low, high] = [mean - Z95 * se, mean + Z95 * se];
      bonferroniLow = mean - z * se;
    } else {
      const k = t.successes ?? NaN;
      rate = k / t.games;
      ({ low, high } = wilson(k, t.games));
      bonferroniLow = wilson(k, t.games, z).low;
    }
    return { name: t.name, games: t.games, ...(t.dealScores?.length ? { deals: t.dealScores.length } : {}), rate, low, high, bonferroniLow, met: bonferroniLow >= threshold };
  });
  return { threshold, tries: judged, met: judged.some((t) => t.met), alphaPerTry };
}
