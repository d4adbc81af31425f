#!/usr/bin/env bash
# What --export costs the client: requests per client CPU-second with and
# without --export prometheus=URL, paired (the two runs of a pair back to
# back, their order alternating), against one nginx worker: nginx and a
# local Prometheus (Debian's, receiving remote write, native histograms) on
# CPU 1, pummel on CPU 0. Two load shapes: closed loop at 64 connections,
# and open loop at a fixed rate (-R), where each push also merges the
# schedule's lag. The bar: the export costs at most 2%, so the median of
# the pairs' ratios is at least 0.98. Each pair's ratio is printed, then
# their median and range per shape; a run whose export dropped a push
# stops the script (the pair would not measure a working export).
# -b CPU keeps CPU busy throughout (1: the server's core, for the repeat
# of a figure with the other core busy), said in the footer.
#
#   scripts/bench-export.sh [-r REPS] [-d SECONDS] [-R RATE] [-b CPU] [-o OUT.md]
#
# Needs the machine to itself (see CONTRIBUTING.md): never from a test or CI.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=7 dur=10 rate=20000 out=/dev/stdout hogcpu=""
while getopts "r:d:R:b:o:" opt; do
  case $opt in
    r) reps=$OPTARG ;; d) dur=$OPTARG ;; R) rate=$OPTARG ;; b) hogcpu=$OPTARG ;; o) out=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done
case $hogcpu in "" | 0 | 1) ;; *) echo "$0: -b takes 0 or 1 (the CPU to keep busy)" >&2; exit 2 ;; esac

bench_need nginx:nginx taskset:util-linux curl:curl /usr/bin/time:time prometheus:prometheus
bench_setup
bench_nginx 18094

# A Prometheus of its own, on CPU 1 beside nginx, stopped with the script.
prom_port=19094
mkdir -p "$work/prom"
printf 'global:\n  scrape_interval: 15s\n' >"$work/prom/prometheus.yml"
taskset -c 1 prometheus --config.file="$work/prom/prometheus.yml" --storage.tsdb.path="$work/prom/data" \
  --web.listen-address="127.0.0.1:$prom_port" --web.enable-remote-write-receiver \
  --enable-feature=native-histograms >"$work/prom/log" 2>&1 &
prom_pid=$!
trap 'kill "$prom_pid" 2>/dev/null || true; wait "$prom_pid" 2>/dev/null || true; bench_cleanup' EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$prom_port/-/ready" >/dev/null && break; sleep 0.1; done
curl -sf "127.0.0.1:$prom_port/-/ready" >/dev/null || { echo "$0: prometheus did not start:" >&2; cat "$work/prom/log" >&2; exit 1; }
export_flags="--export prometheus=http://127.0.0.1:$prom_port/api/v1/write"

# one SHAPE VARIANT REP: one run, appended to $work/runs as
# "shape variant rep requests user sys".
one() {
  local shape=$1 variant=$2 rep=$3 load extra=""
  case $shape in
    closed) load="-t1 -c64 -d ${dur}s" ;;
    open) load="-t1 -c64 -R $rate -d ${dur}s" ;;
  esac
  [ "$variant" = export ] && extra=$export_flags
  bench_next_url
  before=$(served)
  # shellcheck disable=SC2086 # load and extra are word lists
  /usr/bin/time -f "%U %S" -o "$work/time" taskset -c 0 "$pummel" -q $load $extra --format json "$url" >"$work/result.json"
  n=$(( $(served) - before - 1 ))
  read -r user sys < <(tail -1 "$work/time")
  if [ "$variant" = export ] && ! grep -q '"dropped": 0' "$work/result.json"; then
    echo "$0: $shape rep $rep: the export dropped pushes" >&2
    exit 1
  fi
  echo "$shape $variant $rep $n $user $sys" >>"$work/runs"
  echo "rep $rep $shape $variant: $n requests, cpu $user+$sys s" >&2
}

hog=""
[ -z "$hogcpu" ] || bench_hog "$hogcpu"
for rep in $(seq "$reps"); do
  for shape in closed open; do
    if [ $((rep % 2)) = 1 ]; then pair="none export"; else pair="export none"; fi
    for v in $pair; do one "$shape" "$v" "$rep"; done
  done
done
{
  echo "| load | without --export (req per CPU-s, median) | with | paired ratio, median (range) |"
  echo "|---|---:|---:|---:|"
  awk "$awk_median"'
    { eff[$1 " " $2] = eff[$1 " " $2] " " $4 / ($5 + $6); per[$1 " " $3 " " $2] = $4 / ($5 + $6) }
    END {
      split("closed open", S, " ")
      for (i = 1; i <= 2; i++) {
        s = S[i]; ratios = ""; lo = 1e9; hi = 0
        for (k in per) {
          split(k, f, " ")
          if (f[1] != s || f[3] != "export") continue
          r = per[k] / per[s " " f[2] " none"]; ratios = ratios " " r
          if (r < lo) lo = r; if (r > hi) hi = r
        }
        printf "| %s | %.0f | %.0f | %.3f× (%.3f–%.3f) |\n", s, median(eff[s " none"]), median(eff[s " export"]), median(ratios), lo, hi
      }
    }' "$work/runs"
  echo
  echo "$reps pairs of ${dur}s runs per load, each pair back to back in alternating order: closed loop at 64 connections, open loop at $rate req/s over 64; 1 thread."
  echo "With --export: $export_flags (every second), Prometheus $(prometheus --version 2>&1 | awk 'NR==1 {print $3}') on CPU 1 beside one nginx worker; pummel on CPU 0."
  bench_hog_note
  bench_footer
} >"$out"
