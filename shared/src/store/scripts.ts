/**
 * The store's Lua scripts. Each runs atomically in Redis, so a result and its aggregate updates
 * land together or not at all, and a game delivered twice changes nothing the second time.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export class Script {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number | Buffer)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/** Marks the sweep done when every game has a result or has failed (shared by the scripts). */
const FINISH_CHECK = `
local function finish_check(meta, active, sweep_id)
  local done = tonumber(redis.call('HGET', meta, 'done') or '0')
  local failed = tonumber(redis.call('HGET', meta, 'failed') or '0')
  local total = tonumber(redis.call('HGET', meta, 'total'))
  if done + failed >= total then
    local status = redis.call('HGET', meta, 'status')
    if status == 'running' or status == 'paused' then
      redis.call('HSET', meta, 'status', 'done')
      redis.call('ZREM', active, sweep_id)
    end
  end
end
`;

/**
 * Stores one game's result and applies its aggregate increments, once per game id.
 * KEYS: meta, results, records, agg, groups, out, active, stats.
 * ARGV: sweepId, gameId, index, summary JSON, deflated record ('' for none), now (ms),
 *   n, n × (field, delta), then the paired share: group ('' for none), size, key count m,
 *   m × (key, wins, seats) — keys L<label> and R<role> — compared key a, compared key b ('' for
 *   none), cell prefix.
 * Returns 1 when stored, 0 when the game was already stored.
 */
export const RECORD_RESULT = new Script(
  'record-result',
  FINISH_CHECK +
    `
local meta, results, records, agg, groups, out, active, stats = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
redis.call('SREM', out, ARGV[3])
if redis.call('HSETNX', results, ARGV[2], ARGV[4]) == 0 then return 0 end
if ARGV[5] ~= '' then redis.call('HSET', records, ARGV[2], ARGV[5]) end
local function bump(key, field, delta)
  if string.find(delta, '[%.eE]') then redis.call('HINCRBYFLOAT', key, field, delta)
  else redis.call('HINCRBY', key, field, delta) end
end
local n = tonumber(ARGV[7])
local i = 8
for _ = 1, n do
  bump(agg, ARGV[i], ARGV[i + 1])
  i = i + 2
end
local group = ARGV[i]
if group ~= '' then
  local size, m = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local base = i + 3
  local cmp_a, cmp_b, cell = ARGV[base + 3 * m], ARGV[base + 3 * m + 1], ARGV[base + 3 * m + 2]
  local count = redis.call('HINCRBY', groups, group .. '|n', 1)
  for j = 0, m - 1 do
    local label = ARGV[base + 3 * j]
    redis.call('HINCRBY', groups, group .. '|' .. label .. '|w', ARGV[base + 3 * j + 1])
    redis.call('HINCRBY', groups, group .. '|' .. label .. '|s', ARGV[base + 3 * j + 2])
  end
  if count >= size then
    local rates = {}
    for j = 0, m - 1 do
      local label = ARGV[base + 3 * j]
      local w = tonumber(redis.call('HGET', groups, group .. '|' .. label .. '|w'))
      local s = tonumber(redis.call('HGET', groups, group .. '|' .. label .. '|s'))
      local x = w / s
      rates[label] = x
      local f = cell .. '|' .. label
      redis.call('HINCRBYFLOAT', agg, f .. '|px', string.format('%.17g', x))
      redis.call('HINCRBYFLOAT', agg, f .. '|px2', string.format('%.17g', x * x))
      redis.call('HINCRBY', agg, f .. '|pn', 1)
      redis.call('HDEL', groups, group .. '|' .. label .. '|w', group .. '|' .. label .. '|s')
    end
    redis.call('HDEL', groups, group .. '|n')
    if cmp_a ~= '' and rates[cmp_a] ~= nil and rates[cmp_b] ~= nil then
      local d = rates[cmp_a] - rates[cmp_b]
      redis.call('HINCRBYFLOAT', agg, cell .. '|pd', string.format('%.17g', d))
      redis.call('HINCRBYFLOAT', agg, cell .. '|pd2', string.format('%.17g', d * d))
      redis.call('HINCRBY', agg, cell .. '|pdn', 1)
    end
  end
end
redis.call('HINCRBY', meta, 'done', 1)
redis.call('HSETNX', meta, 'firstDone', ARGV[6])
redis.call('HSET', meta, 'lastDone', ARGV[6])
redis.call('HINCRBY', stats, 'done', 1)
finish_check(meta, active, ARGV[1])
return 1
`,
);

