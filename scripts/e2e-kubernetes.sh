#!/usr/bin/env bash
# The image and the sharded load for real, as the README tells users to run
# them: the Dockerfile built (amd64, and arm64 whose binary is checked), the
# image run as its user with a read-only root (pummel serve, a load against
# it, --exec inside the container), then a one-node Kubernetes on this
# machine running the Indexed Job of deploy/kubernetes with three parts
# against the built-in target, the parts' results collected from their logs
# and merged by `pummel report --parallel`: the merged count must equal the
# sum of the parts and the target's own count exactly, and the parts must
# have started together.
#
#   sudo scripts/e2e-kubernetes.sh          (.ci/run runs it; Linux, root)
#
# Everything comes from this machine's package sources: Debian's docker.io,
# containerd, runc, etcd-server, debootstrap and containernetworking-plugins
# (installed when missing), and Kubernetes built from k8s.io/kubernetes
# through the Go module proxy (scripts/e2e/cluster). Builds are kept in
# PUMMEL_E2E_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/pummel-e2e), so
# that the next run on the same machine skips them: the first takes about
# 15 minutes on 2 CPUs, the next 3 to 4.
#
# Every request stays on loopback: containers and pods use the host's
# network and load 127.0.0.1; the API server and etcd listen on 127.0.0.1,
# the kubelet on the node's address, on lo. One run at a time on a machine.
# Everything started is stopped on any exit, by the PIDs
# recorded, and what it mounted or created is removed. Each wait is
# bounded, and so is the whole run (PUMMEL_E2E_TIMEOUT seconds, default
# 2700): a step that fails says which, and prints what the cluster knew.
set -euo pipefail
# The whole run's bound: past it, timeout sends SIGTERM, and the run tears
# down and fails as if interrupted.
if [ -z "${PUMMEL_E2E_BOUNDED:-}" ]; then
  export PUMMEL_E2E_BOUNDED=1
  exec timeout --kill-after=300 "${PUMMEL_E2E_TIMEOUT:-2700}" "$0" "$@"
fi
cd "$(dirname "$0")/.."
repo=$PWD
# The script's own output, for the teardown: a signal can come while a
# step's output goes to a log file.
exec 8>&1 9>&2
cache=${PUMMEL_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pummel-e2e}

# Loopback ports: the built-in target (as in scripts/e2e/overlay), then
# the cluster's own.
target_port=18437
exec_port=18438
api_port=26443
etcd_port=22379
etcd_peer_port=22380
kubelet_port=20250
kubelet_healthz_port=20248

# Addresses the cluster needs but sends no load to, in 198.18.0.0/15
# (reserved for benchmark tests): the pods' bridge, used only by a pod off
# the host's network (the test runs none), the Services' range, and the
# node's address, added to lo: a kubelet refuses 127.0.0.1 as its node's
# address, and the API server reaches the kubelet there (for kubectl logs).
pod_subnet=198.18.0.0/24
service_range=198.18.1.0/24
bridge=pe2e0
node_ip=198.18.2.1
node_ip_added=""

shards=3
requests=30000 # the Job's -n in scripts/e2e/overlay
start_lead=30  # seconds from applying the Job to the parts' start

began=$(date +%s)
current="preparing"
state=""
locked=""
pids=()  # daemons started, in order
names=() # their names, for messages
created_paths=() # host paths that did not exist before, removed at the end
declare -A sysctl_before=()
fg="" # the long command the script waits for (bounded), if any

say() { printf '== e2e %s [%ds] %s\n' "$current" $(($(date +%s) - began)) "$*"; }
step() {
  current=$1
  say "start"
}
fail() {
  printf 'e2e FAILED in step "%s": %s\n' "$current" "$*" >&2
  exit 1
}

# ---------------------------------------------------------------- teardown

# pid_of prints the PID of the daemon called $1, if it was started.
pid_of() {
  local i
  for i in "${!names[@]}"; do
    if [ "${names[$i]}" = "$1" ]; then
      echo "${pids[$i]}"
      return
    fi
  done
}

# stop ends the daemon called $1: SIGTERM, then SIGKILL after 20 s.
stop() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "e2e teardown: $1 ($pid) ignored SIGTERM for 20 s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

alive() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# diagnose prints what the cluster and the daemons knew when a step failed.
diagnose() {
  echo "---- e2e diagnostics (step \"$current\")"
  local n
  for n in "${names[@]}"; do
    [ -f "$state/log/$n.log" ] || continue
    echo "---- last lines of $n's log ($(alive "$n" && echo running || echo exited))"
    tail -n 25 "$state/log/$n.log"
  done
  if alive kube-apiserver; then
    echo "---- cluster"
    timeout 20 kubectl get nodes,deployments,jobs,pods -o wide 2>&1 || true
    timeout 20 kubectl describe job pummel 2>&1 | tail -n 30 || true
    timeout 20 kubectl get events --sort-by=.lastTimestamp 2>&1 | tail -n 30 || true
  fi
}

