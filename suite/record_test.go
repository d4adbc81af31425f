package suite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecordedPlanHoldsNoSecrets(t *testing.T) {
	t.Setenv("PUMMEL_SUITE_TOKEN", "expanded-value")
	src := strings.Replace(minimal, "url: http://127.0.0.1:{port}/\n", "url: http://url-user-token@127.0.0.1:{port}/\n", 1)
	src = strings.Replace(src, "    load:", `    headers:
      Authorization: Bearer literal-secret
      X-Trace: ${PUMMEL_SUITE_TOKEN}
    body: '{"password":"body-secret"}'
    load:`, 1) + "modes:\n  - name: m\n    env: {DB_PASSWORD: hunter2, LEVEL: debug}\n"
	s, err := Load(context.Background(), writePlan(t, src))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s.Plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"literal-secret", "expanded-value", "hunter2", "url-user-token", "body-secret"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("recorded plan holds %q: %s", secret, b)
		}
	}
	if body := s.Plan.Operations[0].Body; body == nil || !strings.HasPrefix(*body, "<redacted: 26 bytes, sha256 ") {
		t.Errorf("recorded body %v, want its size and digest", body)
	}
	for _, kept := range []string{"${PUMMEL_SUITE_TOKEN}", "{port}", "debug"} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("recorded plan lacks %q: %s", kept, b)
		}
	}
}

func TestDescribeServerLooksPastWrappers(t *testing.T) {
	b := describeServer([]string{"nice", "-n", "5", "/bin/sh", "-c", "exit 0"})
	if b == nil || filepath.Base(b.Path) != "sh" && filepath.Base(b.Path) != "dash" && filepath.Base(b.Path) != "bash" {
		t.Errorf("described %+v, want the shell, not the wrapper", b)
	}
}
