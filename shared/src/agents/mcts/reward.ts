/**
 * The reward a simulation gives each seat, from the seats' final VP (or, for a simulation stopped
 * at the depth, their VP so far). Every reward but vp lies in [0, 1], so
 * one UCB constant fits them all; vp is the score itself, for the reading of the thesis in which
 * UCB's constant is in VP.
 */
import type { MctsParams } from '../params.js';

/** The margin reward's VP scale: a 20-VP lead (or deficit) saturates it. */
export const MARGIN_SPAN = 40;

/** Fills rewards[q] for q < n from scores[q] (final VP, or a network's predicted VP). */
export function fillRewards(kind: MctsParams['reward'], scores: ArrayLike<number>, n: number, rewards: Float64Array): void {
  let total = 0;
  for (let q = 0; q < n; q++) total += scores[q] > 0 ? scores[q] : 0;
  for (let q = 0; q < n; q++) {
    let bestOther = -Infinity;
    let above = 0;
    for (let o = 0; o < n; o++) {
      if (o === q) continue;
      if (scores[o] > bestOther) bestOther = scores[o];
      if (scores[o] > scores[q]) above++;
    }
    let r: number;
    if (kind === 'win') r = scores[q] > bestOther ? 1 : 0;
    else if (kind === 'rank') r = (n - 1 - above) / (n - 1);
    else if (kind === 'margin') r = Math.min(1, Math.max(0, 0.5 + (scores[q] - bestOther) / MARGIN_SPAN));
    else if (kind === 'vp') r = scores[q];
    // VP share: negative totals (military losses) count as none.
    else r = total > 0 ? Math.max(0, scores[q]) / total : 1 / n;
    rewards[q] = r;
  }
}
