#!/usr/bin/env bash
# Where an HTTP/3 client's CPU goes: perf samples of pummel --http3 and of
# the naive client (scripts/h3naive) against Caddy (bench_caddy in
# scripts/lib.sh), in microseconds of client CPU per request, each sample
# charged to the code that spent it.
#
#   scripts/bench-h3profile.sh [-d SECONDS] [-c CONNS] [-m "1 16"] [-r REPS] [-o OUT.md]
#
# A sample is charged by its call chain, from the leaf up: to the first
# frame of one of the groups below, so that an allocation, a system call
# or a standard library call counts for the code that made it. The groups:
#   pummel       github.com/pummel-dev/pummel (its counting, HTTP/3 framing, lanes)
#   qpack        github.com/quic-go/qpack (field sections)
#   streams      quic-go's stream layer: streams, their maps, flow control, frame sorting
#   packets      the rest of quic-go: packing, parsing, acknowledgements, loss recovery, the UDP path
#   crypto       packet protection and TLS (crypto/, golang.org/x/crypto)
#   net/http     the naive client's net/http and http3 packages
#   udp send, udp receive   the kernel's sendmsg and recvmmsg
#   other kernel            the rest of the kernel's, when no group's code called it
#   runtime      the rest: Go's scheduler, GC, timers, when no group's code called them
# Each tool runs REPS times (default 3), taking turns; each row is the
# repetition with the median total. Requests are Caddy's own count.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

dur=5 conns=64 streams="1 16" reps=3 out=/dev/stdout
while getopts "d:c:m:r:o:" opt; do
  case $opt in
    d) dur=$OPTARG ;; c) conns=$OPTARG ;; m) streams=$OPTARG ;; r) reps=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need taskset:util-linux curl:curl perf:linux-perf
SYMBOLS=1 bench_setup # pummel with its symbol table, so that samples name Go functions
mkdir -p "$work/bin" && go build -o "$work/bin/h3naive" ./scripts/h3naive
bench_caddy 18453

groups="pummel qpack streams packets crypto net/http udp-send udp-receive other-kernel runtime"

# classify reads `perf script -F period,ip,sym` and prints, for a run of n
# requests, the total and each group's µs of CPU per request.
classify() {
  awk -v n="$1" -v groups="$groups" 'BEGIN { RS = "" }
    function group(sym) {
      if (sym ~ /^github\.com\/pummel-dev\/pummel/) return "pummel"
      if (sym ~ /^github\.com\/quic-go\/qpack/) return "qpack"
      if (sym ~ /^github\.com\/quic-go\/quic-go\/http3|^net\/http|^net\/textproto|^mime/) return "net/http"
      if (sym ~ /^github\.com\/quic-go\/quic-go\.(\(\*)?(Stream|SendStream|ReceiveStream|streamsMap|outgoingStreamsMap|incomingStreamsMap|frameSorter|uniStreamSender|streamMapEntry)|^github\.com\/quic-go\/quic-go\.new(Send|Receive)?Stream|^github\.com\/quic-go\/quic-go\/internal\/flowcontrol/) return "streams"
      if (sym ~ /^github\.com\/quic-go\/quic-go/) return "packets"
      if (sym ~ /^crypto\/|^golang\.org\/x\/crypto|^vendor\/golang\.org\/x\/crypto/) return "crypto"
      return ""
    }
    {
      split($0, L, "\n"); split(L[1], h, " "); ns = h[1]; c = ""; kernel = 0
      for (i = 2; i <= length(L) && c == ""; i++) {
        line = L[i]; sub(/^[ \t]*/, "", line); split(line, f, " "); addr = f[1]; sym = f[2]
        if (addr ~ /^ffffffff/) { kernel = 1; continue }
        c = group(sym)
      }
      if (kernel && $0 ~ /sendmsg/) c = "udp-send"
      else if (kernel && $0 ~ /recvmmsg|recvmsg/) c = "udp-receive"
      else if (kernel && c == "") c = "other-kernel"
      if (c == "") c = "runtime"
      sum[c] += ns; total += ns
    }
    END {
      printf "%.2f", total / n / 1000
      k = split(groups, G, " ")
      for (i = 1; i <= k; i++) printf " %.2f", sum[G[i]] / n / 1000
      print ""
    }'
}

tools=""
for m in $streams; do tools="$tools pummel-h3-$m naive-h3-$m"; done
: >"$work/runs"
for _ in $(seq "$reps"); do
  for tool in $tools; do
    before=$(served)
    # shellcheck disable=SC2046 # the command is a word list
    perf record -q -e cpu-clock -F 2000 -g -o "$work/perf.data" -- taskset -c 0 $(bench_command "$tool" "$conns") >/dev/null
    n=$(( $(served) - before ))
    [ "$n" -gt 0 ] || { echo "$0: Caddy served nothing to $tool" >&2; exit 1; }
    echo "$tool $n $(perf script -i "$work/perf.data" -F period,ip,sym 2>/dev/null | classify "$n")" | tee -a "$work/runs" >&2
  done
  tools="${tools#* } ${tools%% *}" # the next repetition starts with the next tool
done

{
  printf '| tool | requests | client CPU µs per request'
  for g in $groups; do printf ' | %s' "$g"; done
  printf ' | pummel share |\n|---|---:|---:'
  for _ in $groups; do printf '|---:'; done
  printf '|---:|\n'
  for m in $streams; do
    for tool in pummel-h3-$m naive-h3-$m; do
      awk -v t="$tool" '$1 == t' "$work/runs" | sort -k3,3n |
        awk '{ row[NR] = $0 } END { k = split(row[int((NR + 1) / 2)], f, " ")
          printf "| %s | %d |", f[1], f[2]; for (i = 3; i <= k; i++) printf " %s |", f[i]
          printf " %.1f%% |\n", 100 * f[4] / f[3] }'
    done
  done
  echo
  echo "Median of $reps interleaved runs of ${dur}s at -c $conns (by the total), perf at 2,000 samples a second; Caddy on CPU 1 (GOMAXPROCS=1), the client on CPU 0."
  echo "A sample is charged to the first frame of its call chain, from the leaf, in one of the groups (pummel, qpack, quic-go's streams or packets, crypto, net/http), the kernel's UDP calls apart: an allocation, a system call or a standard library call counts for the code that made it; runtime is what no group's code called (scheduler, GC, timers)."
  bench_footer
} >"$out"
