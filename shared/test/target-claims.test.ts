/**
 * When a target is met (lab/stats/target-claims.ts): the lower end of the interval, not the point
 * estimate, must clear the threshold, and every try at the target counts (Bonferroni).
 */
import { describe, expect, it } from 'vitest';
import { TARGET_ALPHA, Z95, judgeTarget, normalUpperQuantile, normalUpperTail, wilson } from '../src/lab/index.js';

describe('a target judged by its interval', () => {
  it('normalUpperQuantile inverts the normal tail: 1.959964 at 2.5 %, 1.644854 at 5 %, 2.128045 at 5 %/3', () => {
    expect(normalUpperQuantile(0.025)).toBeCloseTo(Z95, 9);
    expect(normalUpperQuantile(0.05)).toBeCloseTo(1.644854, 6);
    expect(normalUpperQuantile(0.05 / 3)).toBeCloseTo(2.128045, 6);
    for (const p of [1e-6, 0.01, 0.3, 0.5, 0.9]) expect(normalUpperTail(normalUpperQuantile(p))).toBeCloseTo(p, 10);
    expect(() => normalUpperQuantile(0)).toThrow(RangeError);
  });

  it('56.4 % of 1000 against 55 % on the third try is not met: the point estimate clears the line, its interval does not', () => {
    // The stored try (learning/strong/targets.json, net-c0.6 against mcts-strong(it=500)): 564 of 1000.
    const third = { name: 'c0.6', successes: 564, games: 1000 };
    const alone = judgeTarget([third], 0.55);
    expect(alone.tries[0].rate).toBeGreaterThan(0.55);
    expect(alone.tries[0].bonferroniLow).toBeCloseTo(wilson(564, 1000, normalUpperQuantile(TARGET_ALPHA)).low, 12);
    expect(alone.met).toBe(false);
    // Three tries: each held to 5 %/3, a lower bound lower still.
    const three = judgeTarget([{ name: 'a', successes: 521, games: 1000 }, { name: 'b', successes: 541, games: 1000 }, third], 0.55);
    expect(three.alphaPerTry).toBeCloseTo(0.05 / 3, 15);
    expect(three.tries[2].bonferroniLow).toBeLessThan(alone.tries[0].bonferroniLow);
    expect(three.met).toBe(false);
    // Far enough above the line, a try is met whatever the count.
    expect(judgeTarget([{ name: 'x', successes: 700, games: 1000 }, third], 0.55).met).toBe(true);
  });

  it('games clustered by deal: the mean of per-deal scores with the between-deal spread', () => {
    // Four deals of two games each: scores 1, ½, 1, 0 → mean 0.625, sd 0.4787, se 0.2394.
    const t = judgeTarget([{ name: 'pairs', dealScores: [1, 0.5, 1, 0], games: 8 }], 0.3).tries[0];
    const se = Math.sqrt(((0.375 ** 2) * 2 + 0.125 ** 2 + 0.625 ** 2) / 3 / 4);
    expect(t.deals).toBe(4);
    expect(t.rate).toBeCloseTo(0.625, 12);
    expect(t.low).toBeCloseTo(0.625 - Z95 * se, 12);
    expect(t.bonferroniLow).toBeCloseTo(0.625 - 1.6448536269514722 * se, 9);
    expect(t.met).toBe(false);
  });
});
