/**
 * Lua scripts take named keys and arguments: the body reads them as Lua locals, never as KEYS[i]
 * or ARGV[i], and a call passes them by name, so a caller cannot shift them by one. Runs against
 * the Redis at REDIS_URL under a key prefix of its own.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { Script, connectRedis, deleteKeys } from '../src/store/index.js';
import * as scripts from '../src/store/scripts.js';

const prefix = `wltest-scripts-${process.pid}-${randomBytes(4).toString('hex')}`;
let redis: Redis;

beforeAll(() => {
  redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

test('keys and arguments reach the body by name, whatever order the call lists them in', async () => {
  const swap = new Script('swap', { keys: ['from', 'to'], args: ['field', 'value'] }, `
redis.call('HSET', from, field, value)
redis.call('HSET', to, field, value .. '!')
return {from, to, field, value}
`);
  const from = `${prefix}:a`;
  const to = `${prefix}:b`;
  expect(await swap.run(redis, { to, from }, { value: 'v', field: 'f' })).toEqual([from, to, 'f', 'v']);
  expect(await redis.hget(from, 'f')).toBe('v');
  expect(await redis.hget(to, 'f')).toBe('v!');
  // A second run goes by its SHA (the script is cached), with the same result.
  expect(await swap.run(redis, { from, to }, { field: 'g', value: 'w' })).toEqual([from, to, 'g', 'w']);
});

test('a body that reads KEYS or ARGV by position, a name Lua cannot take, or a call missing a name is refused', async () => {
  expect(() => new Script('positional', { keys: ['a'], args: [] }, `return KEYS[1]`)).toThrow(/KEYS\[/);
  expect(() => new Script('positional', { keys: [], args: ['x'] }, `return ARGV[1]`)).toThrow(/ARGV\[/);
  expect(() => new Script('bad-name', { keys: ['my-key'], args: [] }, `return 1`)).toThrow(/my-key/);
  expect(() => new Script('twice', { keys: ['a'], args: ['a'] }, `return 1`)).toThrow(/twice/);
  const s = new Script('two', { keys: ['a'], args: ['x', 'y'] }, `return x .. y`);
  await expect(s.run(redis, { a: `${prefix}:c` }, { x: '1' } as never)).rejects.toThrow(/'y'/);
});

test("every store script declares its names (none reads KEYS or ARGV by position)", () => {
  const all = (Object.values(scripts) as unknown[]).filter((v): v is Script => v instanceof Script);
  expect(all.length).toBeGreaterThanOrEqual(6);
  for (const s of all) {
    expect(s.keyNames.length + s.argNames.length, s.name).toBeGreaterThan(0);
    expect(s.body, s.name).not.toMatch(/\b(KEYS|ARGV)\s*\[/);
  }
});
