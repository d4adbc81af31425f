// Package grafana holds the test of the Grafana dashboard beside it: it
// decodes against the essentials of Grafana's dashboard schema (its
// "classic" JSON model, kinds/dashboard/dashboard_kind.cue in Grafana's
// repository), strictly, so that a field Grafana does not know, a panel
// off the grid or overlapping another, or a query without its data source
// fails here rather than on import.
package grafana

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dashboard is the classic dashboard model's fields (the import-only
// __inputs, __requires and __elements aside, which this one does not use).
type dashboard struct {
	ID                   *int64          `json:"id"`
	UID                  string          `json:"uid"`
	Title                string          `json:"title"`
	Description          string          `json:"description"`
	Revision             int64           `json:"revision"`
	GnetID               string          `json:"gnetId"`
	Tags                 []string        `json:"tags"`
	Style                string          `json:"style"`
	Timezone             string          `json:"timezone"`
	Editable             *bool           `json:"editable"`
	GraphTooltip         int             `json:"graphTooltip"`
	Time                 *timeRange      `json:"time"`
	Timepicker           json.RawMessage `json:"timepicker"`
	FiscalYearStartMonth int             `json:"fiscalYearStartMonth"`
	LiveNow              bool            `json:"liveNow"`
	WeekStart            string          `json:"weekStart"`
	Refresh              any             `json:"refresh"`
	SchemaVersion        uint16          `json:"schemaVersion"`
	Version              uint32          `json:"version"`
	Panels               []panel         `json:"panels"`
	Templating           struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Annotations struct {
		List []json.RawMessage `json:"list"`
	} `json:"annotations"`
	Links    []json.RawMessage `json:"links"`
	Snapshot json.RawMessage   `json:"snapshot"`
}

type timeRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type dataSourceRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type panel struct {
	Type            string          `json:"type"`
	ID              uint32          `json:"id"`
	PluginVersion   string          `json:"pluginVersion"`
	Tags            []string        `json:"tags"`
	Targets         []target        `json:"targets"`
	Title           string          `json:"title"`
	Description     string          `json:"description"`
	Transparent     bool            `json:"transparent"`
	Datasource      *dataSourceRef  `json:"datasource"`
	GridPos         *gridPos        `json:"gridPos"`
	Links           json.RawMessage `json:"links"`
	Repeat          string          `json:"repeat"`
	RepeatDirection string          `json:"repeatDirection"`
	MaxDataPoints   float64         `json:"maxDataPoints"`
	Transformations json.RawMessage `json:"transformations"`
	Interval        string          `json:"interval"`
	TimeFrom        string          `json:"timeFrom"`
	TimeShift       string          `json:"timeShift"`
	Options         map[string]any  `json:"options"`
	FieldConfig     struct {
		Defaults  map[string]any    `json:"defaults"`
		Overrides []json.RawMessage `json:"overrides"`
	} `json:"fieldConfig"`
}

type gridPos struct {
	H, W, X, Y int
	Static     bool `json:"static"`
}

// target is a Prometheus data source's query.
type target struct {
	Datasource   *dataSourceRef `json:"datasource"`
	RefID        string         `json:"refId"`
	Expr         string         `json:"expr"`
	LegendFormat string         `json:"legendFormat"`
	Range        bool           `json:"range"`
	Instant      bool           `json:"instant"`
	Hide         bool           `json:"hide"`
}

type variable struct {
	Name        string         `json:"name"`
	Label       string         `json:"label"`
	Type        string         `json:"type"`
	Hide        int            `json:"hide"`
	Query       any            `json:"query"`
	Definition  string         `json:"definition"`
	Datasource  *dataSourceRef `json:"datasource"`
	Refresh     int            `json:"refresh"`
	Regex       string         `json:"regex"`
	Sort        int            `json:"sort"`
	Multi       bool           `json:"multi"`
	IncludeAll  bool           `json:"includeAll"`
	Current     map[string]any `json:"current"`
	Options     []any          `json:"options"`
	Description string         `json:"description"`
}

// load decodes the dashboard strictly: a field the model lacks fails.
func load(t *testing.T) dashboard {
	t.Helper()
	raw, err := os.ReadFile("pummel.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var d dashboard
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("pummel.json: %v", err)
	}
	return d
}