/**
 * Records a game that failed every attempt (once per index).
 * KEYS: meta, failed, out, active, results. ARGV: sweepId, index, gameId, message.
 */
export const RECORD_FAILURE = new Script(
  'record-failure',
  FINISH_CHECK +
    `
redis.call('SREM', KEYS[3], ARGV[2])
if redis.call('HEXISTS', KEYS[5], ARGV[3]) == 1 then return 0 end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[4]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'failed', 1)
finish_check(KEYS[1], KEYS[4], ARGV[1])
return 1
`,
);

/**
 * Takes up to `window − |out|` game indices to enqueue: first those handed back, then the next
 * ones after the cursor; they join the outstanding set in the same step, so none is lost.
 * KEYS: meta, out, requeue. ARGV: window. Returns the indices.
 */
export const CLAIM_GAMES = new Script(
  'claim-games',
  `
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return {} end
local want = tonumber(ARGV[1]) - redis.call('SCARD', KEYS[2])
local got = {}
while want > 0 do
  local k = redis.call('LPOP', KEYS[3])
  if not k then break end
  if redis.call('SADD', KEYS[2], k) == 1 then
    got[#got + 1] = k
    want = want - 1
  end
end
if want > 0 then
  local cursor = tonumber(redis.call('HGET', KEYS[1], 'cursor'))
  local stop = math.min(tonumber(redis.call('HGET', KEYS[1], 'total')), cursor + want)
  for k = cursor, stop - 1 do
    redis.call('SADD', KEYS[2], k)
    got[#got + 1] = tostring(k)
  end
  redis.call('HSET', KEYS[1], 'cursor', stop)
end
return got
`,
);

/**
 * Hands queued games back (their jobs were removed from the queue): out → requeue.
 * KEYS: out, requeue. ARGV: indices. Returns how many moved.
 */
export const HAND_BACK = new Script(
  'hand-back',
  `
local moved = 0
for _, k in ipairs(ARGV) do
  if redis.call('SREM', KEYS[1], k) == 1 then
    redis.call('RPUSH', KEYS[2], k)
    moved = moved + 1
  end
end
return moved
`,
);

/**
 * Puts every failed game back in line and the sweep back to running.
 * KEYS: meta, failed, requeue, active. ARGV: sweepId, priority. Returns how many.
 */
export const RETRY_FAILED = new Script(
  'retry-failed',
  `
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'cancelled' then return -1 end
local indices = redis.call('HKEYS', KEYS[2])
if #indices == 0 then return 0 end
for _, k in ipairs(indices) do redis.call('RPUSH', KEYS[3], k) end
redis.call('DEL', KEYS[2])
redis.call('HINCRBY', KEYS[1], 'failed', -#indices)
if status == 'done' then
  redis.call('HSET', KEYS[1], 'status', 'running')
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
end
return #indices
`,
);

/**
 * Moves a sweep's status from one of `from` to `to`; keeps the active set in step.
 * KEYS: meta, active. ARGV: sweepId, to, priority, from... Returns the old status, or false.
 */
export const SET_STATUS = new Script(
  'set-status',
  `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
local allowed = false
for i = 4, #ARGV do if ARGV[i] == status then allowed = true end end
if not allowed then return false end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
if ARGV[2] == 'running' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) else redis.call('ZREM', KEYS[2], ARGV[1]) end
return status
`,
);
