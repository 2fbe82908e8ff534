#!lua
if epochValue ~= '' and redis.call('GET', epoch) ~= epochValue then return 'lost' end
local current = redis.call('GET', play)
if expected == 'new' then
  if current then return 'exists' end
  redis.call('ZREMRANGEBYSCORE', live, '-inf', now)
  if redis.call('ZCARD', live) >= tonumber(maxLive) then return 'full' end
else
  if not current then return 'gone' end
  local stored = cjson.decode(current)
  if stored.over then return 'moved' end
  local n = 0
  if type(stored.log) == 'table' and type(stored.log.moves) == 'table' then n = #stored.log.moves end
  if n ~= tonumber(expected) then return 'moved' end
end
if over == '1' then
  redis.call('SET', play, text)
  redis.call('ZREM', live, id)
  redis.call('ZADD', finished, now, id)
  if order ~= '' then redis.call('HINCRBY', orders, order, 1) end
else
  redis.call('SET', play, text, 'EX', idleSeconds)
  redis.call('ZADD', live, tonumber(now) + 1000 * tonumber(idleSeconds), id)
end
return 'ok'