# tasks_of prints the PIDs of the processes containerd ran: the containers'
# and their shims', from the files containerd keeps in its state.
tasks_of() {
  find "$state/containerd/state" \( -name init.pid -o -name shim.pid \) -print0 2>/dev/null |
    xargs -0 -r cat 2>/dev/null || true
}

# cgroup_pids prints the PIDs of every process in the test's cgroups
# (pods and containers), which the kubelet and dockerd put there.
cgroup_pids() {
  find /sys/fs/cgroup/pids/pummel-e2e -name cgroup.procs -print0 2>/dev/null |
    xargs -0 -r cat 2>/dev/null || true
}

teardown() {
  local rc=$?
  trap - EXIT INT TERM
  exec 1>&8 2>&9
  set +e
  if [ -z "$state" ]; then
    [ -z "$locked" ] || rm -f /run/pummel-e2e.lock
    exit "$rc"
  fi
  [ "$rc" -eq 0 ] || diagnose
  local failed_step=$current
  current="teardown"
  say "stopping what the test started"
  local pid n
  if [ -n "$fg" ]; then
    kill -TERM "$fg" 2>/dev/null
    wait "$fg" 2>/dev/null
  fi
  # The kubelet first, so that it starts nothing more; then every container
  # and shim, by the PIDs containerd and the cgroups hold; then the rest.
  stop kubelet
  if alive dockerd; then
    docker ps -aq | xargs -r docker rm -f >/dev/null 2>&1
  fi
  for pid in $(cgroup_pids) $(tasks_of); do
    kill -KILL "$pid" 2>/dev/null
  done
  for n in kube-scheduler kube-controller-manager kube-apiserver etcd dockerd containerd debootstrap; do
    stop "$n"
  done
  for pid in $(cgroup_pids) $(tasks_of); do
    kill -KILL "$pid" 2>/dev/null
  done
  sleep 0.5
  # Mounts under the state: containers' root file systems, pods' volumes,
  # network namespaces, a debootstrap cut short. Deepest first.
  local m
  awk -v s="$state" 'index($5, s) == 1 {print $5}' /proc/self/mountinfo | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
  # The test's cgroups, deepest first, in every hierarchy.
  find /sys/fs/cgroup/*/pummel-e2e -depth -type d -exec rmdir {} \; 2>/dev/null
  if ip link show "$bridge" >/dev/null 2>&1; then
    ip link delete "$bridge"
  fi
  if [ -n "$node_ip_added" ]; then
    ip addr delete "$node_ip/32" dev lo
  fi
  restore_iptables
  local key
  for key in "${!sysctl_before[@]}"; do
    if [ "$(sysctl -n "$key" 2>/dev/null)" != "${sysctl_before[$key]}" ]; then
      sysctl -q -w "$key=${sysctl_before[$key]}"
    fi
  done
  for m in "${created_paths[@]}"; do
    rm -rf "$m"
  done
  # /var/log/containers holds the kubelet's links to the pods' logs.
  find /var/log/containers -maxdepth 1 -lname "$state/*" -delete 2>/dev/null
  rm -rf "$state" /run/pummel-e2e.lock
  if grep -q "$state" /proc/self/mountinfo; then
    echo "e2e teardown: mounts left under $state" >&2
    [ "$rc" -ne 0 ] || rc=1
  fi
  if [ "$rc" -eq 0 ]; then
    say "passed"
  else
    echo "e2e FAILED in step \"$failed_step\" (exit $rc), after $(($(date +%s) - began)) s" >&2
  fi
  exit "$rc"
}

# iptables chains the kubelet makes (KUBE-IPTABLES-HINT, KUBE-KUBELET-CANARY):
# those that were not there before are removed at the end.
declare -A chains_before=()
iptables_chains() { # $1: iptables or ip6tables, $2: table
  "$1" -w 5 -t "$2" -S 2>/dev/null | awk '$1 == "-N" {print $2}'
}
record_iptables() {
  local cmd table
  for cmd in iptables ip6tables; do
    command -v "$cmd" >/dev/null || continue
    for table in filter nat mangle; do
      chains_before[$cmd/$table]=" $(iptables_chains "$cmd" "$table" | tr '\n' ' ') "
    done
  done
}
restore_iptables() {
  local key cmd table chain
  for key in "${!chains_before[@]}"; do
    cmd=${key%/*} table=${key#*/}
    for chain in $(iptables_chains "$cmd" "$table"); do
      case "${chains_before[$key]}" in *" $chain "*) continue ;; esac
      "$cmd" -w 5 -t "$table" -S 2>/dev/null | awk -v c="$chain" '$1 == "-A" && $0 ~ ("-j " c "( |$)")' |
        while read -r rule; do
          # shellcheck disable=SC2086 # a rule is words
          "$cmd" -w 5 -t "$table" ${rule/-A/-D}
        done
      "$cmd" -w 5 -t "$table" -F "$chain"
      "$cmd" -w 5 -t "$table" -X "$chain"
    done
  done
}

