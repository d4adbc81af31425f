#!/usr/bin/env bash
# Where each client's CPU goes, pummel against wrk, against one pinned nginx
# worker: perf samples of the client's CPU (linux-perf), sorted by what the
# sample was doing, in microseconds of client CPU per request.
#
#   scripts/bench-profile.sh [-d SECONDS] [-c "64 10000"] [-p DEPTH] [-r REPS] [-s] [-o OUT.md]
#
# -p DEPTH profiles pipelined runs instead (pummel --pipeline DEPTH against
# wrk with scripts/lua/pipeline.lua). -s shares nginx's CPU with a busy
# loop, so that the server is the slower side and the clients wait for it.
# The tools take turns for REPS repetitions (default 3); each row is the
# repetition with the median total. Requests are nginx's own count.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

dur=5 conns=64 depth="" reps=3 slow="" out=/dev/stdout
while getopts "d:c:p:r:so:" opt; do
  case $opt in
    d) dur=$OPTARG ;; c) conns=$OPTARG ;; p) depth=$OPTARG ;; r) reps=$OPTARG ;;
    s) slow=1 ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx wrk:wrk taskset:util-linux curl:curl perf:linux-perf
SYMBOLS=1 bench_setup # pummel with its symbol table, so that samples name Go functions
bench_nginx 18097
[ -z "$slow" ] || bench_hog 1

tools="pummel wrk"
[ -n "$depth" ] && tools="pummel-pipeline wrk-pipeline"

# classify reads `perf script -F comm,period,ip,sym` and prints, for one
# run of n requests, the total and each category in µs of CPU per request.
# A sample counts in the first category its call chain matches; samples
# are of cpu-clock, whose period is in nanoseconds.
classify() {
  awk -v n="$1" 'BEGIN { RS = "" }
    function top(i,   s) { s = L[i]; sub(/^[ \t]*[0-9a-f]+ /, "", s); return s }
    {
      split($0, L, "\n"); split(L[1], h, " "); ns = h[2]; t = top(2); c = "user"
      if ($0 ~ /setLowWater/) c = "read" # SO_RCVLOWAT, set per pipelined batch so that one read takes it
      else if ($0 ~ /__sys_connect|__sys_socket|__x64_sys_fcntl|__sys_[gs]etsockopt|__sys_get(sock|peer)name|DialContext|morestack|newproc/) c = "open"
      else if ($0 ~ /__x64_sys_close|\(\*(streamConn|loopConn)\)\.shut|do_exit/) c = "close"
      else if ($0 ~ /ksys_read|__x64_sys_read|__sys_recvfrom/) c = "read"
      else if ($0 ~ /ksys_write|__x64_sys_write|__sys_sendto/) c = "write"
      else if ($0 ~ /do_epoll_wait|__x64_sys_epoll/) c = "epoll"
      else if ($0 ~ /exc_page_fault/) c = "fault"
      else if ($0 ~ /do_syscall_64/ && $0 !~ /__x64_sys_|__do_sys_|ksys_/) c = "entry"
      else if (t ~ /Syscall6$|RawSyscall6?$|^(__GI_)?(__libc_)?(read|write)$|^(__GI_)?epoll_(p?wait|ctl)$/) c = "entry"
      else if ($0 ~ /runtime\.(schedule|findRunnable|park_m|gopark|goready|netpoll|gosched_m|goschedImpl|stopm|startm|wakep|injectglist)/ || t ~ /^internal\/poll\.runtime_poll/) c = "sched"
      else if ($0 ~ /\n[ \t]*ffffffff[0-9a-f]+ /) c = "kernel"
      sum[c] += ns; total += ns
    }
    END {
      printf "%.2f", total / n / 1000
      split("read write epoll entry sched fault open close kernel user", k, " ")
      for (i = 1; i <= 10; i++) printf " %.2f", sum[k[i]] / n / 1000
      print ""
    }'
}

: >"$work/runs"
for r in $(seq "$reps"); do
  for c in $conns; do
    for tool in $tools; do
      bench_next_url
      before=$(served)
      # shellcheck disable=SC2046 # the command is a word list
      perf record -q -e cpu-clock -F 2000 -g -o "$work/perf.data" -- taskset -c 0 $(bench_command "$tool" "$c") >/dev/null
      n=$(( $(served) - before - 1 ))
      [ "$n" -gt 0 ] || { echo "$0: nginx served nothing to $tool" >&2; exit 1; }
      echo "$tool $c $n $(perf script -i "$work/perf.data" -F comm,period,ip,sym 2>/dev/null | classify "$n")" >>"$work/runs"
    done
  done
  tools="${tools#* } ${tools%% *}" # the next repetition starts with the other tool
done

{
  echo "| tool | connections | requests | client CPU µs per request | read | write | epoll | syscall entry and return | Go scheduler and netpoller | page faults | opening connections | closing connections | other kernel | user code |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  : >"$work/setup"
  for c in $conns; do
    for tool in pummel${depth:+-pipeline} wrk${depth:+-pipeline}; do
      awk -v t="$tool" -v c="$c" '$1 == t && $2 == c' "$work/runs" | sort -k4,4n |
        awk -v setup="$work/setup" '{ row[NR] = $0 } END { split(row[int((NR + 1) / 2)], f, " ")
          printf "| %s | %s | %d |", f[1], f[2], f[3]; for (i = 4; i <= 14; i++) printf " %s |", f[i]; print ""
          printf "%s at %s connections: opening them %.2f CPU-s, closing them %.2f CPU-s.\n", f[1], f[2], f[11] * f[3] / 1e6, f[12] * f[3] / 1e6 >>setup }'
    done
  done
  echo
  cat "$work/setup"
  echo "Median of $reps interleaved runs of ${dur}s (by the total), perf at 2,000 samples a second; nginx on CPU 1, the client on CPU 0."
  [ -n "$depth" ] && echo "Pipelined: depth $depth, 30 s timeout (wrk runs scripts/lua/pipeline.lua)."
  [ -n "$slow" ] && echo "nginx's CPU was shared with a busy loop, so the clients waited for the server."
  bench_footer
} >"$out"
