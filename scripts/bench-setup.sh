#!/usr/bin/env bash
# Steady state and set-up cost at many connections, pummel against wrk.
#
#   scripts/bench-setup.sh [-r REPS] [-c CONNS] [-d SECONDS] [-a] [-o OUT.md]
#
# Each tool runs twice per repetition against one nginx worker, for 1 s and
# for SECONDS (default 8), client pinned to CPU 0 and nginx to CPU 1. The
# difference of the two runs removes what does not grow with the duration
# (opening CONNS connections, closing them, start-up):
#   steady state   (requests_long - requests_short) / (cpu_long - cpu_short)
#   set-up CPU     cpu_short - requests_short / steady state
# Requests are nginx's own count (stub_status), CPU is user + system of the
# client (/usr/bin/time). Writes a markdown table of medians to OUT.md
# (default: stdout). Each run connects to a loopback address of its own
# (bench_next_url in scripts/lib.sh); -a sends every run to 127.0.0.1
# instead, so that each pays for the sockets the run before it left in
# TIME_WAIT: the difference between the two is that cost.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=3 conns=10000 dur=8 out=/dev/stdout same=""
while getopts "r:c:d:ao:" opt; do
  case $opt in
    r) reps=$OPTARG ;; c) conns=$OPTARG ;; d) dur=$OPTARG ;; a) same=1 ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need nginx:nginx wrk:wrk /usr/bin/time:time taskset:util-linux curl:curl
bench_setup
bench_nginx 18097

measure() { # tool seconds -> "requests cpu"
  local cmd before after
  cmd=$(dur=$2 bench_command "$1" "$conns")
  before=$(served)
  # shellcheck disable=SC2086 # cmd is a word list
  /usr/bin/time -f "%U %S" -o "$work/time" taskset -c 0 $cmd >/dev/null 2>&1 || true
  after=$(served)
  tail -1 "$work/time" | awk -v n=$((after - before - 1)) '{ print n, $1 + $2 }'
}

for rep in $(seq "$reps"); do
  for tool in pummel wrk; do
    [ -n "$same" ] || bench_next_url
    read -r ns cs < <(measure "$tool" 1)
    [ -n "$same" ] || bench_next_url
    read -r nl cl < <(measure "$tool" "$dur")
    echo "rep $rep $tool: 1s $ns requests in $cs CPU-s, ${dur}s $nl in $cl CPU-s" >&2
    printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$ns" "$cs" "$nl" "$cl" >>"$work/runs.tsv"
  done
done

{
  echo "| tool | steady-state requests per client CPU-second | vs wrk | set-up and tear-down CPU-s |"
  echo "|---|---:|---:|---:|"
  awk -F'\t' "$awk_median"'
    { s = ($4 - $2) / ($5 - $3); steady[$1] = steady[$1] " " s; setup[$1] = setup[$1] " " ($3 - $2 / s) }
    END {
      base = median(steady["wrk"])
      for (t = 1; t <= 2; t++) {
        tool = t == 1 ? "pummel" : "wrk"
        printf "| %s | %.0f | %.2f× | %.2f |\n", tool, median(steady[tool]), median(steady[tool]) / base, median(setup[tool])
      }
    }' "$work/runs.tsv"
  echo
  echo "Medians of $reps repetitions at $conns connections: a 1 s and a ${dur} s run of each tool, $([ -n "$same" ] && echo "every run to 127.0.0.1" || echo "each run to its own loopback address"); nginx 1 worker on CPU 1, clients on CPU 0."
  bench_footer
} >"$out"
