#!/usr/bin/env bash
# System calls per request, pummel against wrk, against one pinned nginx
# worker: kernel tracepoints counted with perf stat (linux-perf; tracefs is
# mounted if it is not).
#
#   scripts/bench-syscalls.sh [-d SECONDS] [-c "64 10000"] [-p DEPTH] [-o OUT.md]
#
# -p DEPTH adds pipelined rows: pummel --pipeline DEPTH against wrk with
# scripts/lua/pipeline.lua at the same depth. "empty" counts the reads that
# found nothing to read (EAGAIN); requests are nginx's own count.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

dur=5 conns=64 depth="" out=/dev/stdout
while getopts "d:c:p:o:" opt; do
  case $opt in
    d) dur=$OPTARG ;; c) conns=$OPTARG ;; p) depth=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx wrk:wrk taskset:util-linux curl:curl perf:linux-perf
[ -d /sys/kernel/tracing/events/syscalls ] || mount -t tracefs nodev /sys/kernel/tracing
bench_setup
bench_nginx 18096

tools="pummel pummel-goroutine wrk"
[ -n "$depth" ] && tools="$tools pummel-pipeline pummel-goroutine-pipeline wrk-pipeline"
events=raw_syscalls:sys_enter,syscalls:sys_enter_write,syscalls:sys_enter_read,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl
{
  echo "| tool | connections | requests | syscalls per request | write | read | of which empty | epoll_wait/pwait | epoll_ctl |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for c in $conns; do
    for tool in $tools; do
      bench_next_url
      before=$(served)
      # shellcheck disable=SC2046 # the command is a word list
      perf stat -x, -e "$events" -e syscalls:sys_exit_read --filter 'ret == -11' -o "$work/perf" \
        taskset -c 0 $(bench_command "$tool" "$c") >/dev/null
      n=$(( $(served) - before - 1 ))
      awk -F, -v n="$n" -v tool="$tool" -v c="$c" '
        $3 ~ /raw_syscalls/ { all = $1 } $3 ~ /enter_write$/ { w = $1 } $3 ~ /enter_read$/ { r = $1 }
        $3 ~ /exit_read$/ { empty = $1 } $3 ~ /epoll_p?wait/ { e += $1 } $3 ~ /epoll_ctl/ { ctl = $1 }
        END { printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", tool, c, n, all/n, w/n, r/n, empty/n, e/n, ctl/n }' "$work/perf"
    done
  done
  echo
  echo "Counted over the whole process (start-up included), ${dur}s per run; nginx on CPU 1, the client on CPU 0."
  [ -n "$depth" ] && echo "Pipelined rows: depth $depth, 30 s timeout (wrk runs scripts/lua/pipeline.lua)."
  bench_footer
} >"$out"
