/**
 * The spec form's pure side (public/js/spec-doc.js) on the schema the API serves: which control
 * each field gets, the values controls' texts stand for, and edits by path that touch nothing else.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { SweepSpecSchema } from '@wonderlab/shared';
// @ts-ignore: a plain browser module, no types
import * as D from '../public/js/spec-doc.js';

const schema: any = z.toJSONSchema(SweepSpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
const props = schema.properties;
const seat = props.seats.items;
const params = seat.anyOf[1].properties.params;

describe('spec form: controls from the schema', () => {
  test('each field of the sweep spec gets the control its type calls for', () => {
    expect(D.kindOf(schema, props.name)).toBe('string');
    expect(D.kindOf(schema, props.players)).toBe('number');
    expect(D.kindOf(schema, props.seats)).toBe('list');
    expect(D.kindOf(schema, seat)).toBe('choice');
    expect(D.kindOf(schema, props.wonders)).toBe('tagged');
    expect(D.discriminator(schema, props.wonders)).toBe('mode');
    expect(D.kindOf(schema, props.sides)).toBe('enum');
    expect(D.kindOf(schema, props.swapSeats)).toBe('tuple');
    expect(D.kindOf(schema, props.open)).toBe('boolean');
    expect(D.kindOf(schema, props.deals)).toBe('object');
    // An agent option: one value, or a list of values to sweep.
    expect(D.kindOf(schema, params.properties.c)).toBe('scalar-list');
    // A fixed set's board: a name or an index.
    const board = props.wonders.oneOf.find((v: any) => v.properties.mode.const === 'fixed').properties.sets.items.items;
    expect(D.kindOf(schema, board)).toBe('scalar');
  });

  test("a seat's shape follows its value", () => {
    expect(D.variantIndex(schema, seat, 'mcts:100,10,100')).toBe(0);
    expect(D.variantIndex(schema, seat, { agent: 'mcts', params: { it: [1, 2] } })).toBe(1);
    expect(D.variantIndex(schema, props.wonders, { mode: 'duplicated', sets: 5 })).toBe(3);
  });

  test('starting values: defaults, required fields, two different seats for a pair', () => {
    expect(D.skeleton(schema, props.sides)).toBe('random');
    expect(D.skeleton(schema, props.swapSeats)).toEqual([0, 1]);
    const fixed = props.wonders.oneOf.find((v: any) => v.properties.mode.const === 'fixed');
    expect(D.skeleton(schema, fixed)).toEqual({ mode: 'fixed', sets: [[]] });
    expect(D.skeleton(schema, props.deals)).toEqual({ count: 1 });
  });
});

describe('spec form: texts and values', () => {
  const both = new Set(['number', 'string']);
  test('a spec string is never split at its commas; an option list is', () => {
    // The seat's text control takes the whole string.
    expect(D.kindOf(schema, seat.anyOf[0])).toBe('string');
    expect(D.parseScalarList('0.1, 0.5,0.9', both)).toEqual([0.1, 0.5, 0.9]);
    expect(D.parseScalarList('250', both)).toBe(250);
    expect(D.parseScalarList('1/1.5/2', both)).toBe('1/1.5/2');
    expect(D.parseScalarList('random, rulebased', both)).toEqual(['random', 'rulebased']);
    expect(D.parseScalarList('', both)).toBeUndefined();
    // A list written as JSON writes it: brackets and quotes are not part of the values.
    expect(D.parseScalarList('[0.2, 0.7, 1.5]', both)).toEqual([0.2, 0.7, 1.5]);
    expect(D.parseScalarList(' ["win", "rank"] ', both)).toEqual(['win', 'rank']);
    expect(D.parseScalarList('[250]', both)).toBe(250);
    expect(D.formatScalarList([125, 250])).toBe('125, 250');
  });

  test('numbers where numbers are allowed; other text is kept for the API to name', () => {
    expect(D.parseNumber('42')).toBe(42);
    expect(D.parseNumber('1e3')).toBe(1000);
    expect(D.parseNumber('4x')).toBe('4x');
    expect(D.parseNumber('  ')).toBeUndefined();
    expect(D.parseScalar('3', new Set(['string', 'number']))).toBe(3);
    expect(D.parseScalar('Rhodos', new Set(['string', 'number']))).toBe('Rhodos');
  });
});

describe('spec form: edits by path', () => {
  test('setting a value changes that path only, key order kept', () => {
    const doc = { name: 'a', seats: ['x', { agent: 'mcts', params: { it: 1 } }], deals: { count: 5 } };
    D.setAt(doc, ['seats', 1, 'params', 'c'], [0.1, 0.2]);
    D.setAt(doc, ['deals', 'firstSeed'], 3);
    D.setAt(doc, ['matchup', 'seats', 0], 1);
    expect(JSON.stringify(doc)).toBe(
      JSON.stringify({ name: 'a', seats: ['x', { agent: 'mcts', params: { it: 1, c: [0.1, 0.2] } }], deals: { count: 5, firstSeed: 3 }, matchup: { seats: [1] } }),
    );
    D.setAt(doc, ['deals', 'firstSeed'], undefined);
    expect(doc.deals).toEqual({ count: 5 });
    D.removeAt(doc, ['seats', 0]);
    expect(doc.seats).toEqual([{ agent: 'mcts', params: { it: 1, c: [0.1, 0.2] } }]);
    expect(D.getAt(doc, ['seats', 0, 'params', 'c', 1])).toBe(0.2);
    expect(D.getAt(doc, ['nothing', 'here'])).toBeUndefined();
  });
});
