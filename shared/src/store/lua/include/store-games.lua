-- @include finish-check

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
  local act = active_ms(meta, now)
  redis.call('HSETNX', meta, 'firstDoneActive', act)
  redis.call('HSET', meta, 'lastDoneActive', act)
  local bucket = math.floor(act / tonumber(bucket_ms))
  local slot = bucket % tonumber(slots)
  if tonumber(redis.call('HGET', rate, 'b' .. slot) or '-1') ~= bucket then
    redis.call('HSET', rate, 'b' .. slot, bucket, 'n' .. slot, 0)
  end
  redis.call('HINCRBY', rate, 'n' .. slot, n)
  redis.call('HINCRBY', stats, 'done', n)
  finish_check(meta, active, sweep_id, now)
end
