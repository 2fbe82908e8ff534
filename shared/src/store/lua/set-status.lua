#!lua flags=allow-oom
-- @include clock

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
