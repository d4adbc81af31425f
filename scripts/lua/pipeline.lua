-- wrk script: send DEPTH requests per write (HTTP/1.1 pipelining), for
-- comparing wrk with `pummel --pipeline DEPTH`.
--   wrk -s scripts/lua/pipeline.lua URL -- DEPTH
local batch

function init(args)
  local depth = tonumber(args[1]) or 16
  local one = wrk.format()
  batch = string.rep(one, depth)
end

function request()
  return batch
end
