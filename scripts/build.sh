#!/usr/bin/env bash
# Builds a static pummel binary, the same way here, in CI and in the Dockerfile.
#   scripts/build.sh [OUTPUT]        (default: bin/pummel)
# VERSION overrides the version stamped into the binary (default: git describe).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/pummel}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$out" ./cmd/pummel
echo "built $out ($version)"
