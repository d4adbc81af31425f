#!/usr/bin/env bash
# Client memory holding connections: pummel (both transports) against wrk,
# each loading one pinned nginx worker with 1 and with CONNS connections.
#
#   scripts/bench-memory.sh [-c "1 10000"] [-d SECONDS] [-o OUT.md]
#
# For each run: the client's peak RSS (/usr/bin/time %M), and, sampled
# from /proc/PID/status halfway through the run, its RSS split into
# anonymous memory (heap, stacks, buffers: what holding connections costs)
# and file-backed pages (the client's own executable and libraries mapped
# in). Client on CPU 0, nginx on CPU 1; traffic to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."

conns="1 10000" dur=4 out=/dev/stdout
while getopts "c:d:o:" opt; do
  case $opt in
    c) conns=$OPTARG ;; d) dur=$OPTARG ;; o) out=$OPTARG ;;
    *) sed -n '2,11p' "$0"; exit 2 ;;
  esac
done

. scripts/lib.sh
bench_need nginx:nginx wrk:wrk /usr/bin/time:time taskset:util-linux curl:curl
bench_setup
bench_nginx 18098

# status PID FIELD prints a /proc/PID/status field in KiB.
status() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

{
  echo "| tool | connections | peak RSS | RSS halfway | of which anonymous | of which file-backed |"
  echo "|---|---:|---:|---:|---:|---:|"
  for c in $conns; do
    for tool in pummel pummel-goroutine wrk; do
      bench_next_url
      /usr/bin/time -f "%M" -o "$work/time" taskset -c 0 $(bench_command "$tool" "$c") >/dev/null 2>&1 &
      timer=$!
      sleep "$(awk -v d="$dur" 'BEGIN {print d / 2}')"
      pid=$(pgrep -n -f "^$(bench_command "$tool" "$c" | cut -d' ' -f1) " || true)
      rss=$(status "$pid" VmRSS) anon=$(status "$pid" RssAnon) file=$(status "$pid" RssFile)
      wait "$timer"
      printf '| %s | %s | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB |\n' "$tool" "$c" \
        "$(awk '{print $1 / 1024}' "$work/time")" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" \
        "$(awk -v k="$anon" 'BEGIN {print k / 1024}')" "$(awk -v k="$file" 'BEGIN {print k / 1024}')"
    done
  done
  echo
  echo "Each run ${dur}s; RSS halfway read from /proc/PID/status (VmRSS, RssAnon, RssFile); peak by /usr/bin/time."
  bench_footer
} >"$out"
