#!/usr/bin/env bash
# Side-by-side closed-loop benchmark of pummel (both transports) against
# wrk, ab, hey, h2load, bombardier and vegeta, all loading one nginx worker
# that answers an empty 200.
#
#   scripts/bench-peers.sh [-r REPS] [-c "64 10000"] [-d SECONDS] [-t "pummel pummel-goroutine wrk ab hey"] [-T THREADS] [-p DEPTH] [-H "1 16" [-S] | -Q "1 16"] [-b CPU] [-o OUT.md] [-g CHART.svg]
#
# -H "M…" measures HTTP/2 instead: nginx speaks h2c, and the tools are
# pummel --http2 --streams M (both transports) and h2load -m M for each M,
# each pummel row's ratio taken to h2load at the same M; `pummel -n 200000
# --http2 --streams 16 -c 64` is first checked against nginx's own count.
# -S with -H makes those rows h2 over TLS instead of h2c: nginx listens
# with `ssl http2` and a certificate the script makes (a CA of its own, see
# bench_tls_cert in scripts/lib.sh), pummel-h2tls-M runs pummel --http2
# --streams M with https:// and --cacert (its goroutine transport, which
# --engine auto picks for https, so one pummel row per M) and h2load-h2tls-M
# h2load -m M with https:// (ALPN h2; it does not verify certificates).
#
# -Q "M…" measures HTTP/3 instead, against Caddy (bench_caddy in
# scripts/lib.sh: HTTP/1.1, HTTP/2 and HTTP/3 on one port, one core): for
# each M, pummel-h3-M (pummel --http3 --streams M), naive-h3-M (the
# yardstick, scripts/h3naive: quic-go's http3.Transport under net/http's
# Client) and pummel-h2caddy-M (pummel --http2 --streams M over TLS to the
# same Caddy). Each pummel-h3 row's ratio is taken to naive-h3 at the same
# M, each pummel-h2caddy row's to pummel-h3 (HTTP/2 over HTTP/3, per client
# CPU-second). A table adds the UDP datagrams per request (the kernel's
# count, both directions: client and server share the machine; and those
# the client sent, by its own count), and
# `pummel -n 200000 --http3` is first checked against Caddy's own count.
#
# Tools: pummel (its event loop), pummel-goroutine, wrk, ab, hey, h2load,
# bombardier, vegeta (see bench_command in scripts/lib.sh).
# -T THREADS runs pummel, wrk and h2load with that many threads (default 1):
# -T 16 -c 1024 is the framework authors' -t16 -c1024, all on CPU 0 here.
# -p DEPTH adds a pipelined comparison at each connection count: pummel
# --pipeline DEPTH (both transports) against wrk with
# scripts/lua/pipeline.lua at the same depth, and checks that `pummel -n`
# at that depth sends exactly the requests nginx counts. Pipelined runs
# get a 30 s timeout (see bench_command in scripts/lib.sh).
# -B REV also runs, beside each pummel row, the same command with pummel
# built from the git revision REV (rows named base-…), and takes that
# row's paired ratio to it instead of to wrk or h2load: a change measured
# against the code before it, side by side, where drift cancels.
# -b CPU runs a busy loop pinned to CPU (1: the server's core, the other
# core busy; 0: the clients' core, shared) for the whole script, its CPU
# time not counted as the "other CPU" below; the footer says so.
# -g CHART.svg (or .png) also draws the table's requests per client
# CPU-second as a bar chart, each bar with the range of its repetitions
# (scripts/peerchart, pummel's chart package).
# nginx runs pinned to CPU 1 and every client to CPU 0 (taskset). Tools are
# interleaved within each repetition, so drift in the machine hits all of
# them, and their order rotates from one repetition to the next, so no tool
# always follows the same one.
# For each run it records:
#   requests   the server's own count (nginx stub_status delta), not the tool's
#   req/s      requests / wall time of the client process
#   req/CPU-s  requests / (user + system CPU seconds of the client process)
#   RSS        the client's peak resident set size (/usr/bin/time %M)
#   sleeps     the client's voluntary context switches (/usr/bin/time %w) per
#              1,000 requests: how often it ran out of work and waited
#   probes     cpu_probe (scripts/lib.sh) on CPU 0 and CPU 1 just before and
#              just after the run: whether a CPU was in a slow stretch
#   other CPU  CPU time used by anything but client and server during the run,
#              in % of one core; runs above 10% are marked noisy
# and writes to OUT.md a headline table, one row per tool (requests per
# client CPU-second with its range and paired ratio to wrk at each
# connection count, then peak RSS), and a table of every median, with three ratios to
# wrk: of the medians; paired (the median of each repetition's ratio, with
# the lowest and highest), which drift between repetitions does not move;
# and paired over the repetitions where both runs found each CPU in the same
# state at both probes (slow: over probe_slow times the fastest probe of
# that CPU in the script run, see cpu_probe in scripts/lib.sh), with how
# many such pairs there were. Then every run's
# own figures (default: stdout). Installs nginx, wrk, apache2-utils, hey,
# h2load and time from Debian when missing (with -Q: Caddy and time), their
# services not started. Sends traffic to
# 127.0.0.1 only; every run is bounded by -d.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