# remember_path records a host path the test may create, if it is not
# there yet, to remove it at the end.
remember_path() {
  [ -e "$1" ] || created_paths+=("$1")
}

# ------------------------------------------------------------ helpers

# start runs a daemon in the background, its output to $state/log/NAME.log,
# and records its PID.
start() {
  local name=$1
  shift
  "$@" </dev/null >"$state/log/$name.log" 2>&1 7>&- 8>&- 9>&- &
  pids+=("$!")
  names+=("$name")
}

# bounded runs a long command under timeout $1 and waits for it in a way
# that a signal interrupts, so that the run's own bound tears down at once.
bounded() {
  local seconds=$1 rc=0
  shift
  timeout "$seconds" "$@" <&0 7>&- 8>&- 9>&- &
  fg=$!
  wait "$fg" || rc=$?
  fg=""
  return "$rc"
}

# wait_for waits up to $2 seconds for the command after them to succeed,
# while the daemon called $3 (or - for none) runs.
wait_for() {
  local what=$1 seconds=$2 daemon=$3
  shift 3
  local deadline=$(($(date +%s) + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ "$daemon" != - ] && ! alive "$daemon"; then
      fail "$daemon exited while waiting for $what (its log: above)"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || fail "$what: not within $seconds s"
    sleep 0.5
  done
}

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# requests_answered prints how many requests the built-in target on port $1
# answered (its /requests), asked with bash alone.
requests_answered() (
  exec 3<>"/dev/tcp/127.0.0.1/$1"
  printf 'GET /requests HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  reply=$(timeout 10 cat <&3)
  case "$reply" in "HTTP/1.1 200 "* | "HTTP/1.0 200 "*) ;; *) exit 1 ;; esac
  printf '%s\n' "${reply##*$'\r\n\r\n'}"
)

# ------------------------------------------------------------ steps

preflight() {
  step "preflight"
  [ "$(id -u)" = 0 ] || fail "run as root: it starts dockerd, containerd and a kubelet"
  [ "$(uname -s)" = Linux ] || fail "Linux only"
  # The kubelet, dockerd and the teardown use cgroup v1's hierarchies
  # (pids, cpuset, …); on a cgroup v2 host they would leave processes behind.
  [ -d /sys/fs/cgroup/pids ] || fail "cgroup v1 only (no /sys/fs/cgroup/pids): boot with systemd.unified_cgroup_hierarchy=0, or run it in CI"
  # One run at a time on a machine: the cgroups, ports and node address
  # are fixed, and the teardown sweeps them.
  exec 7>/run/pummel-e2e.lock
  flock -n 7 || fail "another run holds /run/pummel-e2e.lock"
  locked=1
  local p
  for p in "$target_port" "$exec_port" "$api_port" "$etcd_port" "$etcd_peer_port" "$kubelet_port" "$kubelet_healthz_port"; do
    port_free "$p" || fail "port 127.0.0.1:$p is taken: is another run going on?"
  done
  local need=() pkg
  for pkg in docker.io containerd runc etcd-server debootstrap containernetworking-plugins iptables iproute2 openssl jq gcc libc6-dev git; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || need+=("$pkg")
  done
  if [ "${#need[@]}" -gt 0 ]; then
    say "installing ${need[*]}"
    bounded 1500 scripts/apt-install.sh "${need[@]}" # no service of theirs started: the test starts its own daemons
  fi
  mkdir -p "$cache"
  state=$(mktemp -d /tmp/pummel-e2e.XXXXXX)
  mkdir -p "$state/log" "$state/bin"
  # The clients of what the test starts, first on PATH: Debian's docker
  # (20.10, as its dockerd), and kubectl and pummel as built below.
  ln -s /usr/bin/docker "$state/bin/docker"
  export PATH="$state/bin:$PATH"
  export DOCKER_HOST="unix://$state/docker.sock" DOCKER_CONFIG="$state/docker-config" DOCKER_BUILDKIT=1
  export KUBECONFIG="$state/pki/admin.kubeconfig"
  for p in /etc/docker /run/docker /run/containerd /var/log/containers /var/log/pods /var/lib/kubelet /etc/kubernetes; do
    remember_path "$p"
  done
  local key
  for key in vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes; do
    sysctl_before[$key]=$(sysctl -n "$key")
  done
  record_iptables
}

