/**
 * Lua scripts take named keys and arguments: the body reads them as Lua locals, never as KEYS[i]
 * or ARGV[i], and a call passes them by name, so a caller cannot shift them by one. Runs against
 * the Redis at REDIS_URL under a key prefix of its own.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { LOST, LUA_DIR, Script, connectRedis, deleteKeys } from '../src/store/index.js';
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

const storeScripts = () => (Object.values(scripts) as unknown[]).filter((v): v is Script => v instanceof Script);
const luaFiles = (dir: string) => readdirSync(new URL(dir, LUA_DIR)).filter((f) => f.endsWith('.lua')).map((f) => f.slice(0, -'.lua'.length)).sort();

test('every file of lua/ is the body of exactly one store script, and every file of lua/include/ is included', () => {
  const names = storeScripts().map((s) => s.name).sort();
  expect(names).toEqual(luaFiles('./'));
  const included = new Set<string>();
  for (const f of [...luaFiles('./').map((n) => `${n}.lua`), ...luaFiles('./include/').map((n) => `include/${n}.lua`)]) {
    for (const m of readFileSync(new URL(f, LUA_DIR), 'utf8').matchAll(/^-- @include (.*)$/gm)) included.add(m[1]);
  }
  expect([...included].sort()).toEqual(luaFiles('./include/'));
  // Expanded: no include line is left unreplaced.
  for (const s of storeScripts()) expect(s.lua, s.name).not.toMatch(/@include/);
});

test("the flag line stays the first line of the text sent, and sets each script's out-of-memory policy", () => {
  const policy = Object.fromEntries(storeScripts().map((s) => [s.name, s.oom]));
  expect(policy).toEqual({
    'record-result': 'deny-oom', 'record-batch': 'deny-oom', 'record-failure': 'deny-oom', 'claim-games': 'deny-oom', 'retry-failed': 'deny-oom', 'save-play': 'deny-oom',
    unclaim: 'allow-oom', 'hand-back': 'allow-oom', 'set-status': 'allow-oom',
    'hold-lock': 'legacy', 'release-lock': 'legacy',
  });
  for (const s of storeScripts()) {
    const first = s.lua.slice(0, s.lua.indexOf('\n'));
    if (s.oom === 'legacy') expect(s.lua, s.name).not.toMatch(/#!/);
    else expect(first, s.name).toBe(s.oom === 'allow-oom' ? '#!lua flags=allow-oom' : '#!lua');
    expect(s.lua.split('\n')[s.oom === 'legacy' ? 0 : 1], s.name).toMatch(/^local \w+(, \w+)* = KEYS\[1\]/);
  }
  expect(() => new Script('typo', { keys: ['a'], args: [] }, '#!lua flags=alow-oom\nreturn 1')).toThrow(/flag line/);
});

test('the result scripts return LOST, written in their files as a literal, when the keyspace is lost', () => {
  const refusing = storeScripts().filter((s) => s.body.includes('keyspace_lost(meta, epoch)'));
  expect(refusing.map((s) => s.name).sort()).toEqual(['record-batch', 'record-failure', 'record-result']);
  for (const s of refusing) expect(s.body, s.name).toContain(`if keyspace_lost(meta, epoch) then return ${LOST} end`);
});
