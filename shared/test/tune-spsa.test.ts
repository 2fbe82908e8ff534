/**
 * SPSA as fishtest runs it (lab/tune/spsa.ts): gains that end at c_end and r_end, the same step
 * whenever it is proposed again, a replay that rebuilds the state, and on a noisy synthetic
 * objective (the chance θ+ beats θ− grows with how much closer to an optimum it is) a θ that moves
 * toward the optimum.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';
import { SPSA_C_END, SPSA_R_END, applySpsa, proposeSpsa, replaySpsa, spsaGains, startSpsa, type SpsaConfig, type SpsaProposal } from '../src/lab/tune/spsa.js';

describe('SPSA', () => {
  const config: SpsaConfig = { steps: 400, start: [0.2, 0.8, 0.5, 0.3], seed: 'spsa-test' };

  it('its gains run backwards from their final values: c_k = c_end and R_k = r_end at the last step', () => {
    const last = spsaGains(config, config.steps - 1);
    expect(last.ck).toBeCloseTo(SPSA_C_END, 12);
    expect(last.rk).toBeCloseTo(SPSA_R_END, 12);
    const first = spsaGains(config, 0);
    expect(first.ck).toBeCloseTo(SPSA_C_END * config.steps ** 0.101, 12);
    expect(first.ck).toBeGreaterThan(last.ck);
  });

  it('proposes the same step again from the same state, clips to [0, 1] and rounds integers on their grid', () => {
    const state = startSpsa({ ...config, start: [0, 1, 0.5, 0.5] });
    const a = proposeSpsa(config, state, 7);
    expect(proposeSpsa(config, state, 7)).toEqual(a);
    for (const x of [...a.plus, ...a.minus]) expect(x >= 0 && x <= 1).toBe(true);
    const grid = proposeSpsa({ ...config, integerStep: [0, 0, 0.1, 0] }, state, 3);
    for (const x of [grid.plus[2], grid.minus[2]]) expect(Math.abs(x * 10 - Math.round(x * 10))).toBeLessThan(1e-9);
    expect(() => startSpsa({ ...config, start: [1.5] })).toThrow(/\[0, 1\]/);
  });

  it('on a noisy objective moves θ toward its optimum, and a replay of the recorded results is the same trajectory', () => {
    const optimum = [0.7, 0.3, 0.5, 0.6];
    const closeness = (x: number[]) => -x.reduce((a, v, i) => a + (v - optimum[i]) ** 2, 0);
    const rng = new Rng('games');
    let state = startSpsa(config);
    const recorded: { proposal: SpsaProposal; s: number }[] = [];
    for (let k = 0; k < config.steps; k++) {
      const p = proposeSpsa(config, state, k);
      // Two games: θ+ scores more VP with probability ½ + the gap in closeness (a game's noise is large).
      const edge = Math.max(-0.5, Math.min(0.5, 2 * (closeness(p.plus) - closeness(p.minus))));
      let s = 0;
      for (let g = 0; g < 2; g++) s += rng.float() < 0.5 + edge ? 1 : -1;
      recorded.push({ proposal: p, s });
      state = applySpsa(state, p, s);
    }
    const distance = (x: number[]) => Math.sqrt(-closeness(x));
    expect(distance(state.theta)).toBeLessThan(0.6 * distance(config.start as number[]));
    expect(state.trajectory).toHaveLength(config.steps);
    expect(replaySpsa(config, recorded)).toEqual(state);
  });
});
