#!/usr/bin/env bash
# What a wrk Lua script costs per request: requests per client CPU-second at
# 64 connections against one nginx worker (nginx on CPU 1, pummel on CPU 0),
# without a script, with a request() that returns a prebuilt string
# (scripts/lua/pipeline.lua at depth 1) and with one that formats a new
# request each time (scripts/lua/counter.lua). Interleaved, medians.
#
#   scripts/bench-lua.sh [-r REPS] [-d SECONDS] [-o OUT.md]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=5 dur=10 out=/dev/stdout
while getopts "r:d:o:" opt; do
  case $opt in
    r) reps=$OPTARG ;; d) dur=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx taskset:util-linux curl:curl /usr/bin/time:time
bench_setup
bench_nginx 18093

variants="none prebuilt counter"
args_for() {
  case $1 in
    none) echo "" ;;
    prebuilt) echo "-s scripts/lua/pipeline.lua" ;; # depth 1: see tail_for
    counter) echo "-s scripts/lua/counter.lua" ;;
  esac
}
tail_for() { [ "$1" = prebuilt ] && echo "-- 1" || true; }
for rep in $(seq "$reps"); do
  for v in $variants; do
    bench_next_url
    extra=$(args_for "$v") tail=$(tail_for "$v")
    before=$(served)
    # shellcheck disable=SC2086 # extra and tail are word lists
    /usr/bin/time -f "%U %S" -o "$work/time" taskset -c 0 "$pummel" -q -t1 -c64 -d "${dur}s" $extra "$url" $tail >/dev/null
    n=$(( $(served) - before - 1 ))
    read -r user sys < <(tail -1 "$work/time")
    echo "$v $n $user $sys" >>"$work/runs"
    echo "rep $rep $v: $n requests, cpu $user+$sys s" >&2
  done
done
{
  echo "| script | requests per client CPU-second | vs no script |"
  echo "|---|---:|---:|"
  awk -v variants="$variants" "$awk_median"'
    { eff[$1] = eff[$1] " " $2 / ($3 + $4) }
    END {
      nv = split(variants, V, " "); base = median(eff["none"])
      for (i = 1; i <= nv; i++) printf "| %s | %.0f | %.2f× |\n", V[i], median(eff[V[i]]), median(eff[V[i]]) / base
    }' "$work/runs"
  echo
  echo "Medians of $reps interleaved ${dur}s runs at 64 connections, 1 thread; nginx 1 worker on CPU 1, pummel on CPU 0."
  bench_footer
} >"$out"
