#!/usr/bin/env bash
# Usage: scripts/apt-install.sh PACKAGE…
#
# Installs Debian packages for the tests and benchmarks (as root, with
# apt-get), without their recommendations and without starting their
# services: on a systemd host, nginx, caddy and prometheus would otherwise
# start at once and hold ports 80, 443 and 9090 until stopped by hand. A
# policy-rc.d that forbids every start (exit 101) is in place for the
# install's length. A machine's own policy-rc.d is left as it is; one this
# script left behind (it was killed) is known by its marker line, and
# removed. The services stay enabled, as the packages ship them: a reboot
# starts them.
set -euo pipefail
[ $# -gt 0 ] || { sed -n 2p "$0" | sed 's/^# //' >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: installing $* needs root" >&2; exit 1; }
policy=/usr/sbin/policy-rc.d
marker='# written by scripts/apt-install.sh: no service starts while it installs'
ours=0
# A policy this script left behind is its own again; a machine's own (or
# a link) is never touched.
if [ -f "$policy" ] && [ ! -L "$policy" ] && grep -qxF "$marker" "$policy"; then
  ours=1
elif [ ! -e "$policy" ] && [ ! -L "$policy" ] &&
  (set -C && printf '#!/bin/sh\n%s\nexit 101\n' "$marker" >"$policy") 2>/dev/null; then
  ours=1 # noclobber: another run that got there first keeps its own
fi
[ "$ours" = 1 ] && chmod 755 "$policy"
apt_pid=""
cleanup() {
  if [ -n "$apt_pid" ]; then # a signal: apt-get ends before the policy goes
    kill "$apt_pid" 2>/dev/null || true
    wait "$apt_pid" 2>/dev/null || true
  fi
  if [ "$ours" = 1 ]; then rm -f "$policy"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM HUP INT
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null &
apt_pid=$!
wait "$apt_pid"
apt_pid=""
