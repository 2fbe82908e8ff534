#!lua
-- @include finish-check

-- The caller offers the games at the positions after the cursor it read (`cursor`, with `decided`
-- cells stopped then): `games` in the sweep's order (Sweep.indexAt, the one definition of the
-- order), `positions` their positions when decided cells' games were left out, and `scanEnd`, the
-- position its scan stopped at. They are taken only if the cursor and the decided cells are still
-- what the caller read; else only handed-back games are taken this time.
if redis.call('HGET', meta, 'status') ~= 'running' then return {{}, 0, 0} end
local batch = tonumber(redis.call('HGET', meta, 'batch'))
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
local at = tonumber(redis.call('HGET', meta, 'cursor'))
local fresh = at == tonumber(cursor) and redis.call('SCARD', stopped) == tonumber(decided)
if want > 0 and fresh then
  local offered = cjson.decode(games)
  if tonumber(decided) == 0 then
    -- Whole batches of consecutive positions, so the cursor stays on a batch boundary.
    local take = math.min(#offered, math.ceil(want / batch) * batch)
    for i = 1, take do
      redis.call('SADD', out, offered[i])
      got[#got + 1] = offered[i]
    end
    from, stop = at, at + take
    redis.call('HSET', meta, 'cursor', stop)
  else
    -- Cells decided by the stopping rule: their games not yet queued are skipped (counted, never
    -- played). Games go one by one here (a stopping sweep is not batched).
    local pos = cjson.decode(positions)
    local take = math.min(#offered, want)
    for i = 1, take do
      redis.call('SADD', out, offered[i])
      got[#got + 1] = offered[i]
    end
    local after = take < #offered and pos[take] + 1 or tonumber(scanEnd)
    local skipped = after - at - take
    redis.call('HSET', meta, 'cursor', after)
    if skipped > 0 then
      redis.call('HINCRBY', meta, 'skipped', skipped)
      finish_check(meta, active, sweepId, now)
    end
    -- Reported as single games (from = stop): batches never mix with a stopping rule.
    from, stop = after, after
  end
end
if #got > 0 then redis.call('HSETNX', meta, 'startedAt', now) end
return {got, from, stop}
