/** The byte scan that finds a body's nesting before it is parsed agrees with the parsed value. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { jsonDepth } from '../src/json-depth.js';

/** Nesting of a parsed value: 0 for a scalar. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((d, c) => Math.max(d, depthOf(c)), 0);
}

const bytes = (text: string) => new TextEncoder().encode(text);

test('equals the depth of the parsed value, whatever strings hold (quotes, backslashes, brackets, any UTF-8)', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      expect(jsonDepth(bytes(text))).toBe(depthOf(JSON.parse(text)));
    }),
    { numRuns: 500 },
  );
  expect(jsonDepth(bytes('{"a":"[{\\"]}\\\\","b":[[1]]}'))).toBe(3);
  expect(jsonDepth(bytes('"[[[["'))).toBe(0);
});

test('stops at the first depth past the limit', () => {
  const deep = bytes('['.repeat(100_000) + ']'.repeat(100_000));
  expect(jsonDepth(deep)).toBe(100_000);
  expect(jsonDepth(deep, 16)).toBe(17);
});