# build_tools builds, or finds in the cache: Kubernetes' programs, the
# Dockerfile's frontend, the pause program, pummel itself, and Debian's
# minimal root file system for the Go image.
build_tools() {
  step "build"
  local gover
  gover=$(go env GOVERSION)
  local kdir="scripts/e2e/cluster" fdir="scripts/e2e/frontend"
  # The wrapper modules say all they need (their go.sum pins every module).
  bounded 600 go -C "$kdir" mod tidy -diff || fail "$kdir: go.mod or go.sum is not tidy"
  bounded 600 go -C "$fdir" mod tidy -diff || fail "$fdir: go.mod or go.sum is not tidy"
  local kver
  kver=$(cd "$kdir" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
  local kkey
  # Keyed by what the build reads: the modules (not go.mod's comments) and Go.
  kkey=$(cat <(cd "$kdir" && go mod edit -json) "$kdir/go.sum" <(echo "$gover") | sha256sum | cut -c1-12)
  kbin="$cache/kubernetes-$kver-$kkey"
  local rootfs="$cache/debian-bookworm-minbase"
  # Debian's root file system downloads while Go compiles.
  if [ ! -f "$rootfs/.complete" ]; then
    rm -rf "$rootfs"
    start debootstrap timeout 900 debootstrap --variant=minbase --include=ca-certificates bookworm "$state/rootfs" http://deb.debian.org/debian
  fi
  if [ ! -x "$kbin/kubelet" ]; then
    say "building Kubernetes $kver from the Go module proxy (7 to 11 minutes on 2 CPUs, once)"
    local v=k8s.io/component-base/version minor=${kver#v1.}
    minor=${minor%%.*}
    CGO_ENABLED=0 bounded 2400 go -C "$kdir" build -trimpath -o "$state/kbin/" \
      -ldflags "-s -w -X $v.gitVersion=$kver -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kubectl
    rm -rf "$cache"/kubernetes-* && mv "$state/kbin" "$kbin"
  fi
  ln -s "$kbin/kubectl" "$state/bin/kubectl"
  local fkey
  fkey=$(cat <(cd "$fdir" && go mod edit -json) "$fdir/go.sum" <(echo "$gover") | sha256sum | cut -c1-12)
  frontend="$cache/dockerfile-frontend-$fkey"
  if [ ! -x "$frontend/dockerfile-frontend" ]; then
    say "building BuildKit's Dockerfile frontend (about 2 minutes, once)"
    CGO_ENABLED=0 bounded 1200 go -C "$fdir" build -trimpath -ldflags "-s -w" -o "$state/frontend/" \
      github.com/moby/buildkit/frontend/dockerfile/cmd/dockerfile-frontend
    rm -rf "$cache"/dockerfile-frontend-* && mv "$state/frontend" "$frontend"
  fi
  # The pause program of every pod's sandbox, from Kubernetes' own source.
  pause="$cache/pause-$kver"
  if [ ! -x "$pause/pause" ]; then
    local src
    src=$(cd "$kdir" && go mod download -json k8s.io/kubernetes | jq -r .Dir)/build/pause/linux/pause.c
    mkdir -p "$state/pause"
    gcc -Os -static -DVERSION="$kver" -o "$state/pause/pause" "$src"
    rm -rf "$cache"/pause-* && mv "$state/pause" "$pause"
  fi
  VERSION=e2e scripts/build.sh "$state/bin/pummel" >/dev/null
  if [ -n "$(pid_of debootstrap)" ]; then
    say "waiting for debootstrap"
    wait "$(pid_of debootstrap)" || fail "debootstrap failed: $(tail -n 5 "$state/log/debootstrap.log")"
    mv "$state/rootfs" "$rootfs"
    touch "$rootfs/.complete"
  fi
  base_rootfs=$rootfs
}

start_docker() {
  step "docker"
  mkdir -p "$state/containerd" "$state/cni/net.d" "$state/docker"
  # One containerd for dockerd (namespace moby) and the kubelet (k8s.io).
  # restrict_oom_score_adj: root here lacks CAP_SYS_RESOURCE, and runc
  # fails to lower a container's OOM score ("can't get final child's PID
  # from pipe") unless containerd keeps it at least the kubelet's own.
  cat >"$state/containerd.toml" <<EOF
version = 2
root = "$state/containerd/root"
state = "$state/containerd/state"
[grpc]
  address = "$state/containerd.sock"
[ttrpc]
  address = "$state/containerd.sock.ttrpc"
[debug]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$state/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  restrict_oom_score_adj = true
  sandbox_image = "pummel-e2e.local/pause:1"
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$state/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
EOF
  start containerd containerd --config "$state/containerd.toml"
  wait_for "containerd's socket" 60 containerd ctr --address "$state/containerd.sock" version
  # No bridge, no iptables: containers use the host's network.
  start dockerd dockerd --containerd="$state/containerd.sock" --host="$DOCKER_HOST" \
    --data-root="$state/docker/data" --exec-root="$state/docker/exec" --pidfile="$state/docker/docker.pid" \
    --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
    --oom-score-adjust=0 --cgroup-parent=/pummel-e2e/docker
  wait_for "dockerd's socket" 60 dockerd docker version
}

# make_base_images makes, from Debian's packages and this machine's Go, the
# images the Dockerfile names. This is CI's stand-in for a registry, which
# CI cannot reach: the Dockerfile stays what a user builds on a machine that
# pulls golang:1.26-bookworm and docker/dockerfile:1.
make_base_images() {
  step "base images"
  local syntax from
  syntax=$(sed -n '1s/^# *syntax=//p' Dockerfile)
  [ "$syntax" = docker/dockerfile:1 ] || fail "the Dockerfile's syntax line names $syntax: no stand-in for it"
  mkdir -p "$state/frontend-image/bin"
  cp "$frontend/dockerfile-frontend" "$state/frontend-image/bin/"
  # The labels of the real image: BuildKit runs the frontend without network.
  tar -c -C "$state/frontend-image" bin | docker import \
    --change 'LABEL moby.buildkit.frontend.network.none="true"' \
    --change 'LABEL moby.buildkit.frontend.caps="moby.buildkit.frontend.inputs,moby.buildkit.frontend.subrequests,moby.buildkit.frontend.contexts"' \
    --change 'ENTRYPOINT ["/bin/dockerfile-frontend"]' - "$syntax" >/dev/null
  local froms
  froms=$(awk 'toupper($1) == "FROM" {for (i = 2; i <= NF; i++) if ($i !~ /^--/) {print $i; break}}' Dockerfile)
  for from in $froms; do
    case "$from" in
      scratch) ;;
      golang:*-bookworm)
        local goroot want
        goroot=$(go env GOROOT)
        want=${from#golang:}
        want=go${want%-bookworm}
        case "$(go env GOVERSION)" in
          "$want" | "$want".*) ;;
          *) fail "the Dockerfile builds with $from, this machine has $(go env GOVERSION)" ;;
        esac
        # Debian's minimal bookworm, this machine's Go in /usr/local/go,
        # and this machine's CA bundle (the proxy's certificate chain
        # here), which the Dockerfile copies into the image.
        tar -c --exclude=./etc/ssl/certs/ca-certificates.crt --exclude=./.complete -C "$base_rootfs" . \
          -C / etc/ssl/certs/ca-certificates.crt \
          -C "$(dirname "$goroot")" --transform "s,^$(basename "$goroot"),usr/local/go," "$(basename "$goroot")" |
          docker import \
            --change 'ENV PATH=/usr/local/go/bin:/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'ENV GOPATH=/go GOTOOLCHAIN=local' --change 'WORKDIR /go' - "$from" >/dev/null
        ;;
      *) fail "the Dockerfile names $from: no stand-in for it" ;;
    esac
  done
}

