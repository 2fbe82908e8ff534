/**
 * Dirichlet noise for the root's priors (the `noise` and `alpha` options): AlphaZero's way of
 * making self-play try moves its network does not yet favour. A draw is k Gamma(α) variates
 * normalized; Gamma by Marsaglia and Tsang's method (2000), boosted below α = 1 by U^(1/α), its
 * normals by Box–Muller. Every draw comes from the agent's own generator, so a game is the same
 * game twice.
 */
import type { Rng } from '../../engine/index.js';

/** A standard normal variate. */
function normal(rng: Rng): number {
  // 1 − U is in (0, 1]: the logarithm stays finite.
  const u = 1 - rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/** A Gamma(α, 1) variate, α > 0. */
export function gamma(alpha: number, rng: Rng): number {
  if (alpha < 1) return gamma(alpha + 1, rng) * Math.pow(1 - rng.float(), 1 / alpha);
  const d = alpha - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rng);
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = 1 - rng.float();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A draw of Dir(α, …, α) over out[0 .. k): non-negative, summing to 1. */
export function dirichlet(alpha: number, k: number, rng: Rng, out: Float64Array): void {
  let sum = 0;
  for (let i = 0; i < k; i++) {
    out[i] = gamma(alpha, rng);
    sum += out[i];
  }
  // Every variate can underflow to 0 at a tiny α: then the noise is all on one move, drawn uniformly.
  if (sum === 0) {
    out.fill(0, 0, k);
    out[rng.int(k)] = 1;
    return;
  }
  for (let i = 0; i < k; i++) out[i] /= sum;
}
