#!/usr/bin/env bash
# Capacity benchmark: the highest rate one server carries within an SLO,
# found by pummel capacity (server on CPU 1, pummel on CPU 0).
#
#   scripts/bench-capacity.sh [-t nginx|nginx-gzip|nginx-limit|serve|queue] [-s "p99<1ms"] [-f FROM] [-c CONNS] [-d STEP] [-o OUT.md] [-p CHARTDIR]
#   scripts/bench-capacity.sh -r RUNS [-b] [-t …] [-s …] [-c …] [-d STEP] [-o OUT.md]
#
# nginx: one worker answering an empty 200; nginx-gzip: the same worker
# compressing 16 KiB of text for every request (Accept-Encoding: gzip), so
# that nginx's CPU, not the client's, is the limit; nginx-limit: the
# same worker holding every request to 2,000 a second (limit_req, its
# leaky bucket: requests above the rate wait in a queue of up to 20,000,
# then are refused), an nginx whose capacity is known and does not move
# with its CPU's speed; serve: pummel serve --delay 1ms
# (every response held 1 ms); queue: pummel serve --capacity 2000, a server
# whose capacity is known (one request at a time, 0.5 ms each). Writes
# pummel's markdown of the search (the verdict and the table of steps by
# rate) to OUT, and with -p its chart (capacity.svg, capacity.png) into
# CHARTDIR. FROM is the lowest rate tried (default: the search starts at a
# quarter of the probe's throughput). Traffic goes to 127.0.0.1 only.
#
# With -r, the same search RUNS times in a row, and a table of the answers:
# their median, each one's distance from it and the widest. With -b, a
# busy loop shares pummel's CPU for the whole series (nice 0, pinned to
# CPU 0): the answer must not move with the client's neighbours.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

target=nginx slo="p99<1ms" from="" conns=64 step=10 out=/dev/stdout charts="" runs=1 busy=0
while getopts "t:s:f:c:d:o:p:r:b" opt; do
  case $opt in
    t) target=$OPTARG ;; s) slo=$OPTARG ;; f) from=$OPTARG ;; c) conns=$OPTARG ;; d) step=$OPTARG ;;
    o) out=$OPTARG ;; p) charts=$OPTARG ;; r) runs=$OPTARG ;; b) busy=1 ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx taskset:util-linux curl:curl
bench_setup
case $target in
  nginx | nginx-gzip | nginx-limit)
    bench_nginx 18093
    watch=(--pid "$nginx_worker")
    [ "$target" = nginx-gzip ] && url=${url}gzip watch+=(-H 'Accept-Encoding: gzip')
    [ "$target" = nginx-limit ] && url=${url}limited
    ;;
  serve | queue)
    url=http://127.0.0.1:18094/
    flags="--delay 1ms"
    [ "$target" = queue ] && flags="--capacity 2000"
    watch=(--exec "taskset -c 1 $pummel serve --addr 127.0.0.1:18094 $flags")
    ;;
  *) bench_usage; exit 2 ;;
esac
fromflag=()
[ -n "$from" ] && fromflag=(--from "$from")
[ "$busy" = 1 ] && bench_hog 0

# search N: one capacity search, its JSON to $work/capacity-N.json.
search() {
  local rc=0
  taskset -c 0 "$pummel" capacity -q -c "$conns" -t 1 --step "${step}s" "${fromflag[@]}" --threshold "$slo" --threshold 'errors<0.1%' \
    "${watch[@]}" -o "$work/capacity-$1.json" --format markdown "$url" >"$work/capacity-$1.md" || rc=$?
  case $rc in # 3: no rate met the SLO, itself a finding; anything else: the search was not carried out
    0 | 3) ;;
    *) echo "$0: pummel capacity exited $rc" >&2; exit 1 ;;
  esac
}

# commas N: N rounded, with commas between thousands.
commas() { awk -v n="$1" 'BEGIN { s = sprintf("%.0f", n); out = ""; while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) } print s out }'; }

# answer FILE: the capacity a search's JSON gives (requests/s), or "none".
answer() { grep -o '"rate": *[0-9.e+]*' "$1" | head -1 | sed 's/.*: *//' | grep . || echo none; }

if [ "$runs" = 1 ]; then
  search 1
  {
    cat "$work/capacity-1.md"
    echo
    echo "Server: $target on CPU 1; pummel on CPU 0 (-t 1)."
    bench_footer
  } >"$out"
  if [ -n "$charts" ]; then
    "$pummel" report --plot "$charts" "$work/capacity-1.json" >/dev/null
  fi
  exit 0
fi

start=$(date +%s)
answers=()
for i in $(seq 1 "$runs"); do
  search "$i"
  answers+=("$(answer "$work/capacity-$i.json")")
  echo "run $i: ${answers[-1]} req/s" >&2
done
{
  echo "| run | capacity (req/s) | confirmed | from the median | steps | bracket (req/s) |"
  echo "|---:|---:|---|---:|---:|---|"
  median=$(printf '%s\n' "${answers[@]}" | grep -v none | sort -g | awk '{a[NR]=$1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  widest=0
  for i in $(seq 1 "$runs"); do
    a=${answers[$((i - 1))]} f=$work/capacity-$i.json
    steps=$(grep -o '"steps_run": *[0-9]*' "$f" | sed 's/.*: *//')
    confirmed=$(grep -o '"confirmed": *[a-z]*' "$f" | head -1 | sed 's/.*: *//')
    pass=$(grep -o '"pass_rate": *[0-9.]*' "$f" | sed 's/.*: *//') fail=$(grep -o '"fail_rate": *[0-9.]*' "$f" | sed 's/.*: *//')
    limited=$(grep -o '"limited_by": *"[a-z]*"' "$f" | head -1 | sed 's/.*: *"//; s/"//')
    bracket="$(commas "${pass:-0}")–$(commas "${fail:-0}")"
    [ -z "$fail" ] && bracket="$(commas "${pass:-0}") passed, none failed"
    [ "$limited" = client ] && bracket="$bracket (client-limited)"
    [ "$confirmed" = true ] && confirmed=yes || confirmed=no
    dev=-
    if [ "$a" != none ] && [ -n "$median" ]; then
      dev=$(awk -v a="$a" -v m="$median" 'BEGIN {printf "%+.1f%%", 100 * (a - m) / m}')
      widest=$(awk -v a="$a" -v m="$median" -v w="$widest" 'BEGIN {d = 100 * (a - m) / m; if (d < 0) d = -d; print (d > w ? d : w)}')
    fi
    printf '| %d | %s | %s | %s | %s | %s |\n' "$i" "$( [ "$a" = none ] && echo none || commas "$a")" "$confirmed" "$dev" "$steps" "$bracket"
  done
  echo
  busytext="idle"
  [ "$busy" = 1 ] && busytext="busy (a busy loop shared pummel's CPU)"
  printf 'Median %s req/s; every answer within ±%.1f%% of it. %d searches of `pummel capacity -c %s -t 1 --step %ss --threshold %s --threshold errors<0.1%%`, %d s in all; server: %s on CPU 1; pummel on CPU 0, %s.\n' \
    "$(commas "$median")" "$widest" "$runs" "$conns" "$step" "$slo" "$(($(date +%s) - start))" "$target" "$busytext"
  bench_footer
} >"$out"
