-- After the run, write the latency percentiles as CSV, in microseconds, to
-- latency.csv (or to the file the environment variable PUMMEL_CSV names),
-- ready for a spreadsheet or a plot:
--   pummel -s scripts/lua/report.lua http://127.0.0.1:8080/
--   PUMMEL_CSV=p.csv pummel -s scripts/lua/report.lua http://127.0.0.1:8080/
-- The CSV has a file of its own: stdout carries pummel's result (wrk's too),
-- so `> latency.csv` would not be CSV.

function done(summary, latency, requests)
  local path = os.getenv("PUMMEL_CSV") or "latency.csv"
  local f = assert(io.open(path, "w"))
  f:write("percentile,latency_us\n")
  for _, p in ipairs({ 50, 75, 90, 99, 99.9 }) do
    f:write(string.format("%s,%d\n", p, latency:percentile(p)))
  end
  f:close()
  print("latency percentiles written to " .. path)
end
