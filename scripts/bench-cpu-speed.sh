#!/usr/bin/env bash
# How steady this machine's CPUs are: a fixed loop (cpu_probe in
# scripts/lib.sh) pinned to each CPU in turn, timed by the wall clock, every
# INTERVAL seconds for SAMPLES samples.
#
#   scripts/bench-cpu-speed.sh [-n SAMPLES] [-i INTERVAL] [-o OUT.md]
#
# Writes, per CPU, the fastest, median and slowest time of the loop and the
# share of slow samples (over probe_slow times the fastest, as in
# scripts/lib.sh), then every sample in order and the steal time the kernel
# reported meanwhile (default: 60 samples, 1 s apart, to stdout). Run it on a quiet
# machine: anything else running on a CPU slows the loop too. A virtual CPU
# whose host runs something else on the same core is slower while it does,
# and a client or server on it costs more CPU time per request then; that
# is why the benchmark scripts interleave tools and repeat runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

samples=60 interval=1 out=/dev/stdout
while getopts "n:i:o:" opt; do
  case $opt in
    n) samples=$OPTARG ;; i) interval=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

bench_need taskset:util-linux
cpus=$(nproc)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
steal0=$(steal_jiffies)
for _ in $(seq "$samples"); do
  row=""
  for ((c = 0; c < cpus; c++)); do row="$row $(cpu_probe "$c")"; done
  echo "${row# }" >>"$log"
  sleep "$interval"
done
steal=$(($(steal_jiffies) - steal0))

{
  echo "| CPU | fastest loop | median | slowest | slow samples (over ${probe_slow}× the fastest) |"
  echo "|---:|---:|---:|---:|---:|"
  for ((c = 0; c < cpus; c++)); do
    awk -v col=$((c + 1)) '{ print $col }' "$log" | sort -n | awk -v cpu="$c" -v slow="$probe_slow" '
      { v[NR] = $1 }
      END {
        over = 0
        for (i = 1; i <= NR; i++) if (v[i] > slow * v[1]) over++
        printf "| %d | %d ms | %d ms | %d ms | %.0f%% |\n", cpu, v[1], v[int((NR + 1) / 2)], v[NR], 100 * over / NR
      }'
  done
  echo
  echo "Every sample in order (ms, CPU 0/…/CPU $((cpus - 1)), ${interval} s apart): $(tr ' ' / <"$log" | paste -sd' ')"
  echo
  echo "Steal time reported by the kernel meanwhile (/proc/stat): $steal jiffies."
  echo
  bench_footer
} >"$out"
