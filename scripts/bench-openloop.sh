#!/usr/bin/env bash
# Open-loop benchmark: the highest constant rate pummel holds against one
# nginx worker, pinned (nginx on CPU 1, pummel on CPU 0).
#
#   scripts/bench-openloop.sh [-r "100 10000 40000 60000"] [-d SECONDS] [-c CONNS] [-o OUT.md]
#
# For each rate: pummel -R RATE -d D -c CONNS after a 2 s warm-up, and the
# achieved send rate, the schedule lag (p50, p99, sends over 2 ms late),
# corrected and uncorrected p99 latency and pummel's own CPU use, read from
# its JSON. A rate is held when the achieved rate is within 1% of the target
# and pummel printed no schedule warning. For scale, the closed-loop maximum
# with the same connections is measured last. Traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

rates="100 10000 40000 60000" dur=10 conns=256 out=/dev/stdout
while getopts "r:d:c:o:" opt; do
  case $opt in
    r) rates=$OPTARG ;; d) dur=$OPTARG ;; c) conns=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx taskset:util-linux curl:curl python3:python3
bench_setup
bench_nginx 18091

row() { # result.json → one table row; pummel's warnings go to $work/warnings
  python3 - "$1" "$work/warnings" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as w:
    for text in r.get("warnings", []):
        w.write("- %.0f requests/s: %s\n" % (r["target_rate"], text))
lag, unc = r["schedule_lag_us"], r["latency_uncorrected_us"]
ratio = r["achieved_rate"] / r["target_rate"]
held = ratio >= 0.99 and not any("schedule was not kept" in w for w in r.get("warnings", []))
print("| %.0f | %.0f | %.3f | %.0fus | %.0fus | %d | %.2fms | %.2fms | %.0f%% | %s |" % (
    r["target_rate"], r["achieved_rate"], ratio, lag["p50"], lag["p99"], lag["late_sends"],
    r["latency_us"]["p99"] / 1e3, unc["p99"] / 1e3, r["client"]["cpu_pct"], "yes" if held else "no"))
PY
}

{
  echo "| target req/s | achieved req/s | achieved/target | lag p50 | lag p99 | sends >2ms late | p99 corrected | p99 uncorrected | pummel CPU | held |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"
  : >"$work/warnings"
  for rate in $rates; do
    taskset -c 0 "$pummel" -q -R "$rate" -d "${dur}s" --warmup 2s -c "$conns" --format json "$url" >"$work/r.json"
    row "$work/r.json"
  done
  closed=$(taskset -c 0 "$pummel" -q -c "$conns" -d "${dur}s" --format json "$url" | python3 -c 'import json,sys; print("%.0f" % json.load(sys.stdin)["requests_per_s"])')
  echo
  echo "Closed-loop maximum with the same $conns connections: $closed requests/s."
  if [ -s "$work/warnings" ]; then echo; echo "pummel's warnings:"; echo; cat "$work/warnings"; fi
  echo "Each rate ran ${dur}s after a 2s warm-up; nginx 1 worker on CPU 1, pummel on CPU 0."
  bench_footer
  echo
  echo "Command: pummel -q -R RATE -d ${dur}s --warmup 2s -c $conns --format json $url"
} >"$out"
