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
# in). The last column divides the anonymous memory a run holds beyond the
# tool's run with the first connection count by the connections it adds:
# what one more connection costs. Client on CPU 0, nginx on CPU 1; traffic
# to loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

conns="1 10000" dur=4 out=/dev/stdout
while getopts "c:d:o:" opt; do
  case $opt in
    c) conns=$OPTARG ;; d) dur=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx wrk:wrk /usr/bin/time:time taskset:util-linux curl:curl
bench_setup
bench_nginx 18098

# status PID FIELD prints a /proc/PID/status field in KiB.
status() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

{
  echo "| tool | connections | peak RSS | RSS halfway | of which anonymous | of which file-backed | anonymous per added connection |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  read -ra counts <<<"$conns"
  declare -A base
  for c in "${counts[@]}"; do
    for tool in pummel pummel-goroutine wrk; do
      bench_next_url
      /usr/bin/time -f "%M" -o "$work/time" taskset -c 0 $(bench_command "$tool" "$c") >/dev/null 2>&1 &
      timer=$!
      sleep "$(awk -v d="$dur" 'BEGIN {print d / 2}')"
      pid=$(pgrep -n -f "^$(bench_command "$tool" "$c" | cut -d' ' -f1) " || true)
      rss=$(status "$pid" VmRSS) anon=$(status "$pid" RssAnon) file=$(status "$pid" RssFile)
      wait "$timer" || echo "$0: $tool -c $c failed" >&2
      [ "$c" = "${counts[0]}" ] && base[$tool]=$anon
      printf '| %s | %s | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %s |\n' "$tool" "$c" \
        "$(tail -1 "$work/time" | awk '{print $1 / 1024}')" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" \
        "$(awk -v k="$anon" 'BEGIN {print k / 1024}')" "$(awk -v k="$file" 'BEGIN {print k / 1024}')" \
        "$(awk -v a="$anon" -v b="${base[$tool]}" -v c="$c" -v c0="${counts[0]}" 'BEGIN { if (c == c0) print "–"; else printf "%.2f KiB", (a - b) / (c - c0) }')"
    done
  done
  echo
  echo "Each run ${dur}s; RSS halfway read from /proc/PID/status (VmRSS, RssAnon, RssFile); peak by /usr/bin/time."
  bench_footer
} >"$out"
