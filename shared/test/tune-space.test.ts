/**
 * A tune's search space (lab/tune/space.ts): every option read from the agents' parameter table,
 * refusals naming the field, scales mapped to [0, 1] and back, and a point written as a spec.
 */
import { describe, expect, it } from 'vitest';
import { parseAgentSpec } from '../src/agents/index.js';
import { SpaceError, fromUnit, searchSpace, specAt, toUnit } from '../src/lab/tune/space.js';

describe('a search space', () => {
  it('takes any option of the table by its key, with its range as the default bounds', () => {
    const dims = searchSpace('mcts-robilliard(it=250)', [{ key: 'c', scale: 'log', min: 0.05, max: 2 }, { key: 'kscore' }, { key: 'pw' }, { key: 'pwq', min: 0.5, max: 4 }, { key: 'playout' }, { key: 'worlds', values: [1, 4, 8], scale: 'choice' }]);
    expect(dims.map((d) => [d.key, d.scale, d.min, d.max])).toEqual([
      ['c', 'log', 0.05, 2],
      ['kscore', 'linear', 0, 1000],
      ['pw', 'linear', 0, 1],
      ['pwq', 'linear', 0.5, 4],
      ['playout', 'choice', 0, 3],
      ['worlds', 'choice', 0, 2],
    ]);
    expect(dims[4].values).toEqual(['random', 'nodiscard', 'rulebased', 'mast']);
    expect(searchSpace('minimax', [{ key: 'depth' }])[0]).toMatchObject({ key: 'depth', scale: 'integer' });
  });

  it('refuses what no table has, or cannot be tuned, naming the field', () => {
    const refused = (base: string, specs: Parameters<typeof searchSpace>[1]) => {
      try {
        searchSpace(base, specs);
      } catch (err) {
        expect(err).toBeInstanceOf(SpaceError);
        return [(err as SpaceError).field, (err as Error).message];
      }
      return undefined;
    };
    expect(refused('mcts', [{ key: 'cc' }])![0]).toBe('tune.params.0.key');
    expect(refused('mcts', [{ key: 'c' }, { key: 'time' }])![1]).toMatch(/tune.params.1.key: 'time' cannot be tuned/);
    expect(refused('mcts', [{ key: 'scale' }])![1]).toMatch(/a value per Age/);
    expect(refused('mcts', [{ key: 'c', max: 200 }])![0]).toBe('tune.params.0.max');
    expect(refused('mcts', [{ key: 'c', min: 1, max: 0.5 }])![0]).toBe('tune.params.0.max');
    expect(refused('mcts', [{ key: 'c', scale: 'log', min: 0 }])![0]).toBe('tune.params.0.min');
    expect(refused('mcts', [{ key: 'playout', values: ['random', 'greedy'] }])![0]).toBe('tune.params.0.values.1');
    expect(refused('mcts', [{ key: 'c' }, { key: 'c' }])![1]).toMatch(/listed twice/);
    expect(refused('rulebased', [{ key: 'c' }])![0]).toBe('tune.agent');
  });

  it('maps values to [0, 1] on their scale and back, and writes a point as a spec of the base agent', () => {
    const [c, it] = searchSpace('mcts', [{ key: 'c', scale: 'log', min: 0.1, max: 10 }, { key: 'it', scale: 'log', min: 10, max: 1000 }]);
    expect(toUnit(c, 1)).toBeCloseTo(0.5, 12);
    expect(fromUnit(c, 0.5)).toBeCloseTo(1, 12);
    expect(fromUnit(it, 1.2)).toBe(1000);
    const spec = specAt('mcts-robilliard(it=250,c=0.3)', [c, it], [0.55, 123.4]);
    expect(spec).toBe('mcts-robilliard(it=123,c=0.55)');
    expect(parseAgentSpec(spec).kind).toBe('mcts-robilliard');
  });
});
