# Shared set-up for the benchmark scripts; source it from a script in scripts/.
# Everything runs on loopback; servers and clients are pinned to separate CPUs.

# bench_usage prints the comment block at the top of the running script:
# its usage. Source this file before reading the script's flags.
bench_usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; }

# bench_need installs missing commands from Debian, without starting their
# services (scripts/apt-install.sh): bench_need cmd:package …
bench_need() {
  local need=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
  done
  if [ ${#need[@]} -gt 0 ]; then
    scripts/apt-install.sh "${need[@]}"
  fi
  [ "$(nproc)" -ge 2 ] || { echo "$0: needs 2 CPUs (client and server on separate cores)" >&2; exit 1; }
}

# bench_setup makes $work (removed on exit) and builds $pummel into it.
bench_setup() {
  work=$(mktemp -d)
  pummel=$work/pummel
  # the version of the tree the binary is built from, not of the tree at the end
  built=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
  scripts/build.sh "$pummel" >/dev/null
  ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
  trap bench_cleanup EXIT
}

# bench_cleanup ends what the script started, by PID, and removes $work.
# It runs as the EXIT trap, where set -e still holds: a process already
# gone must not end it halfway, so no kill or wait may fail it.
bench_cleanup() {
  local pid
  for pid in "${hog:-}" "${nginx_master:-}" "${caddy_pid:-}"; do
    [ -n "$pid" ] || continue
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}

# bench_hog CPU keeps CPU busy for the rest of the script: a busy loop
# pinned to it, ended by bench_cleanup (by its PID, $hog), and by itself
# once the script is gone (killed before its trap could run). It fails the
# script when the loop does not start (a CPU taskset refuses).
# bench_hog_note says so, for a footer.
bench_hog() {
  hog_cpu=$1
  taskset -c "$hog_cpu" bash -c 'while kill -0 "$1" 2>/dev/null; do for ((i = 0; i < 100000; i++)); do :; done; done' bench_hog $$ &
  hog=$!
  sleep 0.1
  kill -0 "$hog" 2>/dev/null || { echo "$0: no busy loop on CPU $hog_cpu" >&2; exit 2; }
}
bench_hog_note() {
  case ${hog_cpu:-} in
    "") ;;
    0) echo "A busy loop shared CPU 0 with the client throughout (its CPU time is not the client's)." ;;
    *) echo "A busy loop shared CPU $hog_cpu with the server throughout." ;;
  esac
}

