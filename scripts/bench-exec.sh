#!/usr/bin/env bash
# A server's startup, memory and throughput, measured with one tool: start
# the server fresh N times, time its startup (spawn to first good response,
# polled about every 1 ms), sample idle RSS, load an authenticated endpoint
# with ab's shape (-k -c 32 -n 40000), sample RSS after, stop it; publish
# pummel's Metric | Result | How table.
#
#   scripts/bench-exec.sh [-r RUNS] [-n REQUESTS] [-o OUT.md]
#
# The server is `pummel serve`, built as its own binary and pinned to CPU 1;
# pummel runs on CPU 0. The bearer key is random and never printed.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

runs=7 requests=40000 out=/dev/stdout
while getopts "r:n:o:" opt; do
  case $opt in
    r) runs=$OPTARG ;; n) requests=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need taskset:util-linux
bench_setup
server=$work/pummel-serve
cp "$pummel" "$server"
port=18092
key=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')

taskset -c 0 "$pummel" -q --exec "taskset -c 1 $server serve --addr 127.0.0.1:$port" --settle 2s --runs "$runs" \
  -k -c 32 -n "$requests" -H "Authorization: Bearer $key" "http://127.0.0.1:$port/" --format markdown >"$out"
