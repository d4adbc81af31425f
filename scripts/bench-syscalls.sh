#!/usr/bin/env bash
# System calls per request, pummel against wrk, at 64 connections against
# one pinned nginx worker: kernel tracepoints counted with perf stat
# (linux-perf; tracefs is mounted if it is not).
#
#   scripts/bench-syscalls.sh [-d SECONDS] [-o OUT.md]
set -euo pipefail
cd "$(dirname "$0")/.."

dur=5 out=/dev/stdout
while getopts "d:o:" opt; do
  case $opt in
    d) dur=$OPTARG ;; o) out=$OPTARG ;;
    *) sed -n '2,7p' "$0"; exit 2 ;;
  esac
done

. scripts/lib.sh
bench_need nginx:nginx wrk:wrk taskset:util-linux curl:curl perf:linux-perf
[ -d /sys/kernel/tracing/events/syscalls ] || mount -t tracefs nodev /sys/kernel/tracing
bench_setup
bench_nginx 18096

events=raw_syscalls:sys_enter,syscalls:sys_enter_write,syscalls:sys_enter_read,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl
{
  echo "| tool | requests | syscalls per request | write | read | epoll_wait/pwait | epoll_ctl |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for tool in pummel wrk; do
    before=$(served)
    if [ "$tool" = pummel ]; then cmd="$pummel -q -t1 -c64 -d${dur}s $url"; else cmd="wrk -t1 -c64 -d${dur}s $url"; fi
    # shellcheck disable=SC2086 # cmd is a word list
    perf stat -x, -e "$events" -o "$work/perf" taskset -c 0 $cmd >/dev/null
    n=$(( $(served) - before - 1 ))
    awk -F, -v n="$n" -v tool="$tool" '
      $3 ~ /raw_syscalls/ { all = $1 } $3 ~ /enter_write$/ { w = $1 } $3 ~ /enter_read$/ { r = $1 }
      $3 ~ /epoll_p?wait/ { e += $1 } $3 ~ /epoll_ctl/ { c = $1 }
      END { printf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", tool, n, all/n, w/n, r/n, e/n, c/n }' "$work/perf"
  done
  echo
  echo "Counted over the whole process (start-up included), ${dur}s at 64 connections; nginx on CPU 1, the client on CPU 0."
  bench_footer
} >"$out"
