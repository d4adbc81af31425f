-- Wait a random 1 to 5 ms before each request, so connections do not fire
-- in lockstep. delay() returns milliseconds.
--   pummel -s scripts/lua/delay.lua http://localhost:8080/

function delay()
  return math.random(1, 5)
end
