-- Number the threads in setup(), let each count its requests, and print
-- the per-thread counts in done(). setup() and done() run in their own Lua
-- state: thread:set and thread:get copy values in and out of each thread's.
--   pummel -t 4 -s scripts/lua/setup.lua http://localhost:8080/

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads) -- a global in that thread's state
end

function init(args)
  sent = 0
end

function request()
  sent = sent + 1
  return wrk.format(nil, "/thread/" .. id)
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    print(string.format("thread %d: %d requests", thread:get("id"), thread:get("sent")))
  end
end
