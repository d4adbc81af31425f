package main

import (
	"strconv"

	"github.com/pummel-dev/pummel/engine"
	"github.com/urfave/cli/v2"
)

// loadFlags binds the load command's flags to o. Counts and durations are
// strings here, parsed in options.config, so that "1k" and bare seconds work
// and errors name the flag.
func loadFlags(o *options) []cli.Flag {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "connections", Aliases: []string{"c"}, Value: strconv.Itoa(engine.DefaultConnections), Destination: &o.connections, Usage: "keep-alive `N` connections held open for the whole run (k/M suffixes)"},
		&cli.StringFlag{Name: "threads", Aliases: []string{"t"}, Destination: &o.threads, DefaultText: "CPUs, at most -c", Usage: "`N` workers the connections are spread over"},
		&cli.StringFlag{Name: "duration", Aliases: []string{"d"}, Destination: &o.duration, DefaultText: "10s unless -n", Usage: "measure for `D` (500ms, 10s, 5m, 1h or seconds)"},
		&cli.StringFlag{Name: "requests", Aliases: []string{"n"}, Destination: &o.requests, Usage: "stop after exactly `N` requests (with -d, whichever comes first)"},
		&cli.StringFlag{Name: "rate", Aliases: []string{"R"}, Destination: &o.rate, Usage: "open loop: total rate `R[,R…]` in requests/s, or a linear ramp A..B; several rates run as stages of -d each"},
		&cli.StringFlag{Name: "warmup", Destination: &o.warmup, Usage: "apply load for `D` before measuring (with -n, then exactly N); excluded from every figure"},
		&cli.StringFlag{Name: "warmup-rate", Destination: &o.warmupRate, DefaultText: "the first -R (a ramp's start)", Usage: "open-loop warm-up rate `R`"},
		&cli.StringFlag{Name: "warmup-requests", Destination: &o.warmupRequests, Usage: "with -n: send `N` requests before measuring"},
		&cli.StringFlag{Name: "timeout", Value: engine.DefaultTimeout.String(), Destination: &o.timeout, Usage: "per-request timeout `D`; the connection is then reopened"},
		&cli.StringFlag{Name: "pipeline", Value: "1", Destination: &o.pipeline, Usage: "send `N` requests at once on each connection (HTTP/1.1 pipelining)"},
		&cli.BoolFlag{Name: "http2", Destination: &o.http2, Usage: "speak HTTP/2: h2 over TLS (ALPN) for https://, h2c with prior knowledge otherwise"},
		&cli.BoolFlag{Name: "http3", Destination: &o.http3, Usage: "speak HTTP/3 over QUIC (https:// only, ALPN h3; no 0-RTT)"},
		&cli.StringFlag{Name: "streams", Value: "1", Destination: &o.streams, Usage: "with --http2 or --http3: keep `N` requests in flight on each connection, capped by the server's limit"},
		&cli.StringFlag{Name: "shard", Destination: &o.shard, Usage: "run part `i/N` (i from 0) of a load shared by N processes: -c, -n and -R are the whole load's, split exactly; merge with pummel report --parallel"},
		&cli.StringFlag{Name: "start-at", Destination: &o.startAt, Usage: "start the clock at `TIME` (RFC 3339, or +30s from when pummel starts, before --exec readiness and --settle), the connections opened just before"},
		&cli.StringFlag{Name: "engine", Value: engine.EngineAuto, Destination: &o.engine, Usage: "the transport: `auto` (the event loop where it can run), loop or goroutine"},
		&cli.BoolFlag{Name: "keepalive", Aliases: []string{"k"}, Destination: &o.keepAlive, Usage: "accepted for ab users: connections are kept alive anyway (see --no-keepalive)"},
		&cli.BoolFlag{Name: "no-keepalive", Destination: &o.noKeepAlive, Usage: "open a connection per request"},
		&cli.StringFlag{Name: "method", Aliases: []string{"m"}, Destination: &o.method, DefaultText: "GET, or POST with a body", Usage: "request `METHOD`"},
		&cli.StringSliceFlag{Name: "header", Aliases: []string{"H"}, Destination: &o.headers, Usage: "request header `\"Name: value\"` (repeatable)"},
		&cli.StringFlag{Name: "body", Aliases: []string{"b"}, Destination: &o.body, Usage: "request `BODY`"},
		&cli.StringFlag{Name: "body-file", Destination: &o.bodyFile, Usage: "read the request body from `FILE`"},
		&cli.StringFlag{Name: "max-body", Value: defaultMaxBody, Destination: &o.maxBody, Usage: "refuse request bodies over `SIZE` (64k, 64M ×1000; 64KiB, 64MiB ×1024)"},
		&cli.StringFlag{Name: "content-type", Aliases: []string{"T"}, Destination: &o.contentType, Usage: "Content-Type `TYPE` of the body"},
		&cli.StringFlag{Name: "targets", Destination: &o.targetsFile, Usage: "load the requests listed in `FILE` instead of one URL: vegeta's http or JSON lines format, with # weight N and # name NAME (- for stdin)"},
		&cli.StringFlag{Name: "script", Aliases: []string{"s"}, Destination: &o.script, Usage: "wrk Lua script `FILE`; arguments after -- go to its init(args)"},
		&cli.StringSliceFlag{Name: "pid", Destination: &o.pids, Usage: "watch the server process `PID`: idle, peak and after-load RSS, CPU per request (repeatable)"},
		&cli.BoolFlag{Name: "pid-tree", Destination: &o.pidTree, Usage: "include the watched processes' children"},
		&cli.StringFlag{Name: "sample-interval", Value: "100ms", Destination: &o.sampleInterval, Usage: "sample watched processes every `D`"},
		&cli.StringFlag{Name: "exec", Destination: &o.exec, Usage: "start the server `\"CMD ARGS\"` (no shell), time its startup, watch it, stop it after the load"},
		&cli.BoolFlag{Name: "exec-shell", Destination: &o.execShell, Usage: "run --exec through /bin/sh -c"},
		&cli.StringFlag{Name: "ready-url", Destination: &o.readyURL, DefaultText: "the target URL", Usage: "with --exec: poll `URL` until the server answers"},
		&cli.StringFlag{Name: "ready-status", Destination: &o.readyStatus, DefaultText: "2xx,3xx", Usage: "with --exec: `STATUSES` that mean ready"},
		&cli.StringFlag{Name: "ready-timeout", Value: "30s", Destination: &o.readyTimeout, Usage: "with --exec: give up on readiness after `D`"},
		&cli.StringFlag{Name: "settle", Value: "2s", Destination: &o.settle, Usage: "with --exec: wait `D` after ready before sampling idle RSS"},
		&cli.StringFlag{Name: "server-log", Destination: &o.serverLog, DefaultText: "a temporary file, removed after a run that went well", Usage: "with --exec: write the server's output to `FILE`"},
		&cli.StringFlag{Name: "runs", Value: "1", Destination: &o.runs, Usage: "with --exec: repeat with `N` fresh server processes; report min, median, max"},
		&cli.StringFlag{Name: "expect-status", Destination: &o.expectStatus, Usage: "acceptable `STATUSES` (200, 200,204, 2xx); others count as validation errors"},
		&cli.StringFlag{Name: "expect-body", Destination: &o.expectBody, Usage: "`TEXT` every response body must contain"},
		&cli.StringFlag{Name: "unix", Destination: &o.unix, Usage: "connect to the Unix socket `PATH` instead of the URL's host"},
		&cli.StringSliceFlag{Name: "connect-to", Destination: &o.connectTos, Usage: "connect to `HOST:PORT:ADDR:PORT`'s ADDR:PORT for a URL of HOST:PORT, as curl does: the Host header and TLS name stay the URL's (repeatable)"},
		&cli.StringSliceFlag{Name: "resolve", Destination: &o.resolves, Usage: "connect to IP address ADDR for a URL of HOST:PORT (`HOST:PORT:ADDR`), as curl does (repeatable)"},
		&cli.BoolFlag{Name: "insecure", Destination: &o.insecure, Usage: "do not verify the server's TLS certificate"},
		&cli.StringFlag{Name: "cacert", Destination: &o.cacert, Usage: "trust the CA certificates in PEM `FILE`"},
		&cli.StringFlag{Name: "cert", Destination: &o.cert, Usage: "client certificate PEM `FILE`"},
		&cli.StringFlag{Name: "key", Destination: &o.key, Usage: "client key PEM `FILE`"},
		&cli.BoolFlag{Name: "latency", Destination: &o.latency, Usage: "print the latency distribution"},
		&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.outputs, Usage: "also write the result to `FILE` (.json, .md or .txt; repeatable)"},
		&cli.StringFlag{Name: "log-requests", Destination: &o.logRequests, Usage: "also write one CSV line per request to `FILE` (.csv.gz compresses): send time, status, error, latency, bytes, connection"},
		&cli.StringFlag{Name: "hdr-log", Destination: &o.hdrLog, Usage: "also write per-second latency histograms to `FILE` in HdrHistogram's log format"},
		&cli.StringSliceFlag{Name: "threshold", Destination: &o.thresholdExprs, Usage: "fail the run (exit 3) unless `EXPR` holds: p99<20ms, errors<0.1%, status_5xx==0, rps>=10k, server_rss_peak<200MiB (repeatable)"},
		&cli.StringFlag{Name: "format", Value: "text", Destination: &o.format, Usage: "write `FORMAT` to stdout: text, json or markdown"},
		&cli.StringFlag{Name: "progress", Value: progressAuto, Destination: &o.progress,
			Usage: "`auto`: a live line on stderr when it is a terminal; always: else a line every 10s too (CI logs); never"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no progress on stderr: --progress never"},
		&cli.BoolFlag{Name: "dry-run", Destination: &o.dryRun, Usage: "check the command line (flags, script, outputs), print what would run, and send nothing"},
		&cli.BoolFlag{Name: "show-secrets", Destination: &o.showSecrets, Usage: "do not redact secret headers, URL credentials (user and password) and request bodies in outputs"},
	}
	return append(flags, exportFlags(&o.export)...)
}

