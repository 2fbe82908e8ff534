/**
 * NTBEA (lab/tune/ntbea.ts) on a synthetic mixed space with a known best point: its model's
 * estimates, its neighbourhood moves, a replay of the recorded values, and a recommendation that
 * finds a point near the best from noisy evaluations.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';
import { ntbeaEstimate, observeNtbea, recommendNtbea, replayNtbea, startNtbea, type NtbeaConfig } from '../src/lab/tune/ntbea.js';

describe('NTBEA', () => {
  // Four dimensions of 4, 3, 5 and 2 values; the best point is [2, 0, 4, 1].
  const config: NtbeaConfig = { sizes: [4, 3, 5, 2], start: [0, 0, 0, 0], seed: 'ntbea-test' };
  const best = [2, 0, 4, 1];
  const quality = (p: readonly number[]) => 0.3 + 0.6 * (1 - p.reduce((a, v, i) => a + Math.abs(v - best[i]) / (config.sizes[i] - 1), 0) / 4);

  it('a point\'s estimate is the mean of its seen tuple settings, with an exploration term that shrinks as they are seen', () => {
    let s = startNtbea(config);
    expect(ntbeaEstimate(s, [0, 0, 0, 0]).seen).toBe(0);
    s = observeNtbea(config, s, 0.8);
    const e = ntbeaEstimate(s, [0, 0, 0, 0]);
    // 4 one-tuples and 6 pairs, all seen once with 0.8.
    expect(e.mean).toBeCloseTo(0.8, 12);
    expect(e.seen).toBe(10);
    expect(e.explore).toBeCloseTo(Math.sqrt(Math.log(2 / 1.1)), 12);
    // A point that shares one value with it: only that one-tuple seen.
    expect(ntbeaEstimate(s, [0, 1, 1, 1]).seen).toBe(1);
    expect(s.current).not.toEqual([0, 0, 0, 0]);
    expect(() => startNtbea({ ...config, start: [4, 0, 0, 0] })).toThrow(/no value 4/);
  });

  it('from noisy evaluations its recommendation is near the best point, and a replay of the values is the same search', () => {
    const rng = new Rng('ntbea-evaluations');
    let s = startNtbea(config);
    const values: number[] = [];
    for (let t = 0; t < 150; t++) {
      // An evaluation: the mean of 8 games won with the point's probability.
      let wins = 0;
      for (let g = 0; g < 8; g++) wins += rng.float() < quality(s.current) ? 1 : 0;
      values.push(wins / 8);
      s = observeNtbea(config, s, wins / 8);
    }
    const r = recommendNtbea(s)!;
    expect(quality(r.point)).toBeGreaterThanOrEqual(quality(best) - 0.1);
    expect(replayNtbea(config, values)).toEqual(s);
  });
});
