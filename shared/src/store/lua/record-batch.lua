#!lua
-- @include keyspace-lost

-- @include store-games

if keyspace_lost(meta, epoch) then return -2 end
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
