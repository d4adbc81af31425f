# Multi-stage build of a static pummel; the build itself is scripts/build.sh,
# the same script CI runs.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN VERSION="$VERSION" scripts/build.sh /out/pummel

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/pummel /usr/local/bin/pummel
ENV PATH=/usr/local/bin
USER 65534:65534
ENTRYPOINT ["pummel"]
