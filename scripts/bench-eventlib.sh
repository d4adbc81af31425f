#!/usr/bin/env bash
# Closed-loop benchmark of pummel's own event loop against minimal load
# clients built on the event-loop libraries gnet v2 and nbio
# (scripts/eventlib, a module of its own), all loading one nginx worker
# that answers an empty 200: would a library do a request's work on less
# client CPU than the hand-written loop?
#
#   scripts/bench-eventlib.sh [-r REPS] [-c "64 10000"] [-d SECONDS] [-t "pummel gnet gnet-opt nbio"] [-o OUT.md]
#
# Tools: pummel (default engine, one worker), gnet (gnet.NewClient, one
# event loop), gnet-opt (the same client built with gnet's build tags
# poll_opt and gc_opt) and nbio (nbio.NewEngine in client mode, one
# poller). The library clients do less per response than pummel: they find
# the header's end and Content-Length, skip the body and take one clock
# reading, where pummel parses the whole header and records a histogram.
# gnet's client has no non-blocking dial: each connection is opened by Go's
# net.Dial and handed to a loop, which the 10,000-connection rows pay for;
# nbio and pummel connect without blocking from their loops.
# nginx runs pinned to CPU 1 and every client to CPU 0 (taskset). Tools are
# interleaved within each repetition and their order rotates from one
# repetition to the next, as in scripts/bench-peers.sh.
# For each run it records:
#   requests   the server's own count (nginx stub_status delta), not the tool's
#   req/CPU-s  requests / (user + system CPU seconds of the client process),
#              which covers opening and closing the connections too
#   RSS        the client's peak resident set size (/usr/bin/time %M)
#   probes     cpu_probe (scripts/lib.sh) on CPU 0 and CPU 1 just before and
#              just after the run: whether a CPU was in a slow stretch
# and writes a markdown table of medians to OUT.md (default: stdout), with
# the paired ratio to pummel: the median of each repetition's ratio, with
# the lowest and highest, which drift between repetitions does not move.
# Then every run's own figures. Installs nginx and time from Debian when
# missing. Sends traffic to 127.0.0.1 only; every run is bounded by -d.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=5 conns="64 10000" dur=10 tools="pummel gnet gnet-opt nbio" out=/dev/stdout
while getopts "r:c:d:t:o:" opt; do
  case $opt in
    r) reps=$OPTARG ;; c) conns=$OPTARG ;; d) dur=$OPTARG ;; t) tools=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done
for tool in $tools; do
  case $tool in
    pummel | gnet | gnet-opt | nbio) ;;
    *) echo "$0: -t: unknown tool $tool (want pummel, gnet, gnet-opt or nbio)" >&2; exit 2 ;;
  esac
done

bench_need nginx:nginx /usr/bin/time:time taskset:util-linux curl:curl

bench_setup
# The library clients, stripped as scripts/build.sh strips pummel.
(cd scripts/eventlib &&
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/eventlib" . &&
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -tags poll_opt,gc_opt -o "$work/eventlib-opt" .)
bench_nginx 18090

# tool_command TOOL CONNS [DIR] prints the command line of one run; DIR
# replaces $work in what is printed.
tool_command() {
  local c=$2 dir=${3:-$work}
  case $1 in
    pummel) bench_command pummel "$c" "${3:+pummel}" ;;
    gnet) echo "$dir/eventlib -lib gnet -t 1 -c $c -d $dur $url" ;;
    gnet-opt) echo "$dir/eventlib-opt -lib gnet -t 1 -c $c -d $dur $url" ;;
    nbio) echo "$dir/eventlib -lib nbio -t 1 -c $c -d $dur $url" ;;
  esac
}

runs=$work/runs.tsv
# one_run TOOL CONNS REP measures one run and appends its row to $runs.
one_run() {
  bench_run tool_command "$1" "$2"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$requests" "$user" "$sys" "$rss" "$rc" "$probes" >>"$runs"
  echo "rep $3 c=$2 $1: $requests requests, wall $wall s, cpu $user+$sys s, rss ${rss} KiB, exit $rc, probes $probes ms" >&2
  [ "$rc" = 0 ] || sed 's/^/    /' "$work/log" | tail -5 >&2
}
bench_interleave one_run

{
  echo "| tool | connections | requests per client CPU-second | vs pummel, paired (range) | client max RSS | failed runs |"
  echo "|---|---:|---:|---:|---:|---:|"
  awk -F'\t' -v tools="$tools" -v conns="$conns" -v reps="$reps" "$awk_median"'
    { k = $1 SUBSEP $2
      rss[k] = rss[k] " " $7 / 1024
      if ($8 != 0) failed[k]++
      if ($5 + $6 <= 0) next # a run that failed before doing anything
      eff[k] = eff[k] " " $4 / ($5 + $6)
      one[k, $3] = $4 / ($5 + $6) }
    END {
      nt = split(tools, T, " "); nc = split(conns, C, " ")
      for (ci = 1; ci <= nc; ci++) {
        for (ti = 1; ti <= nt; ti++) {
          k = T[ti] SUBSEP C[ci]; b = "pummel" SUBSEP C[ci]
          paired = ""; lo = ""; hi = ""
          for (r = 1; r <= reps; r++) {
            if (!((k, r) in one) || !((b, r) in one) || one[b, r] <= 0) continue
            x = one[k, r] / one[b, r]
            paired = paired " " x
            if (lo == "" || x < lo) lo = x
            if (hi == "" || x > hi) hi = x
          }
          printf "| %s | %s | %.0f | %s | %.1f MiB | %d |\n", T[ti], C[ci], median(eff[k]),
            (paired != "" ? sprintf("%.2f× (%.2f–%.2f)", median(paired), lo, hi) : "n/a"), median(rss[k]), failed[k]
        }
      }
    }' "$runs"
  echo
  echo "Medians of $reps interleaved runs of ${dur}s each; nginx 1 worker pinned to CPU 1, clients pinned to CPU 0."
  bench_footer
  echo "Libraries: $(cd scripts/eventlib && go list -m -f '{{.Path}} {{.Version}}' github.com/panjf2000/gnet/v2 github.com/lesismal/nbio | paste -sd, | sed 's/,/, /'); $(nginx -v 2>&1 | cut -d' ' -f3)."
  echo
  echo "<details><summary>Every run, in the order run</summary>"
  echo
  echo "| repetition | tool | connections | requests | requests per client CPU-second | client CPU-s (user+sys) | exit | CPU 0/CPU 1 probe, before → after (ms) |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %.0f | %s+%s | %s | %s |\n", $3, $1, $2, $4, ($5 + $6 > 0 ? $4 / ($5 + $6) : 0), $5, $6, $8, $9 }' "$runs"
  echo
  echo "</details>"
  echo
  echo "Commands (CONNS filled in per run; URL: nginx on the next of 64 loopback addresses, so that no run pays for the TIME_WAIT sockets of the one before; eventlib built from scripts/eventlib, eventlib-opt with -tags poll_opt,gc_opt):"
  echo
  for tool in $tools; do echo "    $(tool_command "$tool" CONNS .)"; done
} >"$out"
