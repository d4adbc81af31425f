# syntax=docker/dockerfile:1
# A static pummel in an empty image, for the build machine's architecture
# or cross-compiled for another's (c6i and c6g machines), without emulating
# it; the version comes from git, since .git is not sent to the build
# (README, "The image"):
#
#   docker build -t pummel \
#     --build-arg VERSION="$(git describe --tags --always --dirty)" \
#     --build-arg COMMIT="$(git rev-parse HEAD)" .
#   docker build --platform linux/arm64 -t pummel:arm64 .
#   docker buildx build --platform linux/amd64,linux/arm64 --push -t REGISTRY/pummel .
#
# The image runs as uid 65534 in /work, which it may write (-o results,
# plans), with a writable /tmp (--exec logs): with a read-only root, mount
# both (--read-only --tmpfs /tmp -v "$PWD/results:/work"). CI builds and
# runs it (scripts/e2e-kubernetes.sh). The built-in target for other
# containers:
#   docker run -p 8080:8080 pummel serve --addr 0.0.0.0:8080
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
ARG COMMIT=
ARG DATE=
RUN GOOS="$TARGETOS" GOARCH="$TARGETARCH" VERSION="$VERSION" COMMIT="$COMMIT" DATE="$DATE" \
    scripts/build.sh /out/pummel
# scratch has no directories at all: make the two pummel writes to here. A
# COPY of a directory copies what it holds, not the directory's own mode or
# owner, so both come as entries of /out/root, copied whole to /.
RUN mkdir -p /out/root/tmp /out/root/work && chmod 1777 /out/root/tmp \
    && chown 65534:65534 /out/root/work

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/pummel /usr/local/bin/pummel
COPY --from=build /out/root/ /
ENV PATH=/usr/local/bin TMPDIR=/tmp
WORKDIR /work
USER 65534:65534
# pummel serve --addr 0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["pummel"]
CMD ["--help"]
