/**
 * The stopping rules (src/lab/stats/sprt.ts): the SPRT's LLR on concrete numbers, its error rates on
 * simulated games at known Elo (the target: SPRT(0, 10 Elo, α = β = 0.05) wrong within
 * 0.05 ± 0.01 each way), pairing, and the interval rule.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';
import { OutcomeSums, StoppingTest, eloScore, sprtBounds, sprtLlr, type StopRule } from '../src/lab/stats/sprt.js';

describe('the SPRT on concrete numbers', () => {
  it('bounds ln(β/(1−α)) and ln((1−β)/α): ±2.944 at α = β = 0.05', () => {
    const { lower, upper } = sprtBounds(0.05, 0.05);
    expect(lower).toBeCloseTo(-2.9444, 4);
    expect(upper).toBeCloseTo(2.9444, 4);
  });

  it('the expected score of an Elo difference: 0.5 at 0, 0.640 at 100, 0.909 at 400', () => {
    expect(eloScore(0)).toBe(0.5);
    expect(eloScore(100)).toBeCloseTo(0.6401, 4);
    expect(eloScore(400)).toBeCloseTo(10 / 11, 9);
  });

  it('LLR = n (s1 − s0)(2x̄ − s0 − s1) / (2σ²): 600 wins, 200 draws, 200 losses of 1000 against H0 0 / H1 100 Elo', () => {
    const sums = new OutcomeSums();
    for (let i = 0; i < 600; i++) sums.add(1);
    for (let i = 0; i < 200; i++) sums.add(0.5);
    for (let i = 0; i < 200; i++) sums.add(0);
    // x̄ = 0.7, σ² = 0.6 + 0.05 − 0.49 = 0.16; s0 = 0.5, s1 = 0.64006.
    const s1 = eloScore(100);
    expect(sprtLlr(sums, 0, 100)).toBeCloseTo((1000 * (s1 - 0.5) * (1.4 - 0.5 - s1)) / 0.32, 9);
    expect(sprtLlr(sums, 0, 100)).toBeGreaterThan(2.9444);
  });
});

/** Runs a test on simulated games until it decides: win with p(win), draw with p(draw). */
function run(rng: Rng, rule: StopRule, elo: number, draw: number, groupSize = 1): 'H0' | 'H1' {
  const s = eloScore(elo);
  const win = s - draw / 2;
  const test = new StoppingTest(rule, groupSize);
  for (let g = 0; g < 1_000_000; g++) {
    const u = rng.float();
    const d = test.add(u < win ? 1 : u < win + draw ? 0.5 : 0);
    if (d === 'H0' || d === 'H1') return d;
  }
  throw new Error('no decision in a million games');
}