reps=5 conns="64 10000" dur=10 tools="pummel pummel-goroutine wrk ab hey" depth="" out=/dev/stdout chart=""
h2streams="" bench_tls=0 h2proto="" h2how="" baserev="" h3streams="" hogcpu=""
while getopts "r:c:d:t:T:p:H:SQ:o:g:B:b:" opt; do
  case $opt in
    r) reps=$OPTARG ;; c) conns=$OPTARG ;; d) dur=$OPTARG ;; t) tools=$OPTARG ;; T) threads=$OPTARG ;; p) depth=$OPTARG ;; o) out=$OPTARG ;; g) chart=$OPTARG ;;
    H) h2streams=$OPTARG ;; S) bench_tls=1 ;; B) baserev=$OPTARG ;; Q) h3streams=$OPTARG ;; b) hogcpu=$OPTARG ;;
    *) bench_usage; exit 2 ;;
  esac
done

case $hogcpu in "" | 0 | 1) ;; *) echo "$0: -b takes 0 or 1 (the CPU to keep busy)" >&2; exit 2 ;; esac
[ "$bench_tls" = 0 ] || [ -n "$h2streams" ] || { echo "$0: -S needs -H (it makes the HTTP/2 rows speak TLS)" >&2; exit 2; }
[ -z "$h3streams" ] || [ -z "$h2streams$depth" ] || { echo "$0: -Q measures HTTP/3 alone: drop -H and -p" >&2; exit 2; }
if [ -n "$h3streams" ]; then # Caddy (bench_caddy) and the Go clients only
  bench_need /usr/bin/time:time taskset:util-linux curl:curl
else
  bench_need nginx:nginx wrk:wrk ab:apache2-utils hey:hey h2load:nghttp2-client /usr/bin/time:time taskset:util-linux curl:curl
fi

if [ -n "$depth" ]; then
  for tool in $tools; do
    case $tool in pummel | pummel-goroutine | wrk) tools="$tools $tool-pipeline" ;; esac
  done
fi
base=wrk # the peer each row's ratio is taken to: h2load at the same -m for HTTP/2
if [ -n "$h2streams" ]; then
  bench_h2c=1 tools="" depth="" base=h2load h2proto=h2c h2how="nginx listen … http2, prior knowledge"
  [ "$bench_tls" = 1 ] && h2proto="h2 over TLS" \
    h2how="nginx listen … ssl http2, ALPN h2; pummel on its goroutine transport, verifying the certificate with --cacert"
  for m in $h2streams; do
    if [ "$bench_tls" = 1 ]; then
      tools="$tools pummel-h2tls-$m h2load-h2tls-$m"
    else
      tools="$tools pummel-h2-$m pummel-goroutine-h2-$m h2load-h2-$m"
    fi
  done
fi
if [ -n "$h3streams" ]; then
  tools="" base="naive-h3 at the same streams (pummel-h3 rows), pummel-h3 (pummel-h2caddy rows)"
  for m in $h3streams; do tools="$tools pummel-h3-$m naive-h3-$m pummel-h2caddy-$m"; done
fi
if [ -n "$baserev" ]; then
  for tool in $tools; do
    case $tool in pummel*) tools="$tools base-$tool" ;; esac
  done
