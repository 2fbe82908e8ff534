#!lua
-- @include finish-check

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