build_images() {
  step "image build"
  # As the README builds it. RUN steps take the host's network (dockerd
  # has no bridge) to reach the Go module proxy.
  local version commit
  version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
  commit=$(git rev-parse HEAD 2>/dev/null || echo "")
  bounded 1500 docker build --network host --progress plain -t pummel:e2e \
    --build-arg VERSION="$version" --build-arg COMMIT="$commit" . >"$state/log/build-amd64.log" 2>&1 ||
    fail "docker build: $(tail -n 20 "$state/log/build-amd64.log")"
  local said
  said=$(docker run --rm pummel:e2e version 2>/dev/null)
  [ "${said%%$'\n'*}" = "pummel $version" ] || fail "the image's pummel says $said, want version $version"
  # The CA bundle pummel verifies https:// servers with (Go reads this file).
  local c certs
  c=$(docker create pummel:e2e 2>/dev/null)
  docker cp "$c:/etc/ssl/certs/ca-certificates.crt" "$state/ca-certificates.crt" >/dev/null
  docker rm "$c" >/dev/null
  certs=$(grep -c 'BEGIN CERTIFICATE' "$state/ca-certificates.crt" || true)
  [ "$certs" -gt 0 ] || fail "the image's /etc/ssl/certs/ca-certificates.crt holds no certificate"
  say "built pummel:e2e ($version), $(docker image inspect -f '{{.Size}}' pummel:e2e) bytes, $certs CA certificates"
  # arm64: built through the Dockerfile's TARGETARCH, not runnable here;
  # the binary inside must be arm64 and static.
  bounded 1500 docker build --network host --progress plain --platform linux/arm64 -t pummel:e2e-arm64 \
    --build-arg VERSION="$version" --build-arg COMMIT="$commit" . >"$state/log/build-arm64.log" 2>&1 ||
    fail "docker build --platform linux/arm64: $(tail -n 20 "$state/log/build-arm64.log")"
  [ "$(docker image inspect -f '{{.Os}}/{{.Architecture}}' pummel:e2e-arm64)" = linux/arm64 ] ||
    fail "pummel:e2e-arm64 is $(docker image inspect -f '{{.Os}}/{{.Architecture}}' pummel:e2e-arm64)"
  local info
  c=$(docker create pummel:e2e-arm64 2>/dev/null)
  docker cp "$c:/usr/local/bin/pummel" "$state/pummel-arm64" >/dev/null
  docker rm "$c" >/dev/null
  info=$(go version -m "$state/pummel-arm64")
  case "$info" in *$'\tGOARCH=arm64\n'*) ;; *) fail "the arm64 image's pummel is not arm64: $info" ;; esac
  case "$info" in *$'\tCGO_ENABLED=0\n'*) ;; *) fail "the arm64 image's pummel is not static: $info" ;; esac
  say "pummel:e2e-arm64 holds a static linux/arm64 pummel"
}

