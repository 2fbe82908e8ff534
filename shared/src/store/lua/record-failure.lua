#!lua
-- @include keyspace-lost

-- @include finish-check

if keyspace_lost(meta, epoch) then return -2 end
redis.call('SREM', out, index)
if redis.call('HEXISTS', results, gameId) == 1 then return 0 end
if redis.call('HSETNX', failed, index, message) == 0 then return 0 end
redis.call('HINCRBY', meta, 'failed', 1)
redis.call('HINCRBY', stats, 'failed', 1)
finish_check(meta, active, sweepId, now)
return 1
