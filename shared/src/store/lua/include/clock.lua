local function active_ms(meta, now)
  local acc = tonumber(redis.call('HGET', meta, 'activeMs'))
  local since = redis.call('HGET', meta, 'runningSince')
  if since then acc = acc + math.max(0, tonumber(now) - tonumber(since)) end
  return acc
end
local function start_clock(meta, now)
  if not redis.call('HGET', meta, 'runningSince') then redis.call('HSET', meta, 'runningSince', now) end
end
local function stop_clock(meta, now)
  if redis.call('HGET', meta, 'runningSince') then
    redis.call('HSET', meta, 'activeMs', active_ms(meta, now))
    redis.call('HDEL', meta, 'runningSince')
  end
end
