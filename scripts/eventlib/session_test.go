package main

import (
	"strings"
	"testing"
)

const (
	empty200 = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"
	body404  = "HTTP/1.1 404 Not Found\r\ncontent-length:  5\r\n\r\nnope!"
	noLength = "HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n"
)

func TestSessionFeed(t *testing.T) {
	tests := []struct {
		name   string
		reads  []string
		done   []int // responses completed by each read
		non2xx int
	}{
		{"one read", []string{empty200}, []int{1}, 0},
		{"header split", []string{empty200[:20], empty200[20:]}, []int{0, 1}, 0},
		{"header end split", []string{empty200[:len(empty200)-2], empty200[len(empty200)-2:]}, []int{0, 1}, 0},
		{"header in three reads", []string{empty200[:5], empty200[5:40], empty200[40:]}, []int{0, 0, 1}, 0},
		{"body in its own read", []string{body404[:len(body404)-5], "nope!"}, []int{0, 1}, 1},
		{"body split", []string{body404[:len(body404)-3], "pe", "!"}, []int{0, 0, 1}, 1},
		{"no Content-Length", []string{noLength}, []int{1}, 0},
		{"two in one read", []string{body404 + empty200}, []int{2}, 1},
		{"second header split after a carried one", []string{empty200[:10], empty200[10:] + empty200[:30], empty200[30:]}, []int{0, 1, 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s session
			for i, r := range tt.reads {
				if got := s.feed([]byte(r)); got != tt.done[i] {
					t.Errorf("read %d completed %d responses, want %d", i, got, tt.done[i])
				}
			}
			if s.non2xx != tt.non2xx || len(s.carry) != 0 || s.skip != 0 {
				t.Errorf("non2xx %d, carry %q, skip %d; want %d, empty, 0", s.non2xx, s.carry, s.skip, tt.non2xx)
			}
			if want := len(strings.Join(tt.reads, "")); s.bytes != want {
				t.Errorf("bytes %d, want %d", s.bytes, want)
			}
		})
	}
}

func TestContentLength(t *testing.T) {
	tests := []struct {
		head string
		want int
	}{
		{"HTTP/1.1 200 OK\r\nContent-Length: 147\r\n\r\n", 147},
		{"HTTP/1.1 200 OK\r\nCONTENT-LENGTH:12\r\n\r\n", 12},
		{"HTTP/1.1 200 OK\r\nX-Content-Length: 9\r\n\r\n", 0},
		{"HTTP/1.1 200 OK\r\n\r\n", 0},
	}
	for _, tt := range tests {
		if got := contentLength([]byte(tt.head)); got != tt.want {
			t.Errorf("contentLength(%q) = %d, want %d", tt.head, got, tt.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no library", []string{"http://127.0.0.1:1/"}, "-lib"},
		{"unknown library", []string{"-lib", "evio", "http://127.0.0.1:1/"}, "-lib"},
		{"no connections", []string{"-lib", "gnet", "-c", "0", "http://127.0.0.1:1/"}, "-c"},
		{"no loops", []string{"-lib", "nbio", "-t", "0", "http://127.0.0.1:1/"}, "-t"},
		{"no time", []string{"-lib", "nbio", "-d", "0", "http://127.0.0.1:1/"}, "-d"},
		{"no URL", []string{"-lib", "nbio"}, "URL"},
		{"https", []string{"-lib", "gnet", "https://127.0.0.1:1/"}, "URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(t.Context(), tt.args, &out, &errOut); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("stderr %q, want one line naming %s", errOut.String(), tt.want)
			}
		})
	}
}
