/**
 * Dawieang (2021)'s DQN as stored (reproduction/dqn-2021/): the networks are the ones trained
 * (their files' sha256 are training.json's, which the lab recorded when it played them), trained
 * from clean code on seeds the evaluation never used, and evaluated on ≥ 1,000 games each from
 * clean code, with the finding following from the stored intervals.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const folder = new URL('../reproduction/dqn-2021/', import.meta.url);
const read = (name: string) => JSON.parse(readFileSync(new URL(name, folder), 'utf8'));
const training = read('training.json');
const evaluation = read('evaluation.json');
const names = Object.keys(training.setups);

describe('the DQN reproduction as stored', () => {
  test('has the paper\'s five setups, trained and evaluated', () => {
    expect(names).toHaveLength(5);
    expect(Object.keys(evaluation.setups)).toEqual(names);
  });

  test.each(names)('%s: the model file is the one trained and the one the lab played', (name) => {
    const s = training.setups[name];
    const sha = createHash('sha256').update(readFileSync(new URL(s.model, folder))).digest('hex');
    expect(sha).toBe(s.sha256);
    expect(evaluation.setups[name].models[`dqn-2021/${s.model}`]).toBe(sha);
  });

  test.each(names)('%s: clean code, disjoint seeds, at least 1,000 games', (name) => {
    const s = training.setups[name];
    const e = evaluation.setups[name];
    expect(s.code.dirty).toBe(false);
    expect(e.provenance.dirty).toBe(false);
    expect(e.games).toBeGreaterThanOrEqual(1000);
    const [first, last] = s.trainingSeeds;
    const evalFirst = evaluation.firstSeed;
    const evalLast = evalFirst + e.provenance.seeds.deals - 1;
    expect(evalLast < first || evalFirst > last).toBe(true);
  });

  test.each(names)('%s: the finding follows from the stored intervals', (name) => {
    const e = evaluation.setups[name];
    const side = (interval: { low: number; high: number }, above: boolean) =>
      (above ? interval.low > 0.5 : interval.high < 0.5) ? 'confirmed' : (above ? interval.high < 0.5 : interval.low > 0.5) ? 'refuted' : 'inconclusive';
    const random = e.headToHead.random;
    const rule = Object.entries(e.headToHead).find(([c]) => c.startsWith('rulebased')) as [string, { interval: { low: number; high: number } }] | undefined;
    expect(e.finding.betterThanRandom).toBe(random ? side(random.interval, true) : null);
    expect(e.finding.worseThanRuleBased).toBe(rule ? side(rule[1].interval, false) : null);
  });
});
