#!/usr/bin/env bash
# The io_uring trial of issue 25: would an io_uring transport cost less
# client CPU per request than pummel's epoll loop? Paired, interleaved,
# closed-loop runs against one nginx worker that answers an empty 200, of
# the two bare clients in scripts/uringtrial (-mode epoll, -mode uring:
# the same counting core, only the transport differs) and of pummel itself.
#
#   scripts/bench-uring.sh [-r REPS] [-c "64 10000"] [-d SECONDS] [-t "epoll uring pummel"] [-b BASE] [-o OUT.md]
#
# The bar (issue 25): an io_uring transport must make at least 1.1 times
# the requests per client CPU-second of pummel's epoll loop, at both 64
# and 10,000 connections. The ratios are paired to BASE (default pummel):
# the bare uring client's ratio to pummel is an upper bound of what an
# integrated io_uring transport could reach, since it does none of the
# parsing, counting and recording pummel does. The bare epoll client (raw
# read and write, as pummel's loop) shows what those cost pummel.
# nginx runs pinned to CPU 1 and every client to CPU 0 (taskset); each
# run gets the next loopback address (bench_next_url in scripts/lib.sh).
# Tools are interleaved within each repetition and their order rotates
# from one repetition to the next. For each run it records:
#   requests   the server's own count (nginx stub_status delta), not the tool's
#   req/CPU-s  requests / (user + system CPU seconds of the client process,
#              /usr/bin/time), which covers opening and closing the
#              connections too
#   probes     cpu_probe (scripts/lib.sh) on CPU 0 and CPU 1 just before and
#              just after the run: whether a CPU was in a slow stretch
# and writes to OUT.md (default: stdout) the medians of requests per client
# CPU-second with their ranges and each tool's paired ratio to BASE: the
# median of each repetition's ratio, with the lowest and highest. Sends traffic to 127.0.0.1 only; every run is bounded by -d.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=5 conns="64 10000" dur=8 tools="epoll uring pummel" base=pummel out=/dev/stdout
while getopts "r:c:d:t:b:o:" opt; do
  case $opt in
    r) reps=$OPTARG ;; c) conns=$OPTARG ;; d) dur=$OPTARG ;; t) tools=$OPTARG ;; b) base=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx /usr/bin/time:time taskset:util-linux curl:curl
bench_setup
trial=$work/uringtrial
go build -o "$trial" ./scripts/uringtrial
bench_nginx 18089

# trial_command TOOL CONNS prints the command line of one run against $url.
trial_command() {
  case $1 in
    epoll | uring) echo "$trial -mode $1 -c $2 -d ${dur}s $url" ;;
    pummel) bench_command pummel "$2" ;;
  esac
}

# io_uring may be refused here (seccomp, io_uring_disabled): say so at once.
if [[ " $tools " == *" uring "* ]] && ! taskset -c 0 "$trial" -mode uring -c 1 -d 200ms "$url" >"$work/log" 2>&1; then
  echo "$0: the uring client does not run here: $(cat "$work/log")" >&2
  exit 1
fi

runs=$work/runs.tsv
# one_run TOOL CONNS REP measures one run and appends its row to $runs.
one_run() {
  local counted
  bench_run trial_command "$1" "$2"
  [ "$rc" -eq 0 ] || requests=0 # a client that failed has no figures: the table says so
  counted=$(sed -n 's/.*sent, \([0-9]*\) responses counted/\1/p' "$work/log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$requests" "$wall" "$user" "$sys" "$probes" >>"$runs"
  echo "rep $3 c=$2 $1: exit $rc, $requests requests (client counted ${counted:-n/a}), wall $wall s, cpu $user+$sys s, probes $probes ms" >&2
}
bench_interleave one_run

{
  echo "| tool | connections | requests per client CPU-second, median (lowest–highest) | vs $base, paired (lowest–highest) |"
  echo "|---|---:|---:|---:|"
  awk -F'\t' -v tools="$tools" -v conns="$conns" -v reps="$reps" -v base="$base" "$awk_median"'
    { if ($4 <= 0 || $6 + $7 <= 0) next # the tool did not run: no figures
      k = $1 SUBSEP $2; e = $4 / ($6 + $7)
      eff[k] = eff[k] " " e; one[k, $3] = e
      if (!(k in lo) || e < lo[k]) lo[k] = e
      if (!(k in hi) || e > hi[k]) hi[k] = e }
    END {
      nt = split(tools, T, " "); nc = split(conns, C, " ")
      for (ci = 1; ci <= nc; ci++) for (ti = 1; ti <= nt; ti++) {
        k = T[ti] SUBSEP C[ci]; b = base SUBSEP C[ci]
        if (eff[k] == "") { printf "| %s | %s | failed in every run | |\n", T[ti], C[ci]; continue }
        paired = ""; plo = ""; phi = ""
        for (r = 1; r <= reps; r++) {
          if (!((k, r) in one) || !((b, r) in one)) continue
          x = one[k, r] / one[b, r]; paired = paired " " x
          if (plo == "" || x < plo) plo = x
          if (phi == "" || x > phi) phi = x
        }
        printf "| %s | %s | %.0f (%.0f–%.0f) | %s |\n", T[ti], C[ci], median(eff[k]), lo[k], hi[k],
          (T[ti] == base ? "1" : paired == "" ? "n/a" : sprintf("%.2f× (%.2f–%.2f)", median(paired), plo, phi))
      }
    }' "$runs"
  echo
  echo "Medians of $reps interleaved runs of ${dur}s each; nginx 1 worker pinned to CPU 1, clients pinned to CPU 0."
  echo "The bar (issue 25): an io_uring transport at 1.1× pummel's loop or more at both 64 and 10,000 connections; the bare uring client's ratio to pummel bounds what one could reach."
  bench_footer
  echo
  echo "<details><summary>Every run, in the order run</summary>"
  echo
  echo "| repetition | tool | connections | requests | requests per client CPU-second | client CPU-s (user+sys) | CPU 0/CPU 1 probe, before → after (ms) |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %.0f | %s+%s | %s |\n", $3, $1, $2, $4, ($6 + $7 > 0 ? $4 / ($6 + $7) : 0), $6, $7, $8 }' "$runs"
  echo
  echo "</details>"
  echo
  echo "Commands (CONNS filled in per run):"
  echo
  for tool in $tools; do echo "    $(trial_command "$tool" CONNS | sed "s#$work/uringtrial#uringtrial#; s#$work/pummel#pummel#")"; done
} >"$out"
