#!lua flags=allow-oom
-- @include move-back

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
