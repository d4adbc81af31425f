package engine

import (
	"cmp"
	"time"
)

// Validate reports the first problem with c as a *SettingError.
func (c *Config) Validate() error {
	switch {
	case c.URL == nil || c.URL.Host == "" && c.UnixSocket == "":
		return invalid("URL", "a target such as http://127.0.0.1:8080/ is required")
	case c.URL.Scheme != "http" && c.URL.Scheme != "https":
		return invalid("URL", "scheme %q is not supported (use http or https)", c.URL.Scheme)
	case c.Connections < 1:
		return invalid("connections", "%d, need at least 1", c.Connections)
	case len(c.ConnectTo) > 0 && c.UnixSocket != "":
		return invalid("connect-to", "cannot be combined with a Unix socket")
	}
	if err := c.Shard.validate(c.Connections, c.Requests); err != nil {
		return err
	}
	return cmp.Or(c.validateShape(), c.validateHTTP3(), c.checkRequest(), c.validateRates(), c.validateTargets())
}

// validateShape checks threads, duration, count, timeout, pipelining,
// warm-up, transport and start.
func (c *Config) validateShape() error {
	switch {
	case c.Threads < 1:
		return invalid("threads", "%d, need at least 1", c.Threads)
	case c.Threads > int(c.Shard.Share(int64(c.Connections))):
		return c.threadsError()
	case c.Duration < 0:
		return invalid("duration", "%v is negative", c.Duration)
	case c.Requests < 0:
		return invalid("requests", "%d is negative", c.Requests)
	case c.Duration == 0 && c.Requests == 0:
		return invalid("duration", "a duration or a request count is required")
	case c.Timeout <= 0:
		return invalid("timeout", "%v, need a positive duration", c.Timeout)
	case c.Pipeline < 0 || c.Pipeline > MaxPipeline:
		return invalid("pipeline", "%d, need between 1 and %d", c.Pipeline, MaxPipeline)
	case c.Pipeline > 1 && c.NoKeepAlive:
		return invalid("pipeline", "pipelining needs keep-alive connections")
	case c.Streams < 0 || c.Streams > MaxStreams:
		return invalid("streams", "%d, need between 1 and %d", c.Streams, MaxStreams)
	case c.Protocol > HTTP3:
		return invalid("protocol", "%v is not one pummel speaks", c.Protocol)
	case c.Streams > 1 && c.Protocol == HTTP1:
		return needs("streams", "http2", "streams are HTTP/2's and HTTP/3's")
	case c.Protocol == HTTP2 && c.Pipeline > 1:
		return invalid("pipeline", "HTTP/2 does not pipeline; it keeps several requests in flight with {streams}")
	case c.Protocol == HTTP2 && c.NoKeepAlive:
		return invalid("http2", "HTTP/2 connections are kept alive; drop {no-keepalive}")
	case c.Warmup < 0 || c.WarmupRequests < 0 || c.WarmupRate < 0:
		return invalid("warmup", "negative")
	case c.Warmup > 0 && c.WarmupRequests > 0:
		return invalid("warmup", "give a warm-up time or a warm-up count, not both")
	case c.WarmupRate > MaxRate:
		return invalid("warmup rate", "%g, need at most %g requests/s", c.WarmupRate, float64(MaxRate))
	case c.Engine != "" && c.Engine != EngineAuto && c.Engine != EngineLoop && c.Engine != EngineGoroutine:
		return invalid("engine", "%q, want auto, loop or goroutine", c.Engine)
	case c.Engine == EngineLoop && c.Protocol != HTTP3 && c.loopCan() != nil:
		return c.loopCan()
	case !c.StartAt.IsZero() && time.Until(c.StartAt) < -maxStartSkew:
		return invalid("start-at", "the start time passed more than a second ago")
	}
	return nil
}

// threadsError refuses more threads than the connections this process
// holds: all of them, or a part's share of them (threads are per part).
func (c *Config) threadsError() error {
	held := c.Shard.Share(int64(c.Connections))
	if c.Shard.whole() {
		return invalid("threads", "%d threads for %d connections; use at most %d", c.Threads, held, held)
	}
	return invalid("threads", "%d threads for the %d connections of shard %d/%d (its share of the connections); use at most %d",
		c.Threads, held, c.Shard.Index, c.Shard.Count, held)
}

// validateRates checks the open-loop settings.
func (c *Config) validateRates() error {
	if len(c.Rates) == 0 {
		return nil
	}
	if len(c.RampFrom) > 0 && len(c.RampFrom) != len(c.Rates) {
		return invalid("rate", "%d starting rates for %d stages", len(c.RampFrom), len(c.Rates))
	}
	for i, r := range c.Rates {
		from := c.stageFrom(i)
		if !(r >= 0 && from >= 0) || r > MaxRate || from > MaxRate || r+from == 0 {
			if c.ramps(i) {
				return invalid("rate", "%s, need rates from 0 to %g requests/s, not both 0", c.stageName(i), float64(MaxRate))
			}
			return invalid("rate", "%g, need a rate above 0 and at most %g requests/s", r, float64(MaxRate))
		}
		if c.MeanRate(i)*c.Duration.Seconds() < 1 {
			return invalid("rate", "%s requests/s for %v is less than one request; lengthen {duration}", c.stageName(i), c.Duration)
		}
	}
	switch {
	case c.Duration <= 0:
		return invalid("rate", "an open-loop run needs a duration per stage")
	case c.Requests > 0:
		return invalid("rate", "{requests} does not apply to an open-loop run; it sends rate × duration requests per stage")
	case c.Pipeline > 1:
		return invalid("rate", "an open-loop run does not pipeline")
	case c.WarmupRequests > 0:
		return invalid("warmup", "an open-loop warm-up is timed; use a duration")
	}
	return nil
}

// validateHTTP3 checks what HTTP/3 allows: QUIC carries TLS, so an https
// URL, on its own transport; and what pummel does not do over it yet.
func (c *Config) validateHTTP3() error {
	if c.Protocol != HTTP3 {
		return nil
	}
	switch {
	case c.URL.Scheme != "https":
		return invalid("http3", "HTTP/3 runs over QUIC, which carries TLS: give an https:// URL")
	case c.UnixSocket != "":
		return invalid("http3", "HTTP/3 runs over UDP, not a Unix socket")
	case c.Dial != nil:
		return invalid("http3", "HTTP/3 dials its own UDP socket; a custom dialer does not apply")
	case c.Engine == EngineLoop || c.Engine == EngineGoroutine:
		return invalid("engine", "HTTP/3 runs on its own QUIC transport; drop {engine}")
	case c.Pipeline > 1:
		return invalid("pipeline", "HTTP/3 does not pipeline; it keeps several requests in flight with {streams}")
	case c.NoKeepAlive:
		return invalid("http3", "HTTP/3 connections are kept alive; drop {no-keepalive}")
	}
	return nil
}
