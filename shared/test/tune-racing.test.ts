/**
 * Racing (lab/tune/racing.ts) on simulated problems with known rates: its guarantee — the arm it
 * returns is within ε of the best in at least 1 − δ of the races — and its saving against uniform
 * allocation with the same guarantee: every arm played on the same deals until the same stopping
 * rule (the leader at least 2r − ε ahead of every other arm), which makes the same error; racing
 * saves the deals of the arms it drops early. A test, not a benchmark: counts of games and errors,
 * from seeded draws.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';
import { raceLeader, raceLook, raceRadius, startRace, type ArmTally, type RaceOptions } from '../src/lab/tune/racing.js';

const OPTIONS: RaceOptions = { delta: 0.05, epsilon: 0.05 };
/** Deals each arm in the race plays per round. */
const ROUND = 20;

/** A problem: 5–10 arms, the best at 0.3–0.7, the others below it by gaps of 0–0.4. */
function problem(rng: Rng): number[] {
  const k = 5 + rng.int(6);
  const best = 0.3 + 0.4 * rng.float();
  return Array.from({ length: k }, (_, i) => (i === 0 ? best : best - 0.4 * rng.float()));
}

/** ε-best: within ε of the best rate. */
const good = (rates: number[], arm: number) => rates[arm] >= Math.max(...rates) - OPTIONS.epsilon;

function race(rates: number[], rng: Rng): { arm: number; games: number } {
  let state = startRace(rates.length);
  const tallies: ArmTally[] = rates.map(() => ({ deals: 0, sum: 0 }));
  let games = 0;
  while (!state.decided) {
    rates.forEach((p, i) => {
      if (!state.alive[i]) return;
      for (let d = 0; d < ROUND; d++) tallies[i].sum += rng.float() < p ? 1 : 0;
      tallies[i].deals += ROUND;
      games += ROUND;
    });
    state = raceLook(state, tallies, OPTIONS);
  }
  expect(state.decided.arm).toBe(raceLeader(state, tallies));
  return { arm: state.decided.arm, games };
}

describe('racing', () => {
  it('the radius at look j with t deals: sqrt(ln(4 K j² / δ) / 2t)', () => {
    expect(raceRadius(8, 3, 60, 0.05)).toBeCloseTo(Math.sqrt(Math.log((4 * 8 * 9) / 0.05) / 120), 15);
    expect(() => startRace(1)).toThrow(/at least two arms/);
    // An arm far behind leaves at the first look; arms within the radius stay.
    const s = raceLook(startRace(3), [{ deals: 100, sum: 90 }, { deals: 100, sum: 85 }, { deals: 100, sum: 10 }], OPTIONS);
    expect(s.alive).toEqual([true, true, false]);
    expect(s.eliminatedAt).toEqual([undefined, undefined, 1]);
    expect(() => raceLook(s, [{ deals: 100, sum: 90 }, { deals: 120, sum: 85 }, { deals: 100, sum: 10 }], OPTIONS)).toThrow(/same deals/);
  });

  it('in 1,000 simulated races of 5–10 arms the arm returned is ε-best in ≥ 1 − δ of them, with ≥ 50 % fewer games than uniform allocation at the same error', () => {
    const rng = new Rng('racing-guarantee');
    const problems = Array.from({ length: 1000 }, () => problem(rng));
    let errors = 0;
    let raceGames = 0;
    for (const rates of problems) {
      const r = race(rates, rng);
      raceGames += r.games;
      if (!good(rates, r.arm)) errors++;
    }
    expect(errors / problems.length).toBeLessThanOrEqual(OPTIONS.delta);

    // Uniform allocation with the same guarantee: every arm on every round, until the same stop.
    let uniformGames = 0;
    let uniformErrors = 0;
    for (const rates of problems) {
      const k = rates.length;
      const sums = rates.map(() => 0);
      for (let j = 1, t = ROUND; ; j++, t += ROUND) {
        rates.forEach((p, i) => {
          for (let d = 0; d < ROUND; d++) sums[i] += rng.float() < p ? 1 : 0;
        });
        uniformGames += k * ROUND;
        const r = raceRadius(k, j, t, OPTIONS.delta);
        const leader = sums.reduce((best, x, i) => (x > sums[best] ? i : best), 0);
        if (sums.every((x, i) => i === leader || (sums[leader] - x) / t >= 2 * r - OPTIONS.epsilon)) {
          if (!good(rates, leader)) uniformErrors++;
          break;
        }
      }
    }
    expect(uniformErrors / problems.length).toBeLessThanOrEqual(OPTIONS.delta);
    expect(raceGames).toBeLessThanOrEqual(0.5 * uniformGames);
  });
});
