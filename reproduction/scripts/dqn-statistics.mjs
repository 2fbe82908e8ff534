// The DQN study's statistics (dqn-2021-evaluate.mjs, dqn-section.mjs). The games of one deal are
// not independent (the same cards, the network in every seat in turn), so every interval treats
// the deal as the unit: a figure is a ratio over deals, Σ_d y_d / Σ_d n_d (y_d the deal's points,
// wins or rank reward, n_d its games or comparisons), with the cluster-robust variance of a ratio,
//   var = D / (D − 1) · Σ_d (y_d − r·n_d)² / (Σ_d n_d)²,
// With the same n_d in every deal (every deal played once per seat) this is the mean of the
// per-deal means and the variance of those means over D. An unbounded figure (the rank reward)
// takes the normal 95 % interval r ± 1.96·√var; a rate or score in [0, 1] takes Wilson's interval
// at the effective size Σn / deff, deff = var / (r(1 − r) / Σn) the design effect of the deals, at
// least 1 (never narrower than the per-game interval, and not degenerate at 0 or 1).

const Z = 1.96;
/** Two-sided 95 % quantiles of Student's t for 1 … 9 degrees of freedom (the spread over training runs). */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262];

/** Wilson's 95 % interval of a proportion p over n (n need not be whole). */
export function wilson(p, n) {
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z / (1 + (Z * Z) / n)) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** r = Σy / Σn with its deal-clustered 95 % interval (Wilson's at the effective size for a rate or score in [0, 1]). */
export function clusteredRatio(y, n, { bounded = true } = {}) {
  const used = n.map((k, d) => [y[d], k]).filter(([, k]) => k > 0);
  const total = used.reduce((s, [, k]) => s + k, 0);
  const value = used.reduce((s, [v]) => s + v, 0) / total;
  const D = used.length;
  const variance = (D / (D - 1)) * used.reduce((s, [v, k]) => s + (v - value * k) ** 2, 0) / total ** 2;
  if (!bounded) {
    const half = Z * Math.sqrt(variance);
    return { value, low: value - half, high: value + half, deals: D };
  }
  const binomial = (value * (1 - value)) / total;
  const designEffect = binomial > 0 ? Math.max(1, variance / binomial) : 1;
  return { value, ...wilson(value, total / designEffect), deals: D, designEffect };
}

/** 'confirmed' when the interval lies wholly on the paper's side of ½, 'refuted' on the other, else 'inconclusive'. */
export function verdict(interval, side) {
  if (side === 'above' ? interval.low > 0.5 : interval.high < 0.5) return 'confirmed';
  if (side === 'above' ? interval.high < 0.5 : interval.low > 0.5) return 'refuted';
  return 'inconclusive';
}

/**
 * One head-to-head score over a setup's training runs, all played on the same deals: each run's
 * score, their spread (lowest, highest, standard deviation, and the mean with its t interval over
 * runs: the training run as the unit), and the pooled score, every run's games of a deal summed
 * into that deal (the interval clustered by deal: about these networks, not the next run's).
 */
export function overRuns(perDeal, scores) {
  const k = scores.length;
  const mean = scores.reduce((a, b) => a + b, 0) / k;
  const sd = k > 1 ? Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / (k - 1)) : null;
  const half = k > 1 ? T95[k - 2] * sd / Math.sqrt(k) : null;
  const deals = perDeal[0].points.length;
  const sum = (key) => Array.from({ length: deals }, (_, d) => perDeal.reduce((s, r) => s + r[key][d], 0));
  return {
    scores,
    lowest: Math.min(...scores),
    highest: Math.max(...scores),
    sd,
    acrossRuns: half === null ? null : { value: mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half) },
    pooled: clusteredRatio(sum('points'), sum('pairs')),
  };
}