fi
bench_setup
if [ -n "$baserev" ]; then # pummel as it was at REV, built the same way
  base_pummel=$work/base-pummel
  mkdir "$work/base-src"
  git archive "$baserev" | tar -x -C "$work/base-src"
  (cd "$work/base-src" && scripts/build.sh "$base_pummel" >/dev/null)
  base="pummel at $baserev (pummel rows), $base"
fi
case " $tools " in *" bombardier "* | *" vegeta "*) bench_go_peers ;; esac
if [ -n "$h3streams" ]; then
  mkdir -p "$work/bin" && go build -o "$work/bin/h3naive" ./scripts/h3naive
  bench_caddy 18443
else
  bench_nginx 18089
fi

# server_name names the server the clients load.
server_name() { if [ -n "$h3streams" ]; then echo Caddy; else echo nginx; fi; }

# exact_count FLAGS… runs pummel -q -c 64 -n 200000 FLAGS against $url
# (trusting nginx's certificate over TLS) and sets $exact to the responses
# it counted beside the requests nginx served.
exact_count() {
  local before sent counted
  before=$(served)
  taskset -c 0 "$pummel" -q -c 64 -n 200000 "$@" $(bench_trust) --format json "$url" >"$work/exact.json"
  sent=$(( $(served) - before - ${bench_self_requests:-1} ))
  counted=$(grep -m1 '"requests"' "$work/exact.json" | tr -dc 0-9)
  exact="pummel -n 200000 $* -c 64${h2proto:+ ($h2proto)}: pummel counted $counted responses, $(server_name) served $sent requests"
  echo "$exact" >&2
}
if [ -n "$h2streams" ]; then # every stream counted, exactly
  exact_count --http2 --streams "$(tr ' ' '\n' <<<"$h2streams" | sort -n | tail -1)" # the most streams asked for
fi
if [ -n "$depth" ]; then # every pipelined request counted, exactly
  exact_count --pipeline "$depth"
fi
if [ -n "$h3streams" ]; then # every HTTP/3 stream counted, exactly
  exact_count --http3 --streams "$(tr ' ' '\n' <<<"$h3streams" | sort -n | tail -1)"
fi

# datagram_table prints, per tool and connection count, the median UDP
# datagrams per request over the repetitions: both directions (the
# kernel's count), and those the client sent (its own QUIC count, see
# client_datagrams; the rest are the server's).
datagram_table() {
  echo "| tool | connections | UDP datagrams per request, client and server (median, lowest–highest) | sent by the client |"
  echo "|---|---:|---:|---:|"
  awk -F'\t' "$awk_median"'
    function range(k) { return sprintf("%.2f (%.2f–%.2f)", median(v[k]), lo[k], hi[k]) }
    function add(k, x) { v[k] = v[k] " " x; if (!(k in lo) || x < lo[k]) lo[k] = x; if (!(k in hi) || x > hi[k]) hi[k] = x }
    $4 > 0 { k = $1 " | " $2; if (!(k in seen)) order[++n] = k; seen[k] = 1; add(k, $3 / $4)
      if ($5 != "") add("client " k, $5) }
    END { for (i = 1; i <= n; i++) { k = order[i]; c = ("client " k) in v ? range("client " k) : "n/a"
      printf "| %s | %s | %s |\n", k, range(k), c } }' "$work/datagrams.tsv"
}

# client_datagrams prints the QUIC packets the last run's client sent per
# response, from its own output in $work/log (pummel's "QUIC packets per
# response" line, h3naive's "responses N … packets sent S"); nothing for a
# client that counts none.
client_datagrams() {
  awk '/^QUIC packets per response:/ { print $5; exit }
    $1 == "responses" && $5 == "packets" && $2 > 0 { printf "%.3f\n", $7 / $2; exit }' "$work/log"
}

