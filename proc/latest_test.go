//go:build unix

package proc

import (
	"os"
	"testing"
	"time"
)

// TestLatestIsTheLastSample: an exporter reads the server's RSS and CPU
// time as the watcher last sampled them.
func TestLatestIsTheLastSample(t *testing.T) {
	w, err := Watch(os.Getpid(), WatchOptions{Every: time.Hour}) // the first sample alone
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	s, ok := w.Latest()
	series := w.Series()
	if !ok || len(series) == 0 || s != series[len(series)-1] || s.RSSBytes <= 0 || w.PID() != os.Getpid() {
		t.Errorf("Latest() = %+v, %v; series %+v, pid %d", s, ok, series, w.PID())
	}
}
