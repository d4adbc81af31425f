// Command peerchart draws the chart of scripts/bench-peers.sh's table:
// requests per client CPU-second of each tool, grouped by connection count
// and pipelining, each bar with the range of its repetitions. It reads the
// tab-separated rows bench-peers.sh writes with -g (tool, connections,
// pipelining depth or 0, median, lowest, highest) and draws them with
// pummel's chart package, as SVG or PNG by the output's extension.
//
//	go run ./scripts/peerchart -o docs/charts/peers.svg ROWS.tsv
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/chart"
)

func main() {
	out := flag.String("o", "", "the chart to write: a .svg or .png file")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: peerchart -o CHART.svg ROWS.tsv")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "peerchart:", err)
		os.Exit(1)
	}
}

func run(rows, out string) error {
	f, err := os.Open(rows)
	if err != nil {
		return err
	}
	defer f.Close()
	bars, err := readBars(f)
	if err != nil {
		return fmt.Errorf("%s: %w", rows, err)
	}
	return chart.Bars(bars, "Requests per client CPU-second against one nginx worker", "requests per CPU-second", out)
}

// readBars reads the rows: tool, connections, depth, median, low, high.
func readBars(r io.Reader) ([]chart.Bar, error) {
	var bars []chart.Bar
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("line %d: %d fields, want 6", line, len(f))
		}
		var v [3]float64
		for i := range v {
			x, err := strconv.ParseFloat(f[3+i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			v[i] = x
		}
		bars = append(bars, chart.Bar{Group: group(f[1], f[2]), Series: series(f[0]), Value: v[0], Low: v[1], High: v[2]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(bars) == 0 {
		return nil, errors.New("no rows")
	}
	return bars, nil
}

// group names a connection count and pipelining depth: "10,000
// connections", "64, pipelined ×16".
func group(conns, depth string) string {
	if n, err := strconv.Atoi(conns); err == nil && n >= 10000 {
		conns = strconv.Itoa(n/1000) + "," + fmt.Sprintf("%03d", n%1000)
	}
	if depth != "0" {
		return conns + ", pipelined ×" + depth
	}
	return conns + " connections"
}

// series names a tool as the table does, without its -pipeline suffix.
func series(tool string) string {
	tool = strings.TrimSuffix(tool, "-pipeline")
	if tool == "pummel-goroutine" {
		return "pummel (goroutine)"
	}
	return tool
}
