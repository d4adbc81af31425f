package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// planted are the secrets TestNoOutputShowsASecret hides in a command
// line, one per place a secret can be given.
var planted = map[string]string{
	"--H X-Auth":                "planted-xauth-1",
	"---header X-Password":      "planted-xpassword-2",
	"-header=X-Session":         "planted-xsession-3",
	"-H=Authorization":          "planted-bearer-4",
	"script argument":           "planted-scriptarg-5",
	"--exec --api-key=":         "planted-apikey-6",
	"query sig=":                "planted-sig-7",
	"query X-Amz-Signature=":    "planted-amzsig-8",
	"URL password":              "planted-urlpass-9",
	"URL user name":             "planted-urluser-14",
	"--ready-url query token=":  "planted-readytoken-10",
	"--exec environment":        "planted-env-11",
	"-b password=":              "planted-body-12",
	"script error quoting init": "planted-initarg-13",
}

// secretServer writes a script that starts `pummel serve` on addr whatever
// its arguments, for --exec lines that carry secrets.
func secretServer(t *testing.T, dir, addr string) string {
	t.Helper()
	path := filepath.Join(dir, "server.sh")
	script := fmt.Sprintf("#!/bin/sh\nexec %s serve --addr %s\n", pummelBinary(t), addr)
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// secretScript answers every other response with an error that quotes a
// secret header, so that the secret is in an error cause.
const secretScript = `
local n = 0
function response(status, headers, body)
  n = n + 1
  if n % 2 == 0 then
    error("denied " .. wrk.headers["X-Auth"] .. " with " .. wrk.headers["Authorization"])
  end
end
`

func TestNoOutputShowsASecret(t *testing.T) {
	dir := t.TempDir()
	addr := fixture.FreeAddr(t)
	lua := filepath.Join(dir, "secret.lua")
	if err := os.WriteFile(lua, []byte(secretScript), 0o600); err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("http://%s:%s@%s/?z=1&sig=%s&X-Amz-Signature=%s&a=2",
		planted["URL user name"], planted["URL password"], addr, planted["query sig="], planted["query X-Amz-Signature="])
	args := func(format string) []string {
		return []string{
			"-c", "2", "-n", "40", "--format", format,
			"--H", "X-Auth: " + planted["--H X-Auth"],
			"---header", "X-Password: " + planted["---header X-Password"],
			"-header=X-Session: " + planted["-header=X-Session"],
			"-H=Authorization: Bearer " + planted["-H=Authorization"],
			"-b", "user=u&password=" + planted["-b password="],
			"--exec", secretServer(t, dir, addr) + " --api-key=" + planted["--exec --api-key="] + " SECRET_TOKEN=" + planted["--exec environment"],
			"--ready-url", "http://" + addr + "/?token=" + planted["--ready-url query token="], "--settle", "0",
			"-o", filepath.Join(dir, format+".json"), "-o", filepath.Join(dir, format+".md"), "-o", filepath.Join(dir, format+".txt"),
			"--hdr-log", filepath.Join(dir, format+".hlog"), "--log-requests", filepath.Join(dir, format+".csv"),
			"-s", lua, url, "--", "user:" + planted["script argument"],
		}
	}
	var outputs []string
	for _, format := range []string{"text", "json"} {
		code, stdout, stderr := pummel(t.Context(), args(format)...)
		// The script's error is an error cause, with the header scrubbed.
		if code != 0 || !strings.Contains(stdout, "denied REDACTED with REDACTED") {
			t.Fatalf("--format %s: exit %d, no scrubbed script error\nstdout:\n%s\nstderr:\n%s", format, code, stdout, stderr)
		}
		outputs = append(outputs, stdout, stderr)
		for _, ext := range []string{".json", ".md", ".txt", ".hlog", ".csv"} {
			b, err := os.ReadFile(filepath.Join(dir, format+ext))
			if err != nil {
				t.Fatal(err)
			}
			outputs = append(outputs, string(b))
		}
	}
	// A script that fails at init, quoting its argument: the error line.
	initErr := filepath.Join(dir, "init.lua")
	os.WriteFile(initErr, []byte("function init(args)\n  error('bad credentials ' .. args[1])\nend\n"), 0o600) //nolint:errcheck // read below
	code, stdout, stderr := pummel(t.Context(), "-n", "5", "-s", initErr, "http://"+addr+"/", "--", planted["script error quoting init"])
	if code == 0 {
		t.Errorf("a script failing at init: exit 0")
	}
	outputs = append(outputs, stdout, stderr)
	for place, secret := range planted {
		for _, out := range outputs {
			if strings.Contains(out, secret) {
				t.Errorf("the secret given as %s is printed:\n%s", place, out)
				break
			}
		}
	}
}

// TestURLErrorHidesTheUserName: an error line that quotes the URL hides
// its user name, a credential by itself (http://TOKEN@host/).
func TestURLErrorHidesTheUserName(t *testing.T) {
	for _, url := range []string{"http://planted-urluser-15@h/a b", "ftp://planted-urluser-15@h/"} {
		code, stdout, stderr := pummel(t.Context(), "-n", "1", url)
		if code != exitUsage || !strings.Contains(stderr, "URL: ") || strings.Contains(stdout+stderr, "planted-urluser-15") {
			t.Errorf("%s: exit %d, stderr %q: want 2 and the user name hidden", url, code, stderr)
		}
	}
}
