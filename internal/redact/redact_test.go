package redact

import (
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	tests := []struct {
		name   string
		secret bool
	}{
		{"Authorization", true},
		{"Proxy-Authorization", true},
		{"X-Auth", true},
		{"X-Password", true},
		{"passwd", true},
		{"X-Session", true},
		{"Cookie", true},
		{"Set-Cookie", true},
		{"X-Api-Key", true},
		{"api-token", true},
		{"X-Client-Secret", true},
		{"sig", true},
		{"X-Amz-Signature", true},
		{"X-Amz-Credential", true},
		{"Accept", false},
		{"Content-Type", false},
		{"connections", false},
		{"q", false},
	}
	for _, tt := range tests {
		if got := SecretName(tt.name); got != tt.secret {
			t.Errorf("SecretName(%q) = %v, want %v", tt.name, got, tt.secret)
		}
	}
}

func TestHeader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Authorization: Bearer abc", "Authorization: REDACTED"},
		{"cookie: a=b", "cookie: REDACTED"},
		{"X-Api-Key: k", "X-Api-Key: REDACTED"},
		{"X-Password: p", "X-Password: REDACTED"},
		{"X-Session: s", "X-Session: REDACTED"},
		{"Accept: text/html", "Accept: text/html"},
		{"X-Auth:", "X-Auth:"},
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
		{"http://u:pw@h/x", "http://REDACTED@h/x"},
		{"http://u@h/x", "http://REDACTED@h/x"},
		{"http://T0KEN@h:8080/x?q=1", "http://REDACTED@h:8080/x?q=1"},
		{"https://:pw@h/", "https://REDACTED@h/"},
		{"http://a@b@h/", "http://REDACTED@h/"},
		{"http://@h/", "http://@h/"},
		{"http://h/x?api_key=1&q=2", "http://h/x?api_key=REDACTED&q=2"},
		{"http://h/x?z=1&token=2&a=3", "http://h/x?z=1&token=REDACTED&a=3"},
		{"http://h/x?q=1", "http://h/x?q=1"},
		{"http://h/x?db_password=1&q=2#frag", "http://h/x?db_password=REDACTED&q=2#frag"},
		{"http://h/s3?X-Amz-Signature=abc&X-Amz-Date=1", "http://h/s3?X-Amz-Signature=REDACTED&X-Amz-Date=1"},
		{"http://h/x?sig=abc", "http://h/x?sig=REDACTED"},
		{"http://h/x?%74oken=abc", "http://h/x?%74oken=REDACTED"},
		{"http://u:pw@127.0.0.1:{port}/x", "http://REDACTED@127.0.0.1:{port}/x"},
		{"http://h/a@b:c", "http://h/a@b:c"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCommand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"server --api-key=k1 --port 8080", "server --api-key=REDACTED --port 8080"},
		{"server --api-key k1 --port 8080", "server --api-key REDACTED --port 8080"},
		{"server -password 'a b' -v", "server -password REDACTED -v"},
		{"server --verbose --token", "server --verbose --token"},
		{"DB_PASSWORD=pw ./server", "DB_PASSWORD=REDACTED ./server"},
		{"server --upstream http://u:pw@h/?sig=s", "server --upstream http://REDACTED@h/?sig=REDACTED"},
		{"curl -H 'X-Token: t1' h", "curl -H 'X-Token: REDACTED' h"},
		{"server --port 8080  -v", "server --port 8080  -v"},
		{"a=1&token=t2", "a=1&token=REDACTED"},
	}
	for _, tt := range tests {
		if got := new(Secrets).Command(tt.in); got != tt.want {
			t.Errorf("Command(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSecretsText(t *testing.T) {
	var s Secrets
	s.Header("Authorization: Bearer t0ken-value")
	s.URL("http://u:pa55@h/?sig=s1gnature")
	s.URL("http://t0k3n-user@h/")
	s.Command("server --api-key=k3y-value")
	s.Add("ab") // too short to look for in prose
	tests := []struct{ in, want string }{
		{"script.lua:3: denied t0ken-value", "script.lua:3: denied REDACTED"},
		{"got Bearer t0ken-value", "got REDACTED"},
		{"wrong password pa55 for u", "wrong password REDACTED for u"},
		{"unknown user t0k3n-user", "unknown user REDACTED"},
		{"server said k3y-value; s1gnature", "server said REDACTED; REDACTED"},
		{"GET http://v:other@h/ failed", "GET http://REDACTED@h/ failed"},
		{"GET http://T0KEN-user@h/ failed", "GET http://REDACTED@h/ failed"},
		{"flag --token=abc rejected", "flag --token=REDACTED rejected"},
		{"it's a cab", "it's a cab"},
		{"/tmp/secret.lua:3: bad", "/tmp/secret.lua:3: bad"},
		{"-H/--header: \"Accept\" is fine", "-H/--header: \"Accept\" is fine"},
		{"got Basic dTpwYTU1 and dDBrM24tdXNlcjo=", "got Basic REDACTED and REDACTED"}, // u:pa55, t0k3n-user:
		{"bad http://h/?sig=x1: for /w?token=y2); next", "bad http://h/?sig=REDACTED: for /w?token=REDACTED); next"},
	}
	for _, tt := range tests {
		if got := s.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := (*Secrets)(nil).Text("token=abc t0ken-value"); got != "token=REDACTED t0ken-value" {
		t.Errorf("nil Secrets: Text = %q: want redaction by name only", got)
	}
}

func TestShellQuote(t *testing.T) {
	if q := ShellQuote([]string{"-H", "A: b c", "it's"}); q != `-H 'A: b c' 'it'\''s'` {
		t.Errorf("ShellQuote = %s", q)
	}
	if strings.Contains(ShellQuote([]string{"plain"}), "'") {
		t.Error("ShellQuote quoted a plain word")
	}
}

func TestURLTemplate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:{port}/", "http://127.0.0.1:{port}/"},
		{"http://user:pw@127.0.0.1:{port}/x", "http://REDACTED@127.0.0.1:{port}/x"},
		{"http://user@host/", "http://REDACTED@host/"},
		{"http://h:{port}/s?api_key=abc&page=2", "http://h:{port}/s?api_key=REDACTED&page=2"},
		{"http://h/s?page=2#frag", "http://h/s?page=2#frag"},
		{"http://h/s?token=${TOKEN}", "http://h/s?token=${TOKEN}"},
		{"http://h/s?Password=pw&page=2", "http://h/s?Password=REDACTED&page=2"},
	}
	for _, tt := range tests {
		if got := URLTemplate(tt.in); got != tt.want {
			t.Errorf("URLTemplate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBody(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"JSON with a password", `{"password":"hunter2"}`, "<redacted: 22 bytes, sha256 7881d759>"},
		{"form", "user=a&password=s1", "<redacted: 18 bytes, sha256 23775d9e>"},
		{"nothing secret by name", "hello", "<redacted: 5 bytes, sha256 2cf24dba>"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Body(tt.in); got != tt.want {
				t.Errorf("Body(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSecretsBodyScrubsText(t *testing.T) {
	var s Secrets
	s.Body(`user=u&password=planted-1`)
	s.Body(`{"password":"planted-2"}`)
	for _, secret := range []string{"planted-1", `{"password":"planted-2"}`} {
		if got := s.Text("rejected " + secret); strings.Contains(got, secret) {
			t.Errorf("Text kept %s: %q", secret, got)
		}
	}
}
