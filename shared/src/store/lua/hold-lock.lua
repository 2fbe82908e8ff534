if redis.call('GET', lock) == owner then return redis.call('PEXPIRE', lock, ttlMs) end
if redis.call('SET', lock, owner, 'NX', 'PX', ttlMs) then return 1 end
return 0