// demoFlags are the load flags that apply to `pummel demo`, with its
// defaults: 3 seconds, 32 connections, the latency distribution. The
// flags about a server of one's own (--pid, --exec…), its address, TLS
// and HTTP/2 are left out: demo starts its own, which speaks HTTP/1.1.
func demoFlags(o *options) []cli.Flag {
	var out []cli.Flag
	for _, f := range loadFlags(o) {
		name := f.Names()[0]
		switch f := f.(type) {
		case *cli.StringFlag:
			switch name {
			case "duration":
				f.Value, f.DefaultText = "3s", "3s unless -n"
			case "connections":
				f.Value = "32"
			case "start-at": // demo has no --exec and no --settle to count before
				f.Usage = "start the clock at `TIME` (RFC 3339, or +30s from when pummel starts), the connections opened just before"
			}
		case *cli.BoolFlag:
			f.Value = f.Value || name == "latency"
		}
		if !notForDemo[name] {
			out = append(out, f)
		}
	}
	return out
}

// notForDemo are the load flags demo has no use for.
var notForDemo = map[string]bool{
	"pid": true, "pid-tree": true, "sample-interval": true, "exec": true, "exec-shell": true, "ready-url": true,
	"ready-status": true, "ready-timeout": true, "settle": true, "server-log": true, "runs": true,
	"targets": true, "http2": true, "streams": true, "unix": true, "connect-to": true, "resolve": true, "insecure": true, "cacert": true, "cert": true, "key": true,
}

// specOf lists which flag names take values, for normalizeArgs.
func specOf(flags []cli.Flag) flagSpec {
	spec := flagSpec{values: map[string]bool{}, bools: map[string]bool{"help": true, "h": true}, long: map[string]string{}}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		names := f.Names()
		for _, name := range names {
			spec.long[name] = names[0]
			if isBool {
				spec.bools[name] = true
			} else {
				spec.values[name] = true
			}
		}
	}
	return spec
}
