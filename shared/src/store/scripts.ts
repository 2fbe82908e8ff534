/**
 * The store's Lua scripts. Each runs atomically in Redis, so a result and its aggregate updates
 * land together or not at all, and a game delivered twice changes nothing the second time.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

type Value = string | number | Buffer;

/**
 * How Redis treats a script when memory is over `maxmemory` (Redis 7 script flags, `#!lua`):
 * - 'deny-oom': the whole call is refused before it runs (an OOM error, nothing written). Without
 *   a flag line Redis only refuses the script's first write that may grow memory, and a script
 *   whose first write shrinks (an SREM) then writes on past the limit: half-refused results.
 * - 'allow-oom': runs anyway; only for scripts that move or delete (an operator's pause or cancel,
 *   a hand-back), which must work when memory is full, and which add no more than they free.
 * - 'legacy': no flag line (the lock scripts: a few fixed bytes).
 */
export type OomPolicy = 'deny-oom' | 'allow-oom' | 'legacy';
const SHEBANG: Record<OomPolicy, string> = { 'deny-oom': '#!lua\n', 'allow-oom': '#!lua flags=allow-oom\n', legacy: '' };

/** The message Redis refuses a write with when memory is over `maxmemory` (noeviction). */
export function isOutOfMemory(err: unknown): boolean {
  return /^OOM /.test(String((err as Error | undefined)?.message ?? ''));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LUA_WORDS = new Set(['and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while', 'redis', 'cjson']);

/**
 * A Lua script with named keys and arguments. The body reads them as Lua locals (a prelude binds
 * `local meta, out = KEYS[1], KEYS[2]`), never as KEYS[i] or ARGV[i], and a call passes them by
 * name, so no caller can shift them by one. Lists and records travel as JSON (cjson.decode).
 */
export class Script<K extends string = string, A extends string = string> {
  readonly keyNames: readonly K[];
  readonly argNames: readonly A[];
  /** The body as written, and as sent (with the prelude). */
  readonly body: string;
  readonly lua: string;
  readonly sha: string;

  constructor(
    readonly name: string,
    names: { keys: readonly K[]; args: readonly A[] },
    body: string,
    readonly oom: OomPolicy = 'legacy',
  ) {
    const all = [...names.keys, ...names.args];
    for (const n of all) {
      if (!IDENTIFIER.test(n) || LUA_WORDS.has(n)) throw new Error(`script ${name}: '${n}' cannot be a Lua local's name`);
      if (all.indexOf(n) !== all.lastIndexOf(n)) throw new Error(`script ${name}: '${n}' is named twice`);
    }
    const positional = /\b(KEYS|ARGV)\s*\[/.exec(body);
    if (positional) throw new Error(`script ${name}: the body reads ${positional[1]}[…] by position; use the declared names`);
    const bind = (list: readonly string[], from: string) => (list.length ? `local ${list.join(', ')} = ${list.map((_, i) => `${from}[${i + 1}]`).join(', ')}\n` : '');
    this.keyNames = names.keys;
    this.argNames = names.args;
    this.body = body;
    this.lua = SHEBANG[oom] + bind(names.keys, 'KEYS') + bind(names.args, 'ARGV') + body;
    this.sha = createHash('sha1').update(this.lua).digest('hex');
  }

  async run(redis: Redis, keys: Record<K, string>, args: Record<A, Value>): Promise<unknown> {
    const pick = <N extends string, V>(list: readonly N[], from: Record<N, V>, what: string) =>
      list.map((n) => {
        if (from[n] === undefined) throw new Error(`script ${this.name}: no ${what} '${n}'`);
        return from[n];
      });
    const k = pick(this.keyNames, keys, 'key');
    const a = pick(this.argNames, args, 'argument');
    try {
      return await redis.evalsha(this.sha, k.length, ...k, ...a);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return redis.eval(this.lua, k.length, ...k, ...a);
    }
  }
}

/**
 * A sweep's active clock: milliseconds it has spent running (paused time and the time after it
 * stopped are not counted). `activeMs` holds the time of the past running spells, `runningSince`
 * the start of the current one. Sweeps stored before the clock have neither: nothing is counted.
 */
const CLOCK = `
local function has_clock(meta)
  return redis.call('HEXISTS', meta, 'activeMs') == 1
end
local function active_ms(meta, now)
  local acc = tonumber(redis.call('HGET', meta, 'activeMs') or '0')
  local since = redis.call('HGET', meta, 'runningSince')
  if since then acc = acc + math.max(0, tonumber(now) - tonumber(since)) end
  return acc
end
local function start_clock(meta, now)
  if has_clock(meta) and not redis.call('HGET', meta, 'runningSince') then redis.call('HSET', meta, 'runningSince', now) end
end
local function stop_clock(meta, now)
  if redis.call('HGET', meta, 'runningSince') then
    redis.call('HSET', meta, 'activeMs', active_ms(meta, now))
    redis.call('HDEL', meta, 'runningSince')
  end
end
`;

/**
 * Whether the sweep is gone from this keyspace (a FLUSHALL, a Redis restarted without its data) or
 * belongs to another epoch than the keyspace's (`<prefix>:epoch`, which a coordinator writes when
 * it first finds the keyspace; sweeps stored before epochs have none and are checked for presence
 * only). A game in flight then stores nothing: it would leave orphan keys, count a phantom game in
 * the lab's stats and fail half-way where the sweep's total is missing.
 */
const KEYSPACE_LOST = `
local function keyspace_lost(meta, epoch)
  if redis.call('HEXISTS', meta, 'total') == 0 then return true end
  local mine = redis.call('HGET', meta, 'epoch')
  return mine ~= false and mine ~= redis.call('GET', epoch)
end
`;

/** What the result scripts return when keyspace_lost refused the call (SweepStore throws KeyspaceLostError). */
export const LOST = -2;

/** Marks the sweep done when every game has a result, has failed or was skipped by a stopping rule (shared by the scripts). */
const FINISH_CHECK =
  CLOCK +
  `
local function finish_check(meta, active, sweep_id, now)
  local done = tonumber(redis.call('HGET', meta, 'done') or '0')
  local failed = tonumber(redis.call('HGET', meta, 'failed') or '0')
  local skipped = tonumber(redis.call('HGET', meta, 'skipped') or '0')
  local total = tonumber(redis.call('HGET', meta, 'total'))
  if done + failed + skipped >= total then
    local status = redis.call('HGET', meta, 'status')
    if status == 'running' or status == 'paused' then
      redis.call('HSET', meta, 'status', 'done')
      redis.call('ZREM', active, sweep_id)
      stop_clock(meta, now)
      redis.call('HSET', meta, 'finishedAt', now)
    end
  end
end
`;

/**
 * What storing games shares: `bump` adds a delta to a counter (a '.' or 'e' in the delta makes it a
 * float); `add_share` adds a paired design's group share and folds the group when complete;
 * `count_done` counts n stored games in the sweep's counters, clock, throughput ring, CPU time,
 * worker tally and the lab-wide count, then checks whether the sweep is done.
 *
 * The throughput ring (`rate`): `rateSlots` buckets of `rateBucketMs` of active time, slot b mod
 * rateSlots holding bucket b's count (fields b<slot>, n<slot>), so the recent rate is read without
 * keeping a time per game.
 */
const STORE_GAMES =
  KEYSPACE_LOST +
  FINISH_CHECK +
  `
local function bump(key, field, delta)
  if string.find(delta, '[%.eE]') then redis.call('HINCRBYFLOAT', key, field, delta)
  else
    -- A whole delta to a counter that already holds a fraction (a time that happened to sum to
    -- whole milliseconds): HINCRBY refuses it, and an error here would leave the game half counted.
    local r = redis.pcall('HINCRBY', key, field, delta)
    if type(r) == 'table' and r.err then redis.call('HINCRBYFLOAT', key, field, delta) end
  end
end
local function add_share(agg, groups, s)
  local count = redis.call('HINCRBY', groups, s.group .. '|n', 1)
  for _, k in ipairs(s.keys) do
    redis.call('HINCRBY', groups, s.group .. '|' .. k.key .. '|w', k.wins)
    redis.call('HINCRBY', groups, s.group .. '|' .. k.key .. '|s', k.seats)
  end
  if count >= s.size then
    local rates = {}
    for _, k in ipairs(s.keys) do
      local w = tonumber(redis.call('HGET', groups, s.group .. '|' .. k.key .. '|w'))
      local n = tonumber(redis.call('HGET', groups, s.group .. '|' .. k.key .. '|s'))
      local x = w / n
      rates[k.key] = x
      local f = s.cell .. '|' .. k.key
      redis.call('HINCRBYFLOAT', agg, f .. '|px', string.format('%.17g', x))
      redis.call('HINCRBYFLOAT', agg, f .. '|px2', string.format('%.17g', x * x))
      redis.call('HINCRBY', agg, f .. '|pn', 1)
      redis.call('HDEL', groups, s.group .. '|' .. k.key .. '|w', s.group .. '|' .. k.key .. '|s')
    end
    redis.call('HDEL', groups, s.group .. '|n')
    if type(s.a) == 'string' and rates[s.a] ~= nil and rates[s.b] ~= nil then
      local d = rates[s.a] - rates[s.b]
      redis.call('HINCRBYFLOAT', agg, s.cell .. '|pd', string.format('%.17g', d))
      redis.call('HINCRBYFLOAT', agg, s.cell .. '|pd2', string.format('%.17g', d * d))
      redis.call('HINCRBY', agg, s.cell .. '|pdn', 1)
    end
  end
end
local function count_done(meta, active, stats, rate, workers, sweep_id, n, now, cpu_ms, worker, bucket_ms, slots)
  redis.call('HINCRBY', meta, 'done', n)
  if cpu_ms ~= '' then redis.call('HINCRBYFLOAT', meta, 'cpuMs', cpu_ms) end
  if worker ~= '' then redis.call('HINCRBY', workers, worker, n) end
  redis.call('HSETNX', meta, 'firstDone', now)
  redis.call('HSET', meta, 'lastDone', now)
  if has_clock(meta) then
    local act = active_ms(meta, now)
    redis.call('HSETNX', meta, 'firstDoneActive', act)
    redis.call('HSET', meta, 'lastDoneActive', act)
    local bucket = math.floor(act / tonumber(bucket_ms))
    local slot = bucket % tonumber(slots)
    if tonumber(redis.call('HGET', rate, 'b' .. slot) or '-1') ~= bucket then
      redis.call('HSET', rate, 'b' .. slot, bucket, 'n' .. slot, 0)
    end
    redis.call('HINCRBY', rate, 'n' .. slot, n)
  end
  redis.call('HINCRBY', stats, 'done', n)
  finish_check(meta, active, sweep_id, now)
end
`;

/**
 * Stores one game's result and applies its aggregate increments, once per game id.
 * increments: JSON [[field, delta], …] (deltas as strings: a '.' or 'e' makes them floats).
 * share: '' or JSON { group, size, keys: [{ key, wins, seats }], a?, b?, cell } — a paired design's
 * group share (keys L<label> and R<role>; a and b the compared keys).
 * The game also counts in the sweep's throughput ring; cpuMs ('' when unknown) adds to the
 * sweep's CPU time, and worker ('' when unknown) counts the game for that worker.
 * Returns 1 when stored, 0 when the game was already stored, LOST (nothing written) when the sweep
 * is gone from the keyspace. Refused whole while Redis is over maxmemory (deny-oom).
 */
export const RECORD_RESULT = new Script(
  'record-result',
  {
    keys: ['meta', 'results', 'records', 'agg', 'groups', 'out', 'active', 'stats', 'rate', 'workers', 'epoch'],
    args: ['sweepId', 'gameId', 'index', 'summary', 'record', 'now', 'increments', 'share', 'rateBucketMs', 'rateSlots', 'cpuMs', 'worker'],
  },
  STORE_GAMES +
    `
if keyspace_lost(meta, epoch) then return ${LOST} end
redis.call('SREM', out, index)
if redis.call('HSETNX', results, gameId, summary) == 0 then return 0 end
if record ~= '' then redis.call('HSET', records, gameId, record) end
for _, pair in ipairs(cjson.decode(increments)) do bump(agg, pair[1], pair[2]) end
if share ~= '' then add_share(agg, groups, cjson.decode(share)) end
count_done(meta, active, stats, rate, workers, sweepId, 1, now, cpuMs, worker, rateBucketMs, rateSlots)
return 1
`,
  'deny-oom',
);

/**
 * Stores a batch of games with their increments summed over the batch (one HINCRBY per distinct
 * field, not per game: what makes cheap games cheap for Redis), all or nothing: when any of them
 * was stored before (a batch delivered again after a crash), nothing is written and -1 returned,
 * and the caller stores the games one by one with RECORD_RESULT, once each.
 * games: JSON [[gameId, index, summaryBytes, recordBytes], …]; blobs: each game's packed summary
 * then its record, concatenated in that order. shares: JSON list of group shares (as RECORD_RESULT's).
 * Returns the number of games stored (LOST as RECORD_RESULT's).
 */
export const RECORD_BATCH = new Script(
  'record-batch',
  {
    keys: ['meta', 'results', 'records', 'agg', 'groups', 'out', 'active', 'stats', 'rate', 'workers', 'epoch'],
    args: ['sweepId', 'games', 'blobs', 'now', 'increments', 'shares', 'rateBucketMs', 'rateSlots', 'cpuMs', 'worker'],
  },
  STORE_GAMES +
    `
if keyspace_lost(meta, epoch) then return ${LOST} end
local list = cjson.decode(games)
for _, g in ipairs(list) do
  if redis.call('HEXISTS', results, g[1]) == 1 then return -1 end
end
local at = 1
for _, g in ipairs(list) do
  redis.call('SREM', out, g[2])
  redis.call('HSET', results, g[1], string.sub(blobs, at, at + g[3] - 1))
  at = at + g[3]
  if g[4] > 0 then
    redis.call('HSET', records, g[1], string.sub(blobs, at, at + g[4] - 1))
    at = at + g[4]
  end
end
for _, pair in ipairs(cjson.decode(increments)) do bump(agg, pair[1], pair[2]) end
for _, s in ipairs(cjson.decode(shares)) do add_share(agg, groups, s) end
count_done(meta, active, stats, rate, workers, sweepId, #list, now, cpuMs, worker, rateBucketMs, rateSlots)
return #list
`,
  'deny-oom',
);

/**
 * Records a game that failed every attempt (once per index), and counts it lab-wide (LOST as
 * RECORD_RESULT's).
 */
export const RECORD_FAILURE = new Script(
  'record-failure',
  { keys: ['meta', 'failed', 'out', 'active', 'results', 'stats', 'epoch'], args: ['sweepId', 'index', 'gameId', 'message', 'now'] },
  KEYSPACE_LOST +
    FINISH_CHECK +
    `
if keyspace_lost(meta, epoch) then return ${LOST} end
redis.call('SREM', out, index)
if redis.call('HEXISTS', results, gameId) == 1 then return 0 end
if redis.call('HSETNX', failed, index, message) == 0 then return 0 end
redis.call('HINCRBY', meta, 'failed', 1)
redis.call('HINCRBY', stats, 'failed', 1)
finish_check(meta, active, sweepId, now)
return 1
`,
  'deny-oom',
);

/**
 * Takes up to `window − |out|` game indices to enqueue (rounded up to a whole batch, so a window
 * smaller than a batch still takes one; the feeder sizes the window): first those handed back, then
 * the games at the next positions of the sweep's order after the cursor, in whole batches of the
 * sweep's `batch` positions (a queue job each; 1 for sweeps stored before batches), so that the
 * cursor stays on a batch boundary; they join the outstanding set in the same step, so none is
 * lost. The cursor counts positions: with the shape fields (sCells, sSets, sDeals, sOrders)
 * position p is the game lab/schedule.ts's scheduledIndex gives, interleaved across cells; without
 * them (sweeps stored before) the game p itself. The first claim sets startedAt. Returns
 * { indices, from, stop }: every index taken (handed-back ones first), and the positions
 * [from, stop) taken from the cursor.
 */
export const CLAIM_GAMES = new Script(
  'claim-games',
  { keys: ['meta', 'out', 'requeue', 'stopped', 'active'], args: ['window', 'now', 'sweepId'] },
  FINISH_CHECK +
    `
if redis.call('HGET', meta, 'status') ~= 'running' then return {{}, 0, 0} end
local batch = tonumber(redis.call('HGET', meta, 'batch') or '1')
local want = tonumber(window) - redis.call('SCARD', out)
local got = {}
local from, stop = 0, 0
while want > 0 do
  local k = redis.call('LPOP', requeue)
  if not k then break end
  if redis.call('SADD', out, k) == 1 then
    got[#got + 1] = k
    want = want - 1
  end
end
if want > 0 then
  local shape = redis.call('HMGET', meta, 'sCells', 'sSets', 'sDeals', 'sOrders')
  local cells, sets, deals, orders = tonumber(shape[1]), tonumber(shape[2]), tonumber(shape[3]), tonumber(shape[4])
  local function index_at(p)
    if not cells then return p end
    local width = cells * orders
    local round = math.floor(p / width)
    local within = p - round * width
    local cell = math.floor(within / orders)
    local order = within - cell * orders
    local deal = math.floor(round / sets)
    local set = round - deal * sets
    return cell * sets * deals * orders + set * deals * orders + deal * orders + order
  end
  local cursor = tonumber(redis.call('HGET', meta, 'cursor'))
  local total = tonumber(redis.call('HGET', meta, 'total'))
  local decided = redis.call('SMEMBERS', stopped)
  if #decided == 0 then
    from = cursor
    stop = math.min(total, cursor + math.ceil(want / batch) * batch)
    for p = cursor, stop - 1 do
      local k = string.format('%d', index_at(p))
      redis.call('SADD', out, k)
      got[#got + 1] = k
    end
    redis.call('HSET', meta, 'cursor', stop)
  else
    -- Cells decided by the stopping rule: their games not yet queued are skipped (counted, never
    -- played). Games go one by one here (a stopping sweep is not batched); the scan is bounded.
    local skip = {}
    for _, c in ipairs(decided) do skip[tonumber(c)] = true end
    local p, skipped, scanned = cursor, 0, 0
    if cells and #decided >= cells then
      skipped = total - cursor
      p = total
    end
    while p < total and want > 0 and scanned < 100000 do
      local cell = cells and math.floor((p % (cells * orders)) / orders) or 0
      if skip[cell] then
        skipped = skipped + 1
      else
        local k = string.format('%d', index_at(p))
        redis.call('SADD', out, k)
        got[#got + 1] = k
        want = want - 1
      end
      p = p + 1
      scanned = scanned + 1
    end
    redis.call('HSET', meta, 'cursor', p)
    if skipped > 0 then
      redis.call('HINCRBY', meta, 'skipped', skipped)
      finish_check(meta, active, sweepId, now)
    end
    -- Reported as single games (from = stop): batches never mix with a stopping rule.
    from, stop = p, p
  end
end
if #got > 0 then redis.call('HSETNX', meta, 'startedAt', now) end
return {got, from, stop}
`,
  'deny-oom',
);

/** Moves the games of `list` still outstanding back in line (out → requeue); returns how many moved. */
const MOVE_BACK = `
local function move_back(out, requeue, list)
  local moved = 0
  for _, k in ipairs(list) do
    if redis.call('SREM', out, k) == 1 then
      redis.call('RPUSH', requeue, k)
      moved = moved + 1
    end
  end
  return moved
end
`;

/**
 * Takes back the tail of a claim whose jobs could not be queued (Redis out of memory mid-addBulk):
 * the games at positions [rollback, stop) of the order, `games` their indices. When the cursor is
 * still at `stop` and every one of them still outstanding, the cursor moves back to `rollback` and
 * they leave the outstanding set, as if never claimed (they are queued again in their batches);
 * otherwise they go back in line one by one (out → requeue). Allowed when memory is full: it
 * frees more than it writes. Returns how many games were taken back.
 */
export const UNCLAIM = new Script(
  'unclaim',
  { keys: ['meta', 'out', 'requeue'], args: ['games', 'rollback', 'stop'] },
  MOVE_BACK +
    `
local list = cjson.decode(games)
local whole = tonumber(redis.call('HGET', meta, 'cursor')) == tonumber(stop)
if whole then
  for _, k in ipairs(list) do
    if redis.call('SISMEMBER', out, k) == 0 then whole = false break end
  end
end
if whole then
  for _, k in ipairs(list) do redis.call('SREM', out, k) end
  redis.call('HSET', meta, 'cursor', rollback)
  return #list
end
return move_back(out, requeue, list)
`,
  'allow-oom',
);

/**
 * Hands queued games back (their jobs were removed from the queue): out → requeue.
 * indices: JSON list of index strings. Returns how many moved. Allowed when memory is full: a
 * move, and a pause or a feeder's undo must not be refused then.
 */
export const HAND_BACK = new Script(
  'hand-back',
  { keys: ['out', 'requeue'], args: ['indices'] },
  MOVE_BACK +
    `
return move_back(out, requeue, cjson.decode(indices))
`,
  'allow-oom',
);

/**
 * Puts every failed game back in line and the sweep back to running. Returns how many, or -1 for a
 * cancelled sweep.
 */
export const RETRY_FAILED = new Script(
  'retry-failed',
  { keys: ['meta', 'failed', 'requeue', 'active'], args: ['sweepId', 'priority', 'now'] },
  CLOCK +
    `
local status = redis.call('HGET', meta, 'status')
if status == 'cancelled' then return -1 end
local indices = redis.call('HKEYS', failed)
if #indices == 0 then return 0 end
for _, k in ipairs(indices) do redis.call('RPUSH', requeue, k) end
redis.call('DEL', failed)
redis.call('HINCRBY', meta, 'failed', -#indices)
if status == 'done' then
  redis.call('HSET', meta, 'status', 'running')
  redis.call('ZADD', active, priority, sweepId)
  redis.call('HDEL', meta, 'finishedAt')
  start_clock(meta, now)
end
return #indices
`,
  'deny-oom',
);

/**
 * Moves a sweep's status from one of `from` (a JSON list) to `to`; keeps the active set and the
 * active clock in step (a cancel also sets finishedAt). Returns the old status, or false.
 */
export const SET_STATUS = new Script(
  'set-status',
  { keys: ['meta', 'active'], args: ['sweepId', 'to', 'priority', 'from', 'now'] },
  CLOCK +
    `
local status = redis.call('HGET', meta, 'status')
if not status then return false end
local allowed = false
for _, s in ipairs(cjson.decode(from)) do if s == status then allowed = true end end
if not allowed then return false end
redis.call('HSET', meta, 'status', to)
if to == 'running' then
  redis.call('ZADD', active, priority, sweepId)
  start_clock(meta, now)
else
  redis.call('ZREM', active, sweepId)
  stop_clock(meta, now)
end
if to == 'cancelled' then redis.call('HSET', meta, 'finishedAt', now) end
return status
`,
  // An operator pauses or cancels to stop a sweep that fills Redis: a few fields, never refused.
  'allow-oom',
);

/** Takes or renews the feeder's lock for `owner` for `ttlMs`; 1 when held, 0 when another owner holds it. */
export const HOLD_LOCK = new Script(
  'hold-lock',
  { keys: ['lock'], args: ['owner', 'ttlMs'] },
  `
if redis.call('GET', lock) == owner then return redis.call('PEXPIRE', lock, ttlMs) end
if redis.call('SET', lock, owner, 'NX', 'PX', ttlMs) then return 1 end
return 0
`,
);

/** Releases the lock if `owner` holds it; 1 when released. */
export const RELEASE_LOCK = new Script(
  'release-lock',
  { keys: ['lock'], args: ['owner'] },
  `
if redis.call('GET', lock) == owner then return redis.call('DEL', lock) end
return 0
`,
);
