package engine

import "github.com/pummel-dev/pummel/stats"

// Recorded is the load c describes as every output records it, with the
// URL and headers as configured (callers redact them, or show them as the
// user wrote them) and no command line. It is the one place that turns a
// Config into a stats.Config: Run records the request it sent with it
// (recordSent), and WithSent puts that request into the caller's record.
func (c *Config) Recorded() stats.Config {
	rc := stats.Config{
		Connections:    c.Connections,
		Threads:        c.Threads,
		DurationS:      c.Duration.Seconds(),
		Requests:       c.Requests,
		TimeoutS:       c.Timeout.Seconds(),
		KeepAlive:      !c.NoKeepAlive,
		Pipeline:       c.Pipeline,
		Rates:          c.Rates,
		WarmupS:        c.Warmup.Seconds(),
		WarmupRequests: c.WarmupRequests,
		Engine:         c.Transport(),
	}
	c.recordProtocol(&rc)
	for _, r := range c.ConnectTo {
		if r.Resolve {
			rc.Resolve = append(rc.Resolve, r.String())
		} else {
			rc.ConnectTo = append(rc.ConnectTo, r.String())
		}
	}
	if len(c.RampFrom) > 0 {
		rc.Rates, rc.Ramps = make([]float64, len(c.Rates)), make([]stats.Ramp, len(c.Rates))
		for i, r := range c.Rates {
			rc.Rates[i], rc.Ramps[i] = c.MeanRate(i), stats.Ramp{From: c.RampFrom[i], To: r}
		}
	}
	c.recordRequest(&rc)
	return rc
}

// recordRequest writes into rc the request c describes, as outputs record
// it: URL, method, headers and body size, unredacted (callers redact), and
// the script's file name and digest.
func (c *Config) recordRequest(rc *stats.Config) {
	rc.URL = c.URL.String()
	rc.Method = c.method()
	rc.BodyBytes = len(c.Body)
	rc.Headers = nil
	for _, h := range c.Headers {
		rc.Headers = append(rc.Headers, h.Name+": "+h.Value)
	}
	rc.Script, rc.ScriptSHA256 = "", ""
	if c.Script != nil {
		rc.Script, rc.ScriptSHA256 = c.Script.Name(), c.Script.SHA256()
	}
}

// WithSent is shape, a Recorded config, with the request a run sent in
// place of the one configured, as Run recorded it in its result's Config
// (a script may change the request). A sent without a record (no
// RequestSHA256: a result that Run did not make) leaves shape as it is.
func WithSent(shape, sent stats.Config) stats.Config {
	if sent.RequestSHA256 == "" {
		return shape
	}
	shape.URL, shape.Method, shape.Headers, shape.BodyBytes = sent.URL, sent.Method, sent.Headers, sent.BodyBytes
	shape.Request, shape.RequestSHA256 = sent.Request, sent.RequestSHA256
	return shape
}