// uidPattern is what Grafana takes as a dashboard uid: 8 to 40 characters.
var uidPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{8,40}$`)

func TestDashboardIsAGrafanaDashboard(t *testing.T) {
	d := load(t)
	switch {
	case d.Title == "" || !uidPattern.MatchString(d.UID):
		t.Errorf("title %q, uid %q", d.Title, d.UID)
	case d.SchemaVersion < 36:
		t.Errorf("schemaVersion %d: Grafana 9's (36) at least", d.SchemaVersion)
	case d.GraphTooltip < 0 || d.GraphTooltip > 2 || d.Editable == nil:
		t.Errorf("graphTooltip %d, editable %v", d.GraphTooltip, d.Editable)
	case d.Time == nil || d.Time.From == "" || d.Time.To == "":
		t.Errorf("time %+v", d.Time)
	case d.Style != "" && d.Style != "dark" && d.Style != "light":
		t.Errorf("style %q", d.Style)
	}
	kinds := []string{"query", "adhoc", "constant", "datasource", "interval", "textbox", "custom", "system"}
	vars := map[string]variable{}
	for _, v := range d.Templating.List {
		if v.Name == "" || !slices.Contains(kinds, v.Type) || v.Hide < 0 || v.Hide > 2 {
			t.Errorf("variable %+v", v)
		}
		vars[v.Name] = v
	}
	if ds := vars["datasource"]; ds.Type != "datasource" || ds.Query != "prometheus" {
		t.Errorf("no Prometheus data source variable: %+v", ds)
	}
	if run := vars["run"]; run.Type != "query" || run.Definition != "label_values(pummel_requests_total, run)" || run.Datasource == nil || run.Datasource.UID != "${datasource}" {
		t.Errorf("no run variable listing the runs: %+v", run)
	}
}

func TestPanelsFitTheGridAndQueryTheRun(t *testing.T) {
	d := load(t)
	if len(d.Panels) == 0 {
		t.Fatal("no panels")
	}
	ids := map[uint32]bool{}
	var placed []gridPos
	for _, p := range d.Panels {
		g := p.GridPos
		switch {
		case p.Type != "timeseries" && p.Type != "stat":
			t.Errorf("panel %q: type %q, want timeseries or stat (Grafana's own)", p.Title, p.Type)
		case p.ID == 0 || ids[p.ID]:
			t.Errorf("panel %q: id %d missing or taken", p.Title, p.ID)
		case p.Title == "" || len(p.Targets) == 0:
			t.Errorf("panel %d: title %q, %d queries", p.ID, p.Title, len(p.Targets))
		case g == nil || g.H <= 0 || g.W <= 0 || g.W > 24 || g.X < 0 || g.X >= 24 || g.X+g.W > 24 || g.Y < 0:
			t.Errorf("panel %q: gridPos %+v off the 24-column grid", p.Title, g)
		case p.Datasource == nil || p.Datasource.Type != "prometheus" || p.Datasource.UID != "${datasource}":
			t.Errorf("panel %q: data source %+v", p.Title, p.Datasource)
		}
		ids[p.ID] = true
		if g == nil {
			continue
		}
		for _, o := range placed {
			if g.X < o.X+o.W && o.X < g.X+g.W && g.Y < o.Y+o.H && o.Y < g.Y+g.H {
				t.Errorf("panel %q at %+v overlaps a panel at %+v", p.Title, *g, o)
			}
		}
		placed = append(placed, *g)
		checkTargets(t, p)
	}
}

// checkTargets checks a panel's queries: each has its refId and the
// panel's data source, its brackets balance, and every series of
// pummel's it reads is the selected run's.
func checkTargets(t *testing.T, p panel) {
	t.Helper()
	refs := map[string]bool{}
	for _, q := range p.Targets {
		if q.RefID == "" || refs[q.RefID] || q.Datasource == nil || q.Datasource.UID != "${datasource}" || q.Expr == "" {
			t.Errorf("panel %q: query %+v", p.Title, q)
		}
		refs[q.RefID] = true
		if !balanced(q.Expr) {
			t.Errorf("panel %q: unbalanced brackets in %s", p.Title, q.Expr)
		}
		for _, m := range metric.FindAllStringIndex(q.Expr, -1) {
			if !strings.HasPrefix(q.Expr[m[1]:], `{run="$run"`) {
				t.Errorf("panel %q: %s is not the selected run's in %s", p.Title, q.Expr[m[0]:m[1]], q.Expr)
			}
		}
	}
}

var metric = regexp.MustCompile(`pummel_[a-z_]+`)

func balanced(s string) bool {
	var stack []rune
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(' || r == '[' || r == '{':
			stack = append(stack, r)
		case pairs[r] != 0:
			if len(stack) == 0 || stack[len(stack)-1] != pairs[r] {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0 && !quoted
}
