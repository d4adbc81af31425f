package suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumentedPlan loads the full example plan of docs/suite.md, the
// plans' reference, so that the documentation stays a valid plan.
func TestDocumentedPlan(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "suite.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/suite.md: no yaml block")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bodies"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bodies", "get-item.json"), []byte(`{"Key": {"pk": {"S": "user-1"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "plan.yaml")
	if err := os.WriteFile(path, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROTO_TOKEN", "test-token")
	s, err := Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 7 || len(s.modes) != 2 || len(s.ops) != 5 || s.ops[1].dependsOn != 0 {
		t.Errorf("runs %d, %d modes, %d operations", s.Runs, len(s.modes), len(s.ops))
	}
	if item := s.ops[3]; len(item.checks.JSON) != 3 || item.checks.JSON[0].Value != "1" || item.shape.kind != "open" {
		t.Errorf("get-item: %+v", item)
	}
}
