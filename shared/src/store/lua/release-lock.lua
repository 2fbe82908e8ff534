if redis.call('GET', lock) == owner then return redis.call('DEL', lock) end
return 0