describe('error rates on simulated games at known Elo', () => {
  const rule: StopRule = { sprt: { seats: [0, 1], elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 } };
  const RUNS = 3000;

  it(`SPRT(0, 10, α = β = 0.05), ${RUNS} runs each: accepts H1 at 0 Elo and H0 at 10 Elo in 0.05 ± 0.01 of runs`, () => {
    const rng = new Rng(2026);
    let falseH1 = 0;
    let falseH0 = 0;
    for (let i = 0; i < RUNS; i++) if (run(rng, rule, 0, 0.1) === 'H1') falseH1++;
    for (let i = 0; i < RUNS; i++) if (run(rng, rule, 10, 0.1) === 'H0') falseH0++;
    expect(falseH1 / RUNS).toBeGreaterThan(0.04);
    expect(falseH1 / RUNS).toBeLessThan(0.06);
    expect(falseH0 / RUNS).toBeGreaterThan(0.04);
    expect(falseH0 / RUNS).toBeLessThan(0.06);
  }, 60_000);

  it('decides a clear difference (100 Elo) as H1 and a reversed one as H0, in far fewer games than a fixed design needs', () => {
    const rng = new Rng(7);
    const clear: StopRule = { sprt: { seats: [0, 1], elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 } };
    const games: number[] = [];
    for (let i = 0; i < 200; i++) {
      const test = new StoppingTest(clear);
      const s = eloScore(100);
      while (!test.state.decision) test.add(rng.float() < s ? 1 : 0);
      expect(test.state.decision).toBe('H1');
      games.push(test.state.games);
    }
    expect(games.reduce((a, b) => a + b, 0) / games.length).toBeLessThan(400);
    for (let i = 0; i < 50; i++) expect(run(rng, clear, -100, 0)).toBe('H0');
  });

  it('pairs: a deal\'s seat-swapped games are one outcome (their mean), and a decision waits for a whole pair', () => {
    const test = new StoppingTest(rule, 2);
    test.add(1);
    expect(test.state.value).toBe(0); // no complete pair yet
    test.add(0);
    // One pair scoring ½: LLR of one outcome 0.5 against s0 = 0.5, s1 = eloScore(10), variance floored.
    const sums = new OutcomeSums();
    sums.add(0.5);
    expect(test.state.value).toBeCloseTo(sprtLlr(sums, 0, 10), 12);
    // Pairs halve the variance of a pair whose games split: the paired test needs fewer games at the same Elo.
    const rng = new Rng(11);
    let paired = 0;
    let single = 0;
    for (let i = 0; i < 300; i++) {
      const t2 = new StoppingTest({ sprt: { seats: [0, 1], elo0: 0, elo1: 40, alpha: 0.05, beta: 0.05 } }, 2);
      const t1 = new StoppingTest({ sprt: { seats: [0, 1], elo0: 0, elo1: 40, alpha: 0.05, beta: 0.05 } });
      // Each deal favours one seat (a seat effect of ±0.3); the agents differ by 40 Elo.
      while (!t2.state.decision || !t1.state.decision) {
        const edge = rng.float() < 0.5 ? 0.3 : -0.3;
        const s = eloScore(40);
        const g1 = rng.float() < Math.min(1, Math.max(0, s + edge)) ? 1 : 0;
        const g2 = rng.float() < Math.min(1, Math.max(0, s - edge)) ? 1 : 0;
        t2.add(g1);
        t2.add(g2);
        if (!t1.state.decision) t1.add(g1);
        if (!t1.state.decision) t1.add(g2);
      }
      paired += t2.state.games;
      single += t1.state.games;
    }
    expect(paired).toBeLessThan(single);
  });
});

describe('the interval rule', () => {
  it("stops once seat a's Wilson half-width is at most the target, and never before 16 games", () => {
    const test = new StoppingTest({ ciHalfWidth: 0.1, seat: 0 });
    const rng = new Rng(3);
    while (!test.state.decision) test.add(rng.float() < 0.5 ? 1 : 0);
    expect(test.state.decision).toBe('interval');
    expect(test.state.value).toBeLessThanOrEqual(0.1);
    // Near p = ½ the half-width is ≈ 1.96 · 0.5 / √n: about 96 games for ±0.1.
    expect(test.state.games).toBeGreaterThan(85);
    expect(test.state.games).toBeLessThan(100);
    const early = new StoppingTest({ ciHalfWidth: 0.9, seat: 0 });
    for (let i = 0; i < 15; i++) early.add(1);
    expect(early.state.decision).toBeUndefined();
    early.add(1);
    expect(early.state.decision).toBe('interval');
  });

  it("an undecided run ends as 'max', and a decision never changes after it is made", () => {
    const test = new StoppingTest({ ciHalfWidth: 0.001, seat: 0 });
    for (let i = 0; i < 50; i++) test.add(i % 2);
    expect(test.finish()).toBe('max');
    const decided = new StoppingTest({ ciHalfWidth: 0.5, seat: 0 });
    for (let i = 0; i < 16; i++) decided.add(1);
    expect(decided.state.decision).toBe('interval');
    expect(decided.add(0)).toBe('interval');
    expect(decided.state.games).toBe(16);
  });
});
