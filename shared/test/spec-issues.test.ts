/**
 * A refused spec's first problem: an unknown key before the required key it left missing (and
 * inside a union, in the option the input came closest to), named, with the keys allowed there and
 * the close one when there is one.
 */
import { describe, expect, it } from 'vitest';
import { SweepSpecError, SweepSpecSchema, parseSweepSpec } from '../src/lab/index.js';
import { closeKey, keysAt } from '../src/lab/plan/spec-issues.js';
import { PARAMETER_LIST } from '../src/agents/params.js';
import { MINIMAX_LIST } from '../src/agents/minimax/params.js';

const base = { name: 'x', players: 3, seats: ['random', 'random', 'random'], deals: { count: 2 } };

function problem(input: unknown): string {
  try {
    parseSweepSpec(input);
  } catch (err) {
    if (err instanceof SweepSpecError) return err.message;
    throw err;
  }
  return 'valid';
}

describe('a refused spec', () => {
  it('names a mistyped key before the required one it left out, with the close valid one', () => {
    const { deals, ...rest } = base;
    expect(problem({ ...rest, deal: deals })).toBe(
      "deal: unknown key 'deal' (did you mean 'deals'? known: name, players, seats, matchup, wonders, sides, deals, seating, swapSeats, open, keepRecords, training, stop, paper, tune, priority)",
    );
    expect(problem({ ...base, deals: { cout: 3 } })).toBe("deals.cout: unknown key 'cout' (did you mean 'count'? known: firstSeed, count)");
    expect(problem({ ...base, seats: [{ agent: 'mcts', parms: { it: 5 } }, 'random', 'random'] })).toBe("seats.0.parms: unknown key 'parms' (did you mean 'params'? known: agent, params)");
  });

  it('an unknown option lists every option, MCTS\'s then the keys minimax adds', () => {
    const message = problem({ ...base, seats: [{ agent: 'mcts', params: { iterations: 5 } }, 'random', 'random'] });
    const keys = [...PARAMETER_LIST.map((d) => d.key), ...MINIMAX_LIST.map((d) => d.key).filter((k) => !PARAMETER_LIST.some((d) => d.key === k))];
    expect(keys).toContain('keep');
    expect(message).toBe(`seats.0.params.iterations: unknown key 'iterations' (known: ${keys.join(', ')})`);
  });

  it('inside a union: the option the input came closest to', () => {
    expect(problem({ ...base, stop: { ciHalfwidth: 0.1, seat: 0 } })).toMatch(/^stop\.ciHalfwidth: unknown key 'ciHalfwidth' \(did you mean 'ciHalfWidth'\?/);
    expect(problem({ ...base, wonders: { mode: 'duplicated', set: 3 } })).toMatch(/^wonders\.set: unknown key 'set' \(did you mean 'sets'\?/);
    // Neither a string nor an object: zod's own words, at the seat.
    expect(problem({ ...base, seats: [5, 'random', 'random'] })).toMatch(/^seats\.0: /);
  });

  it('other problems as before', () => {
    expect(problem({ ...base, deals: { count: 0 } })).toMatch(/^deals\.count: /);
    expect(problem({ ...base, name: '' })).toMatch(/^name: /);
  });

  it('a seat written as an object is told about its object, not that it is no string', () => {
    expect(problem({ ...base, seats: [{ agent: 'mcts', params: { c: '0.4' } }, 'random', 'random'] })).toBe('seats.0.params.c: expected a number from 0 to 100, or a list of such values; got "0.4"');
  });

  it('every problem, not only the first: unknown keys, then the shape, then the agents of the seats of a right shape', () => {
    const input = { ...base, colour: 'red', seats: ['mcts(it=zero)', { agent: 'mcts', params: { c: 'abc' } }, 'random'], deals: { count: 0 } };
    let problems: readonly { field: string }[] = [];
    try {
      parseSweepSpec(input);
    } catch (err) {
      problems = (err as SweepSpecError).problems;
    }
    expect(problems.map((p) => p.field)).toEqual(['colour', 'seats.1.params.c', 'deals.count', 'seats.0']);
  });
});

describe('keysAt and closeKey', () => {
  it("the keys of the object at a path, of every option of a union", () => {
    expect(keysAt(SweepSpecSchema, ['deals'])).toEqual(['firstSeed', 'count']);
    expect(keysAt(SweepSpecSchema, ['seats', 2])).toEqual(['agent', 'params']);
    expect(keysAt(SweepSpecSchema, ['wonders'])).toEqual(['mode', 'sets', 'seats']);
    expect(keysAt(SweepSpecSchema, ['nothing', 'here'])).toEqual([]);
  });

  it('one close key, or none when several are as close or none is', () => {
    expect(closeKey('deal', ['deals', 'name'])).toBe('deals');
    expect(closeKey('Seeting', ['seating', 'seats'])).toBe('seating');
    expect(closeKey('xyz', ['deals', 'name'])).toBeUndefined();
    expect(closeKey('ab', ['a', 'b'])).toBeUndefined();
  });
});
