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
	return []cli.Flag{
		&cli.StringFlag{Name: "connections", Aliases: []string{"c"}, Value: strconv.Itoa(engine.DefaultConnections), Destination: &o.connections, Usage: "keep-alive `N` connections held open for the whole run (k/M suffixes)"},
		&cli.StringFlag{Name: "threads", Aliases: []string{"t"}, Destination: &o.threads, Usage: "`N` workers the connections are spread over (default: CPUs, at most -c)"},
		&cli.StringFlag{Name: "duration", Aliases: []string{"d"}, Destination: &o.duration, Usage: "measure for `D` (500ms, 10s, 5m, 1h or seconds; default 10s unless -n)"},
		&cli.StringFlag{Name: "requests", Aliases: []string{"n"}, Destination: &o.requests, Usage: "stop after exactly `N` requests (with -d, whichever comes first)"},
		&cli.StringFlag{Name: "rate", Aliases: []string{"R"}, Destination: &o.rate, Usage: "open loop: constant total rate `R[,R…]` in requests/s; several rates run as stages of -d each"},
		&cli.StringFlag{Name: "warmup", Destination: &o.warmup, Usage: "apply load for `D` before measuring; excluded from every figure"},
		&cli.StringFlag{Name: "warmup-rate", Destination: &o.warmupRate, Usage: "open-loop warm-up rate `R` (default: the first -R)"},
		&cli.StringFlag{Name: "warmup-requests", Destination: &o.warmupRequests, Usage: "with -n: send `N` requests before measuring"},
		&cli.StringFlag{Name: "timeout", Value: engine.DefaultTimeout.String(), Destination: &o.timeout, Usage: "per-request timeout `D`; the connection is then reopened"},
		&cli.StringFlag{Name: "pipeline", Value: "1", Destination: &o.pipeline, Usage: "send `N` requests at once on each connection (HTTP/1.1 pipelining)"},
		&cli.StringFlag{Name: "shard", Destination: &o.shard, Usage: "run part `i/N` (i from 0) of a load shared by N processes: -c, -n and -R are the whole load's, split exactly; merge with pummel report --parallel"},
		&cli.StringFlag{Name: "start-at", Destination: &o.startAt, Usage: "start the clock at `TIME` (RFC 3339, or +30s from now), the connections opened just before"},
		&cli.StringFlag{Name: "engine", Value: engine.EngineAuto, Destination: &o.engine, Usage: "the transport: `auto` (the event loop where it can run), loop or goroutine"},
		&cli.BoolFlag{Name: "keepalive", Aliases: []string{"k"}, Destination: &o.keepAlive, Usage: "keep connections alive (the default; accepted for ab users)"},
		&cli.BoolFlag{Name: "no-keepalive", Destination: &o.noKeepAlive, Usage: "open a connection per request"},
		&cli.StringFlag{Name: "method", Aliases: []string{"m"}, Destination: &o.method, Usage: "request `METHOD` (default GET, or POST with a body)"},
		&cli.StringSliceFlag{Name: "header", Aliases: []string{"H"}, Destination: &o.headers, Usage: "request header `\"Name: value\"` (repeatable)"},
		&cli.StringFlag{Name: "body", Aliases: []string{"b"}, Destination: &o.body, Usage: "request `BODY`"},
		&cli.StringFlag{Name: "body-file", Destination: &o.bodyFile, Usage: "read the request body from `FILE`"},
		&cli.StringFlag{Name: "max-body", Value: defaultMaxBody, Destination: &o.maxBody, Usage: "refuse request bodies over `SIZE` (64k, 64M ×1000; 64KiB, 64MiB ×1024)"},
		&cli.StringFlag{Name: "content-type", Aliases: []string{"T"}, Destination: &o.contentType, Usage: "Content-Type `TYPE` of the body"},
		&cli.StringFlag{Name: "script", Aliases: []string{"s"}, Destination: &o.script, Usage: "wrk Lua script `FILE`; arguments after -- go to its init(args)"},
		&cli.StringSliceFlag{Name: "pid", Destination: &o.pids, Usage: "watch the server process `PID`: idle, peak and after-load RSS, CPU per request (repeatable)"},
		&cli.BoolFlag{Name: "pid-tree", Destination: &o.pidTree, Usage: "include the watched processes' children"},
		&cli.StringFlag{Name: "sample-interval", Value: "100ms", Destination: &o.sampleInterval, Usage: "sample watched processes every `D`"},
		&cli.StringFlag{Name: "exec", Destination: &o.exec, Usage: "start the server `\"CMD ARGS\"` (no shell), time its startup, watch it, stop it after the load"},
		&cli.BoolFlag{Name: "exec-shell", Destination: &o.execShell, Usage: "run --exec through /bin/sh -c"},
		&cli.StringFlag{Name: "ready-url", Destination: &o.readyURL, Usage: "with --exec: poll `URL` until the server answers (default: the target URL)"},
		&cli.StringFlag{Name: "ready-status", Destination: &o.readyStatus, Usage: "with --exec: statuses that mean ready (default 2xx,3xx)"},
		&cli.StringFlag{Name: "ready-timeout", Value: "30s", Destination: &o.readyTimeout, Usage: "with --exec: give up on readiness after `D`"},
		&cli.StringFlag{Name: "settle", Value: "2s", Destination: &o.settle, Usage: "with --exec: wait `D` after ready before sampling idle RSS"},
		&cli.StringFlag{Name: "server-log", Destination: &o.serverLog, Usage: "with --exec: write the server's output to `FILE` (default: a temporary file)"},
		&cli.StringFlag{Name: "runs", Value: "1", Destination: &o.runs, Usage: "with --exec: repeat with `N` fresh server processes; report min, median, max"},
		&cli.StringFlag{Name: "expect-status", Destination: &o.expectStatus, Usage: "acceptable `STATUSES` (200, 200,204, 2xx); others count as validation errors"},
		&cli.StringFlag{Name: "expect-body", Destination: &o.expectBody, Usage: "`TEXT` every response body must contain"},
		&cli.StringFlag{Name: "unix", Destination: &o.unix, Usage: "connect to the Unix socket `PATH` instead of the URL's host"},
		&cli.BoolFlag{Name: "insecure", Destination: &o.insecure, Usage: "do not verify the server's TLS certificate"},
		&cli.StringFlag{Name: "cacert", Destination: &o.cacert, Usage: "trust the CA certificates in PEM `FILE`"},
		&cli.StringFlag{Name: "cert", Destination: &o.cert, Usage: "client certificate PEM `FILE`"},
		&cli.StringFlag{Name: "key", Destination: &o.key, Usage: "client key PEM `FILE`"},
		&cli.BoolFlag{Name: "latency", Destination: &o.latency, Usage: "print the latency distribution"},
		&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.outputs, Usage: "also write the result to `FILE` (.json, .md or .txt; repeatable)"},
		&cli.StringFlag{Name: "hdr-log", Destination: &o.hdrLog, Usage: "also write per-second latency histograms to `FILE` in HdrHistogram's log format"},
		&cli.StringFlag{Name: "format", Value: "text", Destination: &o.format, Usage: "what goes to stdout: text, json or markdown"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no live progress"},
		&cli.BoolFlag{Name: "dry-run", Destination: &o.dryRun, Usage: "check the command line (flags, script, outputs), print what would run, and send nothing"},
		&cli.BoolFlag{Name: "show-secrets", Destination: &o.showSecrets, Usage: "do not redact secret headers and URL passwords in outputs"},
	}
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
