#!/usr/bin/env bash
# Capacity benchmark: the highest rate one server carries within an SLO,
# found by pummel capacity (server on CPU 1, pummel on CPU 0).
#
#   scripts/bench-capacity.sh [-t nginx|serve] [-s "p99<1ms"] [-f FROM] [-c CONNS] [-d STEP] [-o OUT.md] [-p CHARTDIR]
#
# nginx: one worker answering an empty 200; serve: pummel serve --delay 1ms
# (every response held 1 ms). Writes pummel's markdown of the search (the
# verdict and the table of steps by rate) to OUT, and with -p its chart
# (capacity.svg, capacity.png) into CHARTDIR. FROM is the lowest rate tried
# (default 1000/s): on an idle VM a request at a low rate pays a sleeping
# CPU's wake-up on each side, so latency there is not the server's. Traffic
# goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

target=nginx slo="p99<1ms" from=1000 conns=64 step=10 out=/dev/stdout charts=""
while getopts "t:s:f:c:d:o:p:" opt; do
  case $opt in
    t) target=$OPTARG ;; s) slo=$OPTARG ;; f) from=$OPTARG ;; c) conns=$OPTARG ;; d) step=$OPTARG ;;
    o) out=$OPTARG ;; p) charts=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx taskset:util-linux curl:curl
bench_setup
case $target in
  nginx)
    bench_nginx 18093
    watch=(--pid "$nginx_worker")
    ;;
  serve)
    url=http://127.0.0.1:18094/
    watch=(--exec "taskset -c 1 $pummel serve --addr 127.0.0.1:18094 --delay 1ms")
    ;;
  *) bench_usage; exit 2 ;;
esac

taskset -c 0 "$pummel" capacity -q -c "$conns" -t 1 --step "${step}s" --from "$from" --threshold "$slo" --threshold 'errors<0.1%' \
  "${watch[@]}" -o "$work/capacity.json" --format markdown "$url" >"$work/capacity.md" || rc=$?
case ${rc:-0} in # 3: no rate met the SLO, itself a finding; anything else: the search was not carried out
  0 | 3) ;;
  *) echo "$0: pummel capacity exited $rc" >&2; exit 1 ;;
esac
{
  cat "$work/capacity.md"
  echo
  echo "Server: $target on CPU 1; pummel on CPU 0 (-t 1)."
  bench_footer
} >"$out"
if [ -n "$charts" ]; then
  "$pummel" report --plot "$charts" "$work/capacity.json" >/dev/null
fi
