local function keyspace_lost(meta, epoch)
  if redis.call('HEXISTS', meta, 'total') == 0 then return true end
  local mine = redis.call('HGET', meta, 'epoch')
  return mine ~= false and mine ~= redis.call('GET', epoch)
end
