-- After the run, print the latency percentiles as CSV, in microseconds,
-- ready for a spreadsheet or a plot.
--   pummel -s scripts/lua/report.lua http://localhost:8080/ > latency.csv

function done(summary, latency, requests)
  print("percentile,latency_us")
  for _, p in ipairs({ 50, 75, 90, 99, 99.9 }) do
    print(string.format("%s,%d", p, latency:percentile(p)))
  end
end
