#!/usr/bin/env bash
# Builds a static pummel binary, the same way here, in CI and in the Dockerfile.
#   scripts/build.sh [OUTPUT]        (default: bin/pummel)
# Stamped into the binary, for `pummel version` and every result's environment:
#   VERSION  default: git describe
#   COMMIT   default: git rev-parse HEAD (else the Go toolchain's own VCS stamp, if any)
#   DATE     the build date, RFC 3339 UTC; default: now, or SOURCE_DATE_EPOCH when set
# GOOS and GOARCH cross-compile as go build does (GOOS=darwin GOARCH=arm64).
# SYMBOLS=1 keeps the symbol table, for profiles that name functions.
# Tag urfave_cli_no_docs leaves out urfave/cli's man-page writer and the
# Markdown parser under it (whose init every start would pay): `pummel man`
# prints the page embedded from docs/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/pummel}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || true)}
if [ -z "${DATE:-}" ] && [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  DATE=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
fi
date=${DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
strip="-s -w "
[ "${SYMBOLS:-}" = 1 ] && strip=""
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs \
  -ldflags "$strip-X main.version=$version -X main.commit=$commit -X main.date=$date" \
  -o "$out" ./cmd/pummel
echo "built $out ($version)"