# bench_nginx PORT starts one nginx worker pinned to CPU 1 answering an
# empty 200 (stub_status at /nginx_status; /gzip: 16 KiB of text
# compressed per request; /limited: 2,000 requests a second, the rest
# queued by limit_req) on 127.0.0.1 and on
# $bench_addrs more loopback addresses, and sets $url and $nginx_worker.
bench_addrs=64
# With bench_h2c=1 it speaks h2c (HTTP/2 with prior knowledge) instead of
# HTTP/1.1, with a stream limit of 1,024 per connection. With bench_tls=1 it
# speaks TLS with the certificate of bench_tls_cert (h2 by ALPN with
# bench_h2c=1 too), and $url is https.
bench_nginx() {
  local port=$1 listen="" i proto="" tls=""
  mkdir -p "$work/logs"
  [ "${bench_h2c:-0}" = 1 ] && proto=" http2"
  bench_scheme=http
  if [ "${bench_tls:-0}" = 1 ]; then
    bench_tls_cert
    proto=" ssl$proto" bench_scheme=https
    tls="  ssl_certificate $work/tls/server.pem;"$'\n'"  ssl_certificate_key $work/tls/server.key;"$'\n'
  fi
  for i in $(seq 1 $((bench_addrs + 1))); do listen="$listen    listen 127.0.0.$i:$port$proto backlog=16384;"$'\n'; done
  bench_port=$port bench_runs=0
  cat >"$work/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 30000;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
daemon off;
events { worker_connections 25000; multi_accept on; }
http {
  access_log off;
  keepalive_requests 1000000000;
  keepalive_timeout 300s;
  http2_max_concurrent_streams 1024;
  map \$uri \$every_request { default all; } # one key for all: limit_req counts no empty one
  limit_req_zone \$every_request zone=capacity:1m rate=2000r/s;
$tls  server {
$listen    location / { return 200; }
    location = /nginx_status { stub_status; }
    location = /gzip { root $work/www; default_type text/plain; gzip on; gzip_comp_level 6; gzip_min_length 0; gzip_types text/plain; }
    location = /limited { root $work/www; default_type text/plain; limit_req zone=capacity burst=20000; limit_req_status 503; }
  }
}
CONF
  mkdir -p "$work/www" # /gzip: 16 KiB of text compressed for every request, work nginx does per response
  awk 'BEGIN { srand(1); for (i = 0; i < 400; i++) { s = ""; for (j = 0; j < 6; j++) s = s sprintf("%x ", int(rand() * 65536)); print "line " i ": " s } }' | head -c 16384 >"$work/www/gzip"
  echo ok >"$work/www/limited" # /limited: a file, as limit_req never sees a request that a return answers
  chmod a+x "$work" "$work/www" && chmod a+r "$work/www/gzip" "$work/www/limited" # nginx's worker runs as nobody
  taskset -c 1 nginx -p "$work" -c "$work/nginx.conf" &
  nginx_master=$!
  url=$bench_scheme://127.0.0.1:$port/
  for _ in $(seq 50); do curl -sf $(bench_curl_proto) "${url}nginx_status" >/dev/null 2>&1 && break; sleep 0.1; done
  nginx_worker=$(pgrep -P "$nginx_master" | head -1)
}

# bench_caddy PORT starts Caddy (Debian's caddy, 2.6), pinned to CPU 1
# with GOMAXPROCS=1, answering an empty 200 on 127.0.0.1:PORT over
# HTTP/1.1 and HTTP/2 (TCP) and HTTP/3 (UDP), so that the three protocols
# are compared against one server. Its certificate comes from its own CA
# (tls internal), in a data directory of the script's, and is never
# installed into the system's trust store (skip_install_trust); $bench_ca
# is that CA's root. Its admin endpoint (PORT+1) serves its metrics. It
# sets $url (https://localhost:PORT/), $caddy_pid and $nginx_worker (the
# process bench_run charges the server's CPU to), and bench_h3=1, which
# makes served read Caddy's count (its metrics are not among the requests
# it counts: bench_self_requests=0).
bench_caddy() {
  local port=$1
  bench_need caddy:caddy
  mkdir -p "$work/caddy"
  cat >"$work/caddy/Caddyfile" <<CONF
{
	admin 127.0.0.1:$((port + 1))
	skip_install_trust
	auto_https disable_redirects
	storage file_system {
		root $work/caddy/data
	}
	servers {
		protocols h1 h2 h3
		metrics
	}
}
https://localhost:$port {
	bind 127.0.0.1
	tls internal
	respond 200
}
CONF
  XDG_CONFIG_HOME=$work/caddy XDG_DATA_HOME=$work/caddy GOMAXPROCS=1 \
    taskset -c 1 caddy run --config "$work/caddy/Caddyfile" --adapter caddyfile >"$work/caddy/log" 2>&1 &
  caddy_pid=$! nginx_worker=$caddy_pid bench_h3=1 bench_self_requests=0 bench_ca=$work/caddy/data/pki/authorities/local/root.crt
  bench_admin=http://127.0.0.1:$((port + 1)) url=https://localhost:$port/ bench_scheme=https bench_port=$port bench_runs=0
  for _ in $(seq 100); do
    [ -s "$bench_ca" ] && curl -sf --cacert "$bench_ca" -o /dev/null "$url" && break
    sleep 0.1
  done
  curl -sf --cacert "$bench_ca" -o /dev/null "$url" || { echo "caddy did not start: $(tail -3 "$work/caddy/log")" >&2; exit 1; }
}

