local function move_back(out, requeue, list)
  local moved = 0
  for _, k in ipairs(list) do
    if redis.call('SREM', out, k) == 1 then
      redis.call('RPUSH', requeue, k)
      moved = moved + 1
    end
  end
  return moved
end
