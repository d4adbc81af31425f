#!/usr/bin/env bash
# The charts in BENCHMARKS.md: an open-loop run against one pinned nginx
# worker stepping from 20,000 to 40,000 requests/s, next to a closed-loop
# run with the same connections, drawn with `pummel report --plot`.
#
#   scripts/bench-chart.sh [OUTDIR]     (default: docs/charts)
set -euo pipefail
cd "$(dirname "$0")/.."
outdir=${1:-docs/charts}

. scripts/lib.sh
bench_need nginx:nginx taskset:util-linux curl:curl
bench_setup
bench_nginx 18094

taskset -c 0 "$pummel" -q -R 20000,40000 -d 5s --warmup 2s -c 256 -o "$work/open-loop.json" "$url" >/dev/null
taskset -c 0 "$pummel" -q -c 256 -d 10s -o "$work/closed-loop.json" "$url" >/dev/null
mkdir -p "$outdir"
"$pummel" report --plot "$outdir" "$work/open-loop.json" "$work/closed-loop.json" >/dev/null
ls "$outdir"