# bench_tls_cert writes into $work/tls a CA (ca.pem) and a certificate it
# signs for nginx (server.pem, server.key; ECDSA P-256) naming every address
# bench_nginx listens on, so that clients verify TLS against ca.pem rather
# than skip it. Installs openssl from Debian when missing.
bench_tls_cert() {
  local d=$work/tls san=IP:127.0.0.1 i
  bench_need openssl:openssl
  mkdir -p "$d"
  for i in $(seq 2 $((bench_addrs + 1))); do san="$san,IP:127.0.0.$i"; done
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 7 -subj "/CN=pummel bench CA" \
    -addext basicConstraints=critical,CA:TRUE -keyout "$d/ca.key" -out "$d/ca.pem" 2>/dev/null
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
    -keyout "$d/server.key" -out "$d/server.csr" 2>/dev/null
  printf 'subjectAltName=%s\n' "$san" >"$d/ext.cnf"
  openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial -days 7 \
    -extfile "$d/ext.cnf" -out "$d/server.pem" 2>/dev/null
}

# bench_trust prints the flag that makes pummel and curl trust bench_nginx's
# certificate (--cacert, both), nothing without bench_tls=1.
bench_trust() {
  if [ "${bench_h3:-0}" = 1 ]; then echo "--cacert $bench_ca"; elif [ "${bench_tls:-0}" = 1 ]; then echo "--cacert $work/tls/ca.pem"; fi
}

# bench_next_url points $url at the next loopback address, round the
# $bench_addrs of them: call it before each measured run. A client that
# closes thousands of connections leaves them in TIME_WAIT for 60 s, and the
# next client to connect to the same address can pay for them: the kernel
# may search past those ports for a free one (up to about 0.5 s of system
# CPU per 10,000 connections in runs by hand here, depending on where the
# search starts; bench-setup.sh -a keeps one address to compare). A fresh
# address makes every run start from the same state, whichever tool ran
# before it.
bench_next_url() {
  bench_runs=$((bench_runs + 1))
  [ "${bench_h3:-0}" = 1 ] && return # Caddy: one address, whose certificate names localhost; UDP leaves no TIME_WAIT
  url=$bench_scheme://127.0.0.$((2 + bench_runs % bench_addrs)):$bench_port/
}

# bench_command TOOL CONNS [PUMMEL] prints the command line of one client
# run of $dur seconds against $url: pummel (its default transport, the
# event loop), pummel-goroutine (its goroutine transport), wrk, ab, hey,
# h2load, bombardier, vegeta, or pummel-pipeline, pummel-goroutine-pipeline
# and wrk-pipeline at depth $depth (wrk runs scripts/lua/pipeline.lua), or
# over h2c with M streams per connection pummel-h2-M,
# pummel-goroutine-h2-M and h2load-h2-M (h2load -m M), or over TLS
# pummel-h2tls-M (on the goroutine transport, which --engine auto picks for
# https; it verifies the certificate, see bench_trust) and h2load-h2tls-M.
# $threads (default 1) is the threads of pummel, wrk and h2load.
# PUMMEL replaces $pummel in what is printed. Pipelined runs get a 30 s
# timeout: at 10,000 connections and depth 16, 160,000 requests wait in
# line, about 2 s at nginx's rate, which the default 2 s timeout would turn
# into timeouts (pummel then reopens the connection, wrk only counts them).
bench_command() {
  local c=$2 bin=${3:-$pummel} lua=$PWD/scripts/lua/pipeline.lua t=${threads:-1}
  case $1 in
    base-*) bench_command "${1#base-}" "$c" "$base_pummel" ;; # bench-peers.sh -B
    pummel) echo "$bin -q -t$t -c$c -d${dur}s $url" ;;
    pummel-goroutine) echo "$bin -q -t$t -c$c -d${dur}s --engine goroutine $url" ;;
    wrk) echo "wrk -t$t -c$c -d${dur}s $url" ;;
    ab) echo "ab -q -k -c $c -t $dur -n 100000000 $url" ;;
    hey) echo "hey -z ${dur}s -c $c $url" ;;
    h2load) echo "h2load --h1 -t$t -c$c -D$dur $url" ;;
    pummel-h2-*) echo "$bin -q -t$t -c$c -d${dur}s --http2 --streams ${1##*-} $url" ;;
    pummel-goroutine-h2-*) echo "$bin -q -t$t -c$c -d${dur}s --engine goroutine --http2 --streams ${1##*-} $url" ;;
    pummel-h2tls-*) echo "$bin -q -t$t -c$c -d${dur}s --http2 --streams ${1##*-} $(bench_trust) $url" ;;
    pummel-h3-*) echo "$bin -q -t$t -c$c -d${dur}s --http3 --streams ${1##*-} $(bench_trust) $url" ;;
    pummel-h2caddy-*) echo "$bin -q -t$t -c$c -d${dur}s --http2 --streams ${1##*-} $(bench_trust) $url" ;;
    naive-h3-*) echo "$work/bin/h3naive -c $c -m ${1##*-} -d ${dur}s -cacert $bench_ca $url" ;;
    h2load-h2-* | h2load-h2tls-*) echo "h2load -t$t -c$c -m${1##*-} -D$dur $url" ;;
    bombardier) echo "$work/bin/bombardier -p r -c $c -d ${dur}s $url" ;;
    vegeta) echo "$work/bin/vegeta-attack $c ${dur}s $url" ;;
    pummel-pipeline) echo "$bin -q -t$t -c$c -d${dur}s --timeout 30s --pipeline $depth $url" ;;
    pummel-goroutine-pipeline) echo "$bin -q -t$t -c$c -d${dur}s --timeout 30s --pipeline $depth --engine goroutine $url" ;;
    wrk-pipeline) echo "wrk -t$t -c$c -d${dur}s --timeout 30s -s $lua $url -- $depth" ;;
  esac
}

