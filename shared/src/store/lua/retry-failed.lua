#!lua
-- @include clock

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
