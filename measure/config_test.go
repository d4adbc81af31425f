package measure

import (
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
)

func TestConfigOf(t *testing.T) {
	u, _ := url.Parse("http://h:8080/x?q=1")
	c := engine.Config{URL: u, Body: []byte("{}"), Connections: 4, Threads: 2, Duration: 3 * time.Second, Timeout: time.Second,
		Headers: []engine.Header{{Name: "X-A", Value: "1"}}, Pipeline: 2}
	rc := ConfigOf(c)
	if rc.URL != "http://h:8080/x?q=1" || rc.Method != "POST" || rc.BodyBytes != 2 || rc.Connections != 4 || rc.Threads != 2 ||
		rc.DurationS != 3 || rc.TimeoutS != 1 || !rc.KeepAlive || rc.Pipeline != 2 || len(rc.Headers) != 1 || rc.Headers[0] != "X-A: 1" {
		t.Errorf("ConfigOf() = %+v", rc)
	}
	c.Method, c.NoKeepAlive = "head", true
	if rc := ConfigOf(c); rc.Method != "HEAD" || rc.KeepAlive {
		t.Errorf("method %q, keep-alive %v: want HEAD, false", rc.Method, rc.KeepAlive)
	}
}

func TestConfigOfRecordsConnectToAndResolveApart(t *testing.T) {
	u, _ := url.Parse("http://h/")
	c := engine.Config{URL: u, ConnectTo: []engine.ConnectTo{
		{Host: "h", Port: "80", ToHost: "127.0.0.1", ToPort: "8081"},
		{Host: "h", Port: "80", ToHost: "::1", Resolve: true},
		{ToPort: "9"},
	}}
	rc := ConfigOf(c)
	if !slices.Equal(rc.ConnectTo, []string{"h:80:127.0.0.1:8081", ":::9"}) || !slices.Equal(rc.Resolve, []string{"h:80:[::1]"}) {
		t.Errorf("connect_to %q, resolve %q", rc.ConnectTo, rc.Resolve)
	}
}