# bench_go_peers installs the Go peers that Debian does not package
# (bombardier, vegeta) into $work/bin, from the Go module proxy, at the
# versions named here.
bombardier_version=v1.2.6 vegeta_version=v12.13.0
bench_go_peers() {
  GOBIN=$work/bin go install "github.com/codesenberg/bombardier@$bombardier_version" >/dev/null 2>&1 || echo "bombardier: go install failed" >&2
  GOBIN=$work/bin go install "github.com/tsenart/vegeta/v12@$vegeta_version" >/dev/null 2>&1 || echo "vegeta: go install failed" >&2
  # vegeta reads its targets on stdin: one command line for bench_command
  # (CONNS DURATION URL), at its highest rate over CONNS workers.
  cat >"$work/bin/vegeta-attack" <<'SH'
#!/bin/sh
echo "GET $3" | "$(dirname "$0")/vegeta" attack -rate 0 -max-workers "$1" -workers "$1" -duration "$2" >/dev/null
SH
  chmod +x "$work/bin/vegeta-attack"
}

# served prints how many requests nginx (or Caddy, with bench_h3=1) has
# answered so far.
served() {
  if [ "${bench_h3:-0}" = 1 ]; then
    curl -s "$bench_admin/metrics" | awk '/^caddy_http_requests_total/ { n += $2 } END { printf "%d\n", n }'
    return
  fi
  curl -s $(bench_curl_proto) "${url}nginx_status" | awk 'NR==3 {print $3}'
}
# udp_datagrams prints how many UDP datagrams the machine has sent so far
# (the kernel's Udp OutDatagrams, which counts each segment of a GSO send).
udp_datagrams() { awk '/^Udp:/ { if (++n == 2) print $5 }' /proc/net/snmp; }
# bench_curl_proto is curl's flag for the protocol bench_nginx speaks (over
# TLS curl offers h2 by ALPN itself, and needs only to trust the certificate).
bench_curl_proto() {
  if [ "${bench_tls:-0}" = 1 ]; then bench_trust; elif [ "${bench_h2c:-0}" = 1 ]; then echo --http2-prior-knowledge; fi
}
# busy_jiffies prints the machine's busy CPU time; proc_jiffies PID a process's.
busy_jiffies() { awk '/^cpu / {print $2+$3+$4}' /proc/stat; } # user, nice, system: softirq work of loopback traffic is nobody's noise
proc_jiffies() { awk '{print $14+$15}' "/proc/$1/stat"; }