# run_image runs the image as the README says: as its user (65534) with a
# read-only root, /tmp a tmpfs and /work a directory of the host.
run_image() {
  step "docker run"
  local run=(docker run --rm --network host --read-only --tmpfs /tmp)
  docker run -d --name pummel-e2e-target --network host --read-only --tmpfs /tmp pummel:e2e \
    serve --addr "127.0.0.1:$target_port" >"$state/log/docker-target.txt" 2>&1 ||
    fail "docker run pummel serve: $(cat "$state/log/docker-target.txt")"
  wait_for "the target in its container" 30 - requests_answered "$target_port"
  local pid uid
  pid=$(docker inspect -f '{{.State.Pid}}' pummel-e2e-target)
  uid=$(awk '$1 == "Uid:" {print $2}' "/proc/$pid/status")
  [ "$uid" = 65534 ] || fail "pummel serve runs as uid $uid in its container, not 65534"
  [ "$(docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' pummel-e2e-target)" = true ] || fail "the root is not read-only"
  mkdir -m 1777 "$state/results"
  "${run[@]}" -v "$state/results:/work" pummel:e2e -c 8 -n 20000 -o result.json \
    "http://127.0.0.1:$target_port/" >"$state/log/docker-load.txt" 2>&1 ||
    fail "a load from the image: $(cat "$state/log/docker-load.txt")"
  local got answered
  got=$(jq .requests "$state/results/result.json")
  answered=$(requests_answered "$target_port")
  if [ "$got" != 20000 ] || [ "$answered" != 20000 ]; then
    fail "the load in a container counted $got requests and the target $answered, want 20000"
  fi
  say "a load from the image: 20000 requests, and the target in the image answered $answered"
  docker rm -f pummel-e2e-target >/dev/null
  # --exec in the container: the server's log goes to /tmp.
  "${run[@]}" pummel:e2e --exec "pummel serve --addr 127.0.0.1:$exec_port" --settle 0 -c 4 -n 2000 \
    "http://127.0.0.1:$exec_port/" >"$state/log/docker-exec.txt" 2>&1 ||
    fail "--exec in a container: $(cat "$state/log/docker-exec.txt")"
  grep -q '^Server pid .*startup' "$state/log/docker-exec.txt" || fail "--exec in a container: no server line"
  say "--exec in a container: $(grep '^Server pid' "$state/log/docker-exec.txt")"
}

make_pki() {
  local pki=$state/pki
  mkdir -p "$pki"
  (
    cd "$pki"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=pummel-e2e-ca 2>/dev/null
    # The API server's, for 127.0.0.1 and the first Service address.
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj /CN=kube-apiserver 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,IP:%s,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n' \
      "${service_range%.0/24}.1" >apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile apiserver.ext -out apiserver.crt 2>/dev/null
    # One client of the system:masters group for kubectl, the controllers,
    # the kubelet and the API server's calls to the kubelet: a test
    # cluster, gone at the end.
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj /O=system:masters/CN=pummel-e2e-admin 2>/dev/null
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out admin.crt 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  )
  kubectl config set-cluster e2e --server="https://127.0.0.1:$api_port" --certificate-authority="$pki/ca.crt" --embed-certs >/dev/null
  kubectl config set-credentials admin --client-certificate="$pki/admin.crt" --client-key="$pki/admin.key" --embed-certs >/dev/null
  kubectl config set-context e2e --cluster=e2e --user=admin >/dev/null
  kubectl config use-context e2e >/dev/null
}

