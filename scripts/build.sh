#!/usr/bin/env bash
# Builds a static pummel binary, the same way here, in CI and in the Dockerfile.
#   scripts/build.sh [OUTPUT]        (default: bin/pummel)
# VERSION overrides the version stamped into the binary (default: git describe).
# SYMBOLS=1 keeps the symbol table, for profiles that name functions.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/pummel}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
strip="-s -w "
[ "${SYMBOLS:-}" = 1 ] && strip=""
CGO_ENABLED=0 go build -trimpath -ldflags "$strip-X main.version=$version" -o "$out" ./cmd/pummel
echo "built $out ($version)"