runs=$work/runs.tsv
hz=$(getconf CLK_TCK)
hog=""
[ -z "$hogcpu" ] || bench_hog "$hogcpu"
# one_run TOOL CONNS REP measures one run and appends its rows to $runs and
# $work/other.tsv.
one_run() {
  local other h0=0 h1=0
  [ -z "$hog" ] || h0=$(proc_jiffies "$hog")
  bench_run bench_command "$1" "$2"
  [ -z "$hog" ] || h1=$(proc_jiffies "$hog")
  other=$(awk -v b="$((busy - (h1 - h0)))" -v n="$worker" -v u="$user" -v s="$sys" -v w="$wall" -v hz="$hz" \
    'BEGIN { o = (b - n) / hz - u - s; if (o < 0) o = 0; printf "%.1f", 100 * o / w }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$requests" "$wall" "$user" "$sys" "$rss" "$sleeps" \
    "$probes" >>"$runs"
  printf '%s\t%s\n' "$other" "$cmd" >>"$work/other.tsv"
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$datagrams" "$requests" "$(client_datagrams)" >>"$work/datagrams.tsv"
  echo "rep $3 c=$2 $1: $requests requests, wall $wall s, cpu $user+$sys s, rss ${rss} KiB, sleeps $sleeps, probes $probes ms, other ${other}%" >&2
}
bench_interleave one_run

# headline pivots the figures into one row per tool: requests per client
# CPU-second (lowest–highest) and the paired ratio to wrk at each connection
# count, plain and pipelined, then the client's peak RSS.
headline() {
  awk -F'\t' -v conns="$conns" -v depth="${depth:-0}" '
    function k(x) { return x >= 1e6 ? sprintf("%.2fM", x / 1e6) : x >= 1e4 ? sprintf("%.0fk", x / 1000) : sprintf("%.1fk", x / 1000) }
    function count(c) { return c >= 1000 ? sprintf("%d,%03d", c / 1000, c % 1000) : c }
    { tool = $1; pipe = sub(/-pipeline$/, "", tool)
      if (!(tool in seen)) { seen[tool] = 1; order[++n] = tool }
      if ($3 == "") { cell[tool, $2, pipe] = "failed"; next } # no run of it worked
      cell[tool, $2, pipe] = sprintf("%s (%s–%s)%s", k($3), k($4), k($5), $6 != "" ? sprintf(", %.2f×", $6) : "")
      if (!pipe) rss[tool, $2] = sprintf("%.0f", $7) }
    END {
      nc = split(conns, C, " ")
      head = "| tool"; rule = "|---"
      for (i = 1; i <= nc; i++) { head = head " | " count(C[i]) " connections"; rule = rule "|---:" }
      if (depth > 0) for (i = 1; i <= nc; i++) { head = head " | " count(C[i]) ", pipelined ×" depth; rule = rule "|---:" }
      head = head " | client RSS (MiB), " ; for (i = 1; i <= nc; i++) head = head (i > 1 ? " / " : "") count(C[i])
      print head " |"; print rule "|---:|"
      for (t = 1; t <= n; t++) {
        row = "| " order[t]; r = ""
        for (i = 1; i <= nc; i++) row = row " | " ((order[t], C[i], 0) in cell ? cell[order[t], C[i], 0] : "failed")
        if (depth > 0) for (i = 1; i <= nc; i++) row = row " | " ((order[t], C[i], 1) in cell ? cell[order[t], C[i], 1] : "–")
        for (i = 1; i <= nc; i++) r = r (i > 1 ? " / " : "") ((order[t], C[i]) in rss ? rss[order[t], C[i]] : "–")
        print row " | " r " |"
      }
    }' "$work/headline.tsv"
}

{
  echo "| tool | connections | requests/s | requests per client CPU-second (lowest–highest) | vs $base | vs $base, paired (range) | vs $base, paired, CPUs in the same state (pairs) | client max RSS | client sleeps per 1,000 requests | noisy runs |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  paste "$runs" "$work/other.tsv" | awk -F'\t' -v tools="$tools" -v conns="$conns" -v reps="$reps" -v slow="$probe_slow" \
    -v depth="${depth:-0}" -v rows="$work/rows.tsv" -v headline="$work/headline.tsv" "$awk_median"'
    { k = $1 SUBSEP $2
      if ($4 <= 0 || $6 + $7 <= 0) { failed[k]++; next } # the tool did not run: no figures
      rps[k] = rps[k] " " $4 / $5
      eff[k] = eff[k] " " $4 / ($6 + $7)
      one[k, $3] = $4 / ($6 + $7)
      rss[k] = rss[k] " " $8 / 1024
      sleeps[k] = sleeps[k] " " 1000 * $9 / $4
      # $10 is "a/b → c/d": CPU 0 and CPU 1 before the run, then after it
      probes = $10; gsub(/[^0-9]+/, " ", probes); split(probes, p, " ")
      for (i = 1; i <= 4; i++) {
        cpu = (i - 1) % 2; probe[k, $3, i] = p[i] + 0
        if (!(cpu in fast) || p[i] + 0 < fast[cpu]) fast[cpu] = p[i] + 0
      }
      if ($11 > 10) noisy[k]++ }
    # state: for each CPU, slow (s) or not (f) at both probes of a run; ""
    # if a CPU changed state between the two probes
    function state(k, r,   i, st, s) {
      for (i = 1; i <= 4; i++) st[i] = probe[k, r, i] > slow * fast[(i - 1) % 2] ? "s" : "f"
      s = st[1] st[3] st[2] st[4]
      return st[1] == st[3] && st[2] == st[4] ? s : ""
    }
    END {
      nt = split(tools, T, " "); nc = split(conns, C, " ")
      for (ci = 1; ci <= nc; ci++) {
        for (ti = 1; ti <= nt; ti++) {
          k = T[ti] SUBSEP C[ci]
          if (eff[k] == "") {
            printf "| %s | %s | failed in %d runs | | | | | | | |\n", T[ti], C[ci], failed[k]
            printf "%s\t%s\t\t\t\t\t\n", T[ti], C[ci] >headline
            continue
          }
          b = (T[ti] ~ /-pipeline$/ ? "wrk-pipeline" : "wrk") SUBSEP C[ci]
          if (match(T[ti], /-h2(tls)?-[0-9]+$/)) b = "h2load" substr(T[ti], RSTART) SUBSEP C[ci] # HTTP/2 rows: to h2load at the same -m
          if (match(T[ti], /^pummel-h3-[0-9]+$/)) b = "naive" substr(T[ti], 7) SUBSEP C[ci] # HTTP/3: to the naive client at the same streams
          if (match(T[ti], /^pummel-h2caddy-[0-9]+$/)) b = "pummel-h3-" substr(T[ti], 16) SUBSEP C[ci] # HTTP/2 to Caddy: to pummel over HTTP/3
          if ((("base-" T[ti]) SUBSEP C[ci]) in eff) b = "base-" T[ti] SUBSEP C[ci] # -B: to the same row at the base revision
          base = median(eff[b])
          e = median(eff[k])
          paired = ""; lo = ""; hi = ""; npaired = 0; clean = ""; nclean = 0
          for (r = 1; r <= reps; r++) {
            if (!((k, r) in one) || !((b, r) in one) || one[b, r] <= 0) continue
            x = one[k, r] / one[b, r]
            paired = paired " " x; npaired++
            if (lo == "" || x < lo) lo = x
            if (hi == "" || x > hi) hi = x
            if (state(k, r) != "" && state(k, r) == state(b, r)) { clean = clean " " x; nclean++ }
          }
          n = split(eff[k], all, " "); lowest = all[1]; top = all[1]
          for (i = 2; i <= n; i++) { if (all[i] + 0 < lowest + 0) lowest = all[i]; if (all[i] + 0 > top + 0) top = all[i] }
          printf "%s\t%s\t%s\t%.0f\t%.0f\t%.0f\n", T[ti], C[ci], (T[ti] ~ /-pipeline$/ ? depth : 0), e, lowest, top >rows
          printf "%s\t%s\t%.0f\t%.0f\t%.0f\t%s\t%.1f\n", T[ti], C[ci], e, lowest, top, (paired != "" ? sprintf("%.2f", median(paired)) : ""), median(rss[k]) >headline
          printf "| %s | %s | %.0f | %.0f (%.0f–%.0f) | %s | %s | %s | %.1f MiB | %.0f | %d |\n", T[ti], C[ci], median(rps[k]), e, lowest, top,
            (base > 0 ? sprintf("%.2f×", e / base) : "n/a"),
            (paired != "" ? sprintf("%.2f× (%.2f–%.2f)", median(paired), lo, hi) : "n/a"),
            (nclean > 0 ? sprintf("%.2f× (%d of %d)", median(clean), nclean, npaired) : "none"),
            median(rss[k]), median(sleeps[k]), noisy[k]
        }
      }
    }'
} >"$work/table.md"

{
  [ -n "$h2streams" ] && printf 'HTTP/2, %s (%s).\n\n' "$h2proto" "$h2how"
  [ -n "$h3streams" ] && printf 'HTTP/3 against Caddy %s (HTTP/1.1, HTTP/2 and HTTP/3 on one port, GOMAXPROCS=1), with pummel --http2 over TLS to the same Caddy beside it.\n\n' "$(dpkg-query -W -f='${Version}' caddy 2>/dev/null)"
  echo "Requests per client CPU-second: median (lowest–highest) and paired ratio to $base$([ -n "$depth" ] && echo ", pipelined rows to wrk with scripts/lua/pipeline.lua at the same depth")."
  echo
  headline
  echo
  echo "All figures:"
  echo
  cat "$work/table.md"
  echo
  if [ -n "$h3streams" ]; then
    datagram_table
    echo
    echo "Medians of $reps interleaved runs of ${dur}s each; Caddy pinned to CPU 1 (GOMAXPROCS=1), clients pinned to CPU 0."
  else
    echo "Medians of $reps interleaved runs of ${dur}s each; nginx 1 worker pinned to CPU 1, clients pinned to CPU 0."
  fi
  bench_hog_note
  bench_footer
  if [ -n "$h3streams" ]; then
    echo "Server: Caddy $(dpkg-query -W -f='${Version}' caddy 2>/dev/null); naive-h3: quic-go $(go list -m -f '{{.Version}}' github.com/quic-go/quic-go)."
  else
    echo "Peers: $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2), ab $(ab -V | sed -n 's/.*Version \([0-9.]*\).*/\1/p') (apache2-utils $(dpkg-query -W -f='${Version}' apache2-utils 2>/dev/null)), hey (Debian $(dpkg-query -W -f='${Version}' hey 2>/dev/null)), h2load $(dpkg-query -W -f='${Version}' nghttp2-client 2>/dev/null), bombardier $bombardier_version, vegeta $vegeta_version (where run), $(nginx -v 2>&1 | cut -d' ' -f3)."
  fi
  echo
  [ -n "$depth" ] && echo "Pipelined rows compare with wrk-pipeline (wrk -s scripts/lua/pipeline.lua, depth $depth). Exact count: $exact."
  [ -n "$h2streams" ] && echo "HTTP/2 ($h2proto): each row is compared with h2load at the same number of streams per connection. Exact count: $exact."
  [ -n "$h3streams" ] && echo "HTTP/3: pummel-h3 rows are compared with naive-h3 at the same streams per connection, pummel-h2caddy rows with pummel-h3. Exact count: $exact."
  echo
  echo "<details><summary>Every run, in the order run</summary>"
  echo
  echo "| repetition | tool | connections | requests | requests per client CPU-second | client CPU-s (user+sys) | client sleeps per 1,000 requests | CPU 0/CPU 1 probe, before → after (ms) |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %.0f | %s+%s | %.0f | %s |\n", $3, $1, $2, $4, ($6 + $7 > 0 ? $4 / ($6 + $7) : 0), $6, $7, ($4 > 0 ? 1000 * $9 / $4 : 0), $10 }' "$runs"
  echo
  echo "</details>"
  echo
  if [ -n "$h3streams" ]; then
    echo "Commands (CONNS filled in per run; URL: Caddy on one loopback port; ca.pem: its CA, tls internal):"
  else
    echo "Commands (CONNS filled in per run; URL: nginx on the next of 64 loopback addresses, so that no run pays for the TIME_WAIT sockets of the one before):"
  fi
  echo
  for tool in $tools; do echo "    $(bench_command "$tool" CONNS pummel)"; done | sed "s|$work/tls/||; s|${bench_ca:-$work/none}|ca.pem|g; s|$work/bin/||"
  if [ "$bench_tls" = 1 ]; then echo; echo "ca.pem: the CA that signed nginx's certificate (bench_tls_cert in scripts/lib.sh)."; fi
} >"$out"
if [ -n "$chart" ]; then
  go run ./scripts/peerchart -o "$chart" "$work/rows.tsv"
fi