start_cluster() {
  step "cluster"
  make_pki
  local pki=$state/pki
  start etcd etcd --name e2e --data-dir "$state/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
    --initial-cluster "e2e=http://127.0.0.1:$etcd_peer_port"
  # No endpoint reconciler: the 'kubernetes' Service's endpoint would be
  # 127.0.0.1, which Endpoints refuse; nothing here calls the API from a pod.
  start kube-apiserver "$kbin/kube-apiserver" --etcd-servers="http://127.0.0.1:$etcd_port" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" --cert-dir="$state/apiserver" \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" --client-ca-file="$pki/ca.crt" \
    --service-cluster-ip-range="$service_range" --endpoint-reconciler-type=none \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --kubelet-client-certificate="$pki/admin.crt" --kubelet-client-key="$pki/admin.key" --kubelet-preferred-address-types=InternalIP \
    --authorization-mode=Node,RBAC --profiling=false
  wait_for "the API server ready" 120 kube-apiserver kubectl get --raw /readyz
  start kube-controller-manager "$kbin/kube-controller-manager" --kubeconfig="$KUBECONFIG" --secure-port=0 \
    --leader-elect=false --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --use-service-account-credentials=false --profiling=false
  start kube-scheduler "$kbin/kube-scheduler" --kubeconfig="$KUBECONFIG" --secure-port=0 --leader-elect=false --profiling=false
  start_kubelet
  wait_for "the node Ready" 180 kubelet \
    kubectl wait --for=condition=Ready node/pummel-e2e --timeout=5s
  wait_for "the default ServiceAccount" 60 kube-controller-manager kubectl get serviceaccount default
  say "node pummel-e2e Ready ($(kubectl version -o json | jq -r .serverVersion.gitVersion))"
}

