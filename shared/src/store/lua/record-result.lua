#!lua
-- @include keyspace-lost

-- @include store-games

if keyspace_lost(meta, epoch) then return -2 end
redis.call('SREM', out, index)
if redis.call('HSETNX', results, gameId, summary) == 0 then return 0 end
if record ~= '' then redis.call('HSET', records, gameId, record) end
for _, pair in ipairs(cjson.decode(increments)) do bump(agg, pair[1], pair[2]) end
if share ~= '' then add_share(agg, groups, cjson.decode(share)) end
count_done(meta, active, stats, rate, workers, sweepId, 1, now, cpuMs, worker, rateBucketMs, rateSlots)
return 1
