package h2fixture

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// handler returns the honest server's handler.
func (h *Honest) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.counter.add(r.URL.Path)
		n, _ := io.Copy(io.Discard, r.Body)
		h.counter.body.Add(n)
		h.answer(w, r.URL.Path)
	})
}

// answer writes the response the path asks for.
func (h *Honest) answer(w http.ResponseWriter, path string) {
	kind, arg, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	n, err := strconv.Atoi(arg)
	switch {
	case path == "/":
		w.WriteHeader(http.StatusOK)
	case err != nil || n < 0:
		w.WriteHeader(http.StatusNotFound)
	case kind == "bytes":
		w.Header().Set("Content-Length", strconv.Itoa(n))
		_, _ = w.Write(body(n))
	case kind == "delay":
		select {
		case <-time.After(time.Duration(n) * time.Millisecond):
		case <-h.done:
		}
		w.WriteHeader(http.StatusOK)
	case kind == "status" && n >= 200 && n <= 599:
		w.WriteHeader(n)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}