start_kubelet() {
  if ! ip -o addr show dev lo | grep -q " $node_ip/"; then
    ip addr add "$node_ip/32" dev lo
    node_ip_added=1
  fi
  # The kubelet's cgroups go under /pummel-e2e in every hierarchy; cpuset
  # needs its CPUs and memory nodes set before anything joins it.
  local h
  for h in /sys/fs/cgroup/*/; do
    [ -f "$h/cgroup.procs" ] || continue
    mkdir -p "$h/pummel-e2e"
  done
  if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
    cat /sys/fs/cgroup/cpuset/cpuset.cpus >/sys/fs/cgroup/cpuset/pummel-e2e/cpuset.cpus
    cat /sys/fs/cgroup/cpuset/cpuset.mems >/sys/fs/cgroup/cpuset/pummel-e2e/cpuset.mems
  fi
  # The node needs a CNI network to be Ready: a bridge in 198.18.0.0/24,
  # made only if a pod off the host's network starts (none does here).
  cat >"$state/cni/net.d/10-pummel-e2e.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "pummel-e2e",
  "plugins": [
    {"type": "bridge", "bridge": "$bridge", "isGateway": false, "ipMasq": false,
     "ipam": {"type": "host-local", "dataDir": "$state/cni/ipam", "ranges": [[{"subnet": "$pod_subnet"}]]}},
    {"type": "loopback"}
  ]
}
EOF
  # cgroup v1 here: Kubernetes 1.35 and later refuse it unless told
  # (failCgroupV1: false); 1.34 warns.
  cat >"$state/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $node_ip
port: $kubelet_port
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $kubelet_healthz_port
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: $state/pki/ca.crt
authorization:
  mode: Webhook
cgroupDriver: cgroupfs
cgroupRoot: /pummel-e2e
failCgroupV1: false
containerRuntimeEndpoint: unix://$state/containerd.sock
podLogsDir: $state/pod-logs
failSwapOn: false
resolvConf: /etc/resolv.conf
serializeImagePulls: false
evictionHard:
  memory.available: 100Mi
  nodefs.available: 1%
  imagefs.available: 1%
  nodefs.inodesFree: 1%
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
EOF
  start kubelet "$kbin/kubelet" --config="$state/kubelet.yaml" --kubeconfig="$KUBECONFIG" \
    --root-dir="$state/kubelet" --cert-dir="$state/kubelet/pki" --hostname-override=pummel-e2e --node-ip="$node_ip"
}

# load_images puts the sandbox's pause image and pummel's into the node's
# containerd, as a registry would.
load_images() {
  step "node images"
  mkdir -p "$state/pause-image"
  cp "$pause/pause" "$state/pause-image/pause"
  tar -c -C "$state/pause-image" pause | docker import --change 'ENTRYPOINT ["/pause"]' - pummel-e2e.local/pause:1 >/dev/null
  docker save pummel-e2e.local/pause:1 pummel:e2e | timeout 300 ctr --address "$state/containerd.sock" -n k8s.io images import - >/dev/null
}

# restricted checks that the Job users apply is admitted where the
# restricted Pod Security Standard is enforced (a server-side dry run).
restricted() {
  step "pod security"
  kubectl create namespace pummel-restricted >/dev/null
  kubectl label namespace pummel-restricted pod-security.kubernetes.io/enforce=restricted >/dev/null
  kubectl apply -k "$repo/deploy/kubernetes" -n pummel-restricted --dry-run=server >"$state/log/restricted.txt" 2>&1 ||
    fail "deploy/kubernetes is refused under the restricted Pod Security Standard: $(cat "$state/log/restricted.txt")"
  if grep -qi warning "$state/log/restricted.txt"; then
    fail "deploy/kubernetes draws warnings: $(cat "$state/log/restricted.txt")"
  fi
  say "deploy/kubernetes is admitted under the restricted Pod Security Standard"
}

# sharded_load is deploy/README.md's walk-through on the cluster, with the
# test's overlay (scripts/e2e/overlay) on a copy of deploy/.
sharded_load() {
  step "sharded load"
  mkdir -p "$state/scripts/e2e"
  cp -r "$repo/deploy" "$state/deploy"
  cp -r "$repo/scripts/e2e/overlay" "$state/scripts/e2e/overlay"
  cd "$state"
  kubectl apply -f scripts/e2e/overlay/target.yaml >/dev/null
  wait_for "the target's pod answering on 127.0.0.1:$target_port" 120 kubelet requests_answered "$target_port"
  local before
  before=$(requests_answered "$target_port")
  [ "$before" = 0 ] || fail "the target answered $before requests before the load"

  # 1. apply, starting every part $start_lead s from now
  echo "START_AT=$(date -u -d "+$start_lead seconds" +%Y-%m-%dT%H:%M:%SZ)" >deploy/kubernetes/start.env && kubectl apply -k scripts/e2e/overlay >/dev/null
  say "Job applied, the parts start at $(cut -d= -f2 deploy/kubernetes/start.env)"
  # 2. wait for every part to finish (for the test: Complete, or Failed at once)
  local deadline=$(($(date +%s) + start_lead + 240)) succeeded failed i SHARDS
  while :; do
    succeeded=$(kubectl get job pummel -o jsonpath='{.status.succeeded}')
    failed=$(kubectl get job pummel -o jsonpath='{.status.failed}')
    [ "${failed:-0}" = 0 ] || fail "$failed of the Job's parts failed"
    [ "${succeeded:-0}" != "$shards" ] || break
    [ "$(date +%s)" -lt "$deadline" ] || fail "the Job's parts did not all finish ($succeeded of $shards)"
    sleep 1
  done
  kubectl wait --for=condition=complete --timeout=60s job/pummel >/dev/null
  # 3. collect each part's result from its pod's log, and merge them
  SHARDS=$shards
  # shellcheck disable=SC2086 # as deploy/README.md has it
  for i in $(seq 0 $((SHARDS - 1))); do kubectl logs -l job-name=pummel,batch.kubernetes.io/job-completion-index=$i --tail=-1 > part$i.json; done
  for i in $(seq 0 $((SHARDS - 1))); do
    [ -s "part$i.json" ] || fail "part $i's log is empty"
  done
  pummel report --parallel part*.json
  pummel report --parallel --format json part*.json >merged.json
  cd "$repo"

  local merged sum answered skew count missing
  merged=$(jq .requests "$state/merged.json")
  sum=$(jq -s 'map(.requests) | add' "$state"/part*.json)
  answered=$(requests_answered "$target_port")
  count=$(jq .shards.count "$state/merged.json")
  missing=$(jq -c '.shards.missing // []' "$state/merged.json")
  skew=$(jq .shards.start_skew_s "$state/merged.json")
  say "merged $merged requests; the parts' sum $sum; the target answered $answered; start skew ${skew}s"
  if [ "$count" != "$shards" ] || [ "$missing" != "[]" ]; then
    fail "merged $count parts, missing $missing"
  fi
  [ "$merged" = "$requests" ] || fail "merged $merged requests, the Job asked for $requests"
  [ "$sum" = "$merged" ] || fail "the parts sum to $sum requests, the merge says $merged"
  [ "$answered" = "$merged" ] || fail "the target answered $answered requests, the merge says $merged"
  jq -e '.shards.start_skew_s < 1 and all(.shards.parts[]; (.start_offset_s | fabs) < 1)' "$state/merged.json" >/dev/null ||
    fail "the parts did not start within a second of their planned start: $(jq -c '.shards.parts | map(.start_offset_s)' "$state/merged.json")"
}

trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
preflight
build_tools
start_docker
make_base_images
build_images
run_image
start_cluster
load_images
restricted
sharded_load