# cpu_probe CPU prints how many milliseconds of wall time a fixed loop takes
# pinned to CPU, starting awk included. This machine's virtual CPUs change
# speed from one stretch of seconds to the next (see
# scripts/bench-cpu-speed.sh), which moves every figure; the probe tells in
# which state a run began and ended. A probe over probe_slow times the
# fastest of its CPU in a script run counts as slow.
probe_slow=1.3
cpu_probe() {
  local t0=$EPOCHREALTIME
  taskset -c "$1" awk 'BEGIN { for (i = 0; i < 2000000; i++) s += i }'
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1000 }'
}

# bench_interleave FN calls FN TOOL CONNS REP for each repetition REP of
# 1..$reps, each CONNS of $conns and each TOOL of $tools: tools interleaved
# within a repetition, their order rotating from one repetition to the next.
bench_interleave() {
  local rep c tool order
  read -ra order <<<"$tools"
  for rep in $(seq "$reps"); do
    for c in $conns; do
      for tool in "${order[@]}"; do "$1" "$tool" "$c" "$rep"; done
    done
    order=("${order[@]:1}" "${order[0]}") # the next repetition starts with the next tool
  done
}

# bench_run PRINT TOOL CONNS measures one client run against bench_nginx:
# it points $url at the next loopback address (bench_next_url), sets cmd to
# the command line PRINT TOOL CONNS prints (bench_command, say) and runs it
# pinned to CPU 0 under /usr/bin/time, its output in $work/log. It sets rc
# (the client's exit status), requests (nginx's own count of the requests
# served meanwhile, less our own status request), wall, user, sys
# (seconds), rss (KiB) and sleeps (voluntary context switches) from time,
# probes (cpu_probe on CPU 0 and CPU 1 before and after: "p0/p1 → q0/q1"),
# busy (the machine's busy jiffies meanwhile) and worker (nginx's worker's).
bench_run() {
  local p0 p1 q0 q1 before after b0 b1 n0 n1 d0 d1
  bench_next_url
  cmd=$("$1" "$2" "$3")
  p0=$(cpu_probe 0) p1=$(cpu_probe 1)
  before=$(served) b0=$(busy_jiffies) n0=$(proc_jiffies "$nginx_worker") d0=$(udp_datagrams)
  rc=0
  /usr/bin/time -f "%e %U %S %M %w" -o "$work/time" taskset -c 0 $cmd >"$work/log" 2>&1 || rc=$?
  after=$(served) b1=$(busy_jiffies) n1=$(proc_jiffies "$nginx_worker") d1=$(udp_datagrams)
  q0=$(cpu_probe 0) q1=$(cpu_probe 1)
  read -r wall user sys rss sleeps < <(tail -1 "$work/time") # GNU time puts "Command exited…" first on failure
  requests=$((after - before - ${bench_self_requests:-1}))
  probes="$p0/$p1 → $q0/$q1" busy=$((b1 - b0)) worker=$((n1 - n0)) datagrams=$((d1 - d0))
}

# steal_jiffies prints the steal time the kernel reports for the whole
# machine (/proc/stat).
steal_jiffies() { awk '/^cpu / {print $9}' /proc/stat; }

# awk_median defines median(list) for awk: the median of a list of numbers
# separated by spaces. Put it before an awk program: awk "$awk_median"'…'.
# It also makes numbers joined into such lists keep every digit (awk's
# default, %.6g, turns 1147986.3 into 1.14799e+06).
awk_median='
BEGIN { CONVFMT = "%.17g" }
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
  return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}'

# bench_footer prints the machine, date and versions line.
bench_footer() {
  echo "Machine: $(nproc) CPUs, $(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ //'), $(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), $(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-Linux}"), kernel $(uname -r)."
  echo "Date: $(date -u +%Y-%m-%d), pummel ${built:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}, $(go version | cut -d' ' -f3)."
}
