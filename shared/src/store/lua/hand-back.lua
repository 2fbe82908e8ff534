#!lua flags=allow-oom
-- @include move-back

return move_back(out, requeue, cjson.decode(indices))
