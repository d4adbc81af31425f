-- Request a new path every time: /1, /2, /3, ... Each thread has its own
-- Lua state, so each thread counts from 1.
--   pummel -s scripts/lua/counter.lua http://localhost:8080/

local n = 0

function request()
  n = n + 1
  -- nil method and headers mean wrk.method and wrk.headers.
  return wrk.format(nil, "/" .. n)
end
