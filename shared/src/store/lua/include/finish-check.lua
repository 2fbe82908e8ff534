-- @include clock

local function finish_check(meta, active, sweep_id, now)
  local done = tonumber(redis.call('HGET', meta, 'done') or '0')
  local failed = tonumber(redis.call('HGET', meta, 'failed') or '0')
  local skipped = tonumber(redis.call('HGET', meta, 'skipped') or '0')
  local total = tonumber(redis.call('HGET', meta, 'total'))
  if done + failed + skipped >= total then
    local status = redis.call('HGET', meta, 'status')
    if status == 'running' or status == 'paused' then
      redis.call('HSET', meta, 'status', 'done')
      redis.call('ZREM', active, sweep_id)
      stop_clock(meta, now)
      redis.call('HSET', meta, 'finishedAt', now)
    end
  end
end
