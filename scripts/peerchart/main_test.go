package main

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/chart"
)

func TestReadBars(t *testing.T) {
	rows := "pummel\t64\t0\t180\t170\t190\npummel-goroutine-pipeline\t10000\t16\t460\t440\t480\n"
	bars, err := readBars(strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	want := []chart.Bar{
		{Group: "64 connections", Series: "pummel", Value: 180, Low: 170, High: 190},
		{Group: "10,000, pipelined ×16", Series: "pummel (goroutine)", Value: 460, Low: 440, High: 480},
	}
	if len(bars) != len(want) || bars[0] != want[0] || bars[1] != want[1] {
		t.Errorf("bars %+v, want %+v", bars, want)
	}
	for _, bad := range []string{"", "pummel\t64\t0\t180\n", "pummel\t64\t0\tx\t1\t2\n"} {
		if _, err := readBars(strings.NewReader(bad)); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}
