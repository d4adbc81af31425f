package redact

import "testing"

func TestHeader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Authorization: Bearer abc", "Authorization: REDACTED"},
		{"cookie: a=b", "cookie: REDACTED"},
		{"Proxy-Authorization: Basic x", "Proxy-Authorization: REDACTED"},
		{"X-Api-Key: k", "X-Api-Key: REDACTED"},
		{"X-Auth-Token: t", "X-Auth-Token: REDACTED"},
		{"X-Client-Secret: s", "X-Client-Secret: REDACTED"},
		{"Accept: text/html", "Accept: text/html"},
		{"no colon", "no colon"},
	}
	for _, tt := range tests {
		if got := Header(tt.in); got != tt.want {
			t.Errorf("Header(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://u:pw@h/x", "http://u:REDACTED@h/x"},
		{"http://u@h/x", "http://u@h/x"},
		{"http://h/x?api_key=1&q=2", "http://h/x?api_key=REDACTED&q=2"},
		{"http://h/x?token=1", "http://h/x?token=REDACTED"},
		{"http://h/x?q=1", "http://h/x?q=1"},
		{"http://h/x?db_password=1&q=2", "http://h/x?db_password=REDACTED&q=2"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArgs(t *testing.T) {
	in := []string{"-k", "-H", "Authorization: Bearer s3", "-HX-Api-Key: k2", "--header=Cookie: c", "http://u:pw@h/", "-c", "32"}
	want := []string{"-k", "-H", "Authorization: REDACTED", "-HX-Api-Key: REDACTED", "--header=Cookie: REDACTED", "http://u:REDACTED@h/", "-c", "32"}
	got := Args(in)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Args[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	if q := ShellQuote([]string{"-H", "A: b c", "it's"}); q != `-H 'A: b c' 'it'\''s'` {
		t.Errorf("ShellQuote = %s", q)
	}
}
