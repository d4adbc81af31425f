#!/usr/bin/env bash
# Usage: scripts/apt-install.sh PACKAGE…
#
# Installs Debian packages for the tests and benchmarks (as root, with
# apt-get), without their recommendations and without starting their
# services: on a systemd host, nginx, caddy and prometheus would otherwise
# start at once and hold ports 80, 443 and 9090 until stopped by hand. A
# policy-rc.d that forbids every start (exit 101) is in place for the
# install's length, unless the machine has its own, which is left as it
# is. The services stay enabled, as the packages ship them: a reboot
# starts them.
set -euo pipefail
[ $# -gt 0 ] || { sed -n 2p "$0" | sed 's/^# //' >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: installing $* needs root" >&2; exit 1; }
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  trap 'rm -f "$policy"' EXIT
  printf '#!/bin/sh\n# scripts/apt-install.sh: no service starts while it installs\nexit 101\n' >"$policy"
  chmod 755 "$policy"
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
