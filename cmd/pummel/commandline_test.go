package main

import (
	"io"
	"strings"
	"testing"
)

// recorded returns the command line as pummel records it.
func recorded(args ...string) commandLine {
	app := newApp(&commandLine{}, io.Discard, io.Discard)
	return recordArgs(scanArgs(args, specOf(flagsFor(app, args)), commandNames(app)))
}

func TestRecordedCommandRedactsEverySpelling(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"-H", []string{"-H", "X-Auth: s1", "u"}, "pummel -H 'X-Auth: REDACTED' u"},
		{"--H", []string{"--H", "X-Auth: s1", "u"}, "pummel --H 'X-Auth: REDACTED' u"},
		{"---header", []string{"---header", "X-Session: s1", "u"}, "pummel ---header 'X-Session: REDACTED' u"},
		{"-header=", []string{"-header=X-Password: s1", "u"}, "pummel '-header=X-Password: REDACTED' u"},
		{"-H=", []string{"-H=Cookie: a=s1", "u"}, "pummel '-H=Cookie: REDACTED' u"},
		{"attached -H", []string{"-HAuthorization: Bearer s1", "u"}, "pummel '-HAuthorization: REDACTED' u"},
		{"harmless header kept", []string{"-H", "Accept: */*", "u"}, "pummel -H 'Accept: */*' u"},
		{"URL password and query in order", []string{"http://u:s1@h/x?z=1&sig=s2&X-Amz-Signature=s3&a=2"},
			"pummel 'http://REDACTED@h/x?z=1&sig=REDACTED&X-Amz-Signature=REDACTED&a=2'"},
		{"URL user name alone", []string{"http://T0KEN@h/x"}, "pummel http://REDACTED@h/x"},
		{"--ready-url user name", []string{"--ready-url", "http://T0KEN@h/", "u"}, "pummel --ready-url http://REDACTED@h/ u"},
		{"script arguments", []string{"-s", "auth.lua", "u", "--", "user:s1", "100"}, "pummel -s auth.lua u -- REDACTED REDACTED"},
		{"exec", []string{"--exec", "server --api-key=s1 --port 1", "u"}, "pummel --exec 'server --api-key=REDACTED --port 1' u"},
		{"exec=", []string{"--exec=server --token s1", "u"}, "pummel '--exec=server --token REDACTED' u"},
		{"ready URL", []string{"--ready-url", "http://h/?token=s1", "u"}, "pummel --ready-url 'http://h/?token=REDACTED' u"},
		{"form body", []string{"-b", "user=a&password=s1", "u"}, "pummel -b '<redacted: 18 bytes, sha256 23775d9e>' u"},
		{"JSON body", []string{"-b", `{"password":"hunter2"}`, "u"}, "pummel -b '<redacted: 22 bytes, sha256 7881d759>' u"},
		{"--body=", []string{`--body={"password":"hunter2"}`, "u"}, "pummel '--body=<redacted: 22 bytes, sha256 7881d759>' u"},
		{"attached -b", []string{`-b{"password":"hunter2"}`, "u"}, "pummel '-b<redacted: 22 bytes, sha256 7881d759>' u"},
		{"body after the URL", []string{"u", "--body", "hunter2"}, "pummel u --body '<redacted: 7 bytes, sha256 f52fbd32>'"},
		{"--body-file's path kept", []string{"--body-file", "login.json", "u"}, "pummel --body-file login.json u"},
		{"--show-secrets body", []string{"-b", `{"password":"hunter2"}`, "--show-secrets", "u"}, `pummel -b '{"password":"hunter2"}' --show-secrets u`},
		{"flags after the URL", []string{"u", "-c2", "-H", "X-Api-Key: s1"}, "pummel u -c2 -H 'X-Api-Key: REDACTED'"},
		{"--show-secrets", []string{"-H", "X-Auth: s1", "--show-secrets", "u"}, "pummel -H 'X-Auth: s1' --show-secrets u"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recorded(tt.args...).command; got != tt.want {
				t.Errorf("recorded %q\nwant     %q", got, tt.want)
			}
		})
	}
}

func TestRecordScrubsFreeText(t *testing.T) {
	rec := recorded("-H", "X-Auth: planted-s1", "--exec", "server --api-key planted-s2", "-s", "a.lua",
		"http://u:planted-s3@h/?sig=planted-s4", "--", "user:planted-s5")
	for _, secret := range []string{"planted-s1", "planted-s2", "planted-s3", "planted-s4", "planted-s5"} {
		line := rec.text("a.lua:3: rejected " + secret + " (" + secret + ")")
		if strings.Contains(line, secret) {
			t.Errorf("text kept %s: %q", secret, line)
		}
	}
}
