-- Stop each thread once it has received N responses (default 100).
-- thread:stop() ends all of that thread's connections, not the others'.
--   pummel -s scripts/lua/stop.lua http://localhost:8080/ -- 500

local limit = 100
local seen = 0

function init(args)
  limit = tonumber(args[1]) or limit
end

function response(status, headers, body)
  seen = seen + 1
  if seen >= limit then
    wrk.thread:stop()
  end
end
