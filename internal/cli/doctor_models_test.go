package cli

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// doctor asks the Models API, with the configured key and base URL,
// whether each configured model is served, and says what the status table
// knows: legacy passes with a note, a missing model is advice.
func TestDoctorAsksTheModelsAPI(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.SetModels(llmtest.Model{ID: config.DefaultModelHaiku}, llmtest.Model{ID: config.DefaultModelSonnet},
		llmtest.Model{ID: "claude-sonnet-5-5"})
	vars := doctorEnv(t)
	delete(vars, "PAIGE_OFFLINE")
	vars["ANTHROPIC_API_KEY"] = "sk-ant-test-0001"
	vars["ANTHROPIC_BASE_URL"] = fake.URL()
	vars["PAIGE_MODEL_OPUS"] = "claude-opus-9-9"
	vars["AGENT_MODEL"] = "claude-sonnet-5-5"
	out, _, err := runPaige(t, vars, "", "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	haiku := lineOf(out, "model "+config.DefaultModelHaiku)
	if !strings.HasPrefix(haiku, "✓") || !strings.Contains(haiku, "served; PAIGE_MODEL_HAIKU, legacy: consider claude-haiku-5-5") {
		t.Errorf("haiku line %q\n%s", haiku, out)
	}
	if l := lineOf(out, "model claude-sonnet-5-5"); !strings.HasPrefix(l, "✓") || !strings.Contains(l, "served; AGENT_MODEL, active") {
		t.Errorf("agent model line %q\n%s", l, out)
	}
	opus := lineOf(out, "model claude-opus-9-9")
	if !strings.HasPrefix(opus, "✗") || !strings.Contains(opus, "not served for this key") || !strings.Contains(opus, "not in Paige's model table") ||
		!strings.Contains(out, "fix: set PAIGE_MODEL_OPUS to a current model") {
		t.Errorf("opus line %q\n%s", opus, out)
	}
	reqs := fake.ModelRequests()
	if len(reqs) != 4 {
		t.Fatalf("Models API requests: got %d, want 4", len(reqs))
	}
	for _, h := range reqs {
		if h.Get("x-api-key") != "sk-ant-test-0001" || h.Get("anthropic-version") == "" {
			t.Errorf("Models API request headers: %v", h)
		}
	}
}

// A retired model is advice with the successor, even offline; legacy
// defaults pass; without a key the API is not asked.
func TestDoctorModelStatusOffline(t *testing.T) {
	vars := doctorEnv(t)
	vars["PAIGE_MODEL_OPUS"] = "claude-opus-4-1-20250805"
	out, _, err := runPaige(t, vars, "", "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	l := lineOf(out, "model claude-opus-4-1-20250805")
	if !strings.HasPrefix(l, "✗") || !strings.Contains(l, "not checked (no ANTHROPIC_API_KEY)") || !strings.Contains(l, "retired (retirement 2026-08-05)") ||
		!strings.Contains(out, "fix: set PAIGE_MODEL_OPUS=claude-opus-5-5") {
		t.Errorf("retired line %q\n%s", l, out)
	}
	if l := lineOf(out, "model "+config.DefaultModelSonnet); !strings.HasPrefix(l, "✓") || !strings.Contains(l, "legacy") {
		t.Errorf("sonnet line %q", l)
	}
}

// An unreachable Models API is said plainly and is not a failure.
func TestDoctorModelsAPIUnreachable(t *testing.T) {
	vars := doctorEnv(t)
	delete(vars, "PAIGE_OFFLINE")
	vars["ANTHROPIC_API_KEY"] = "sk-ant-test-0001"
	vars["ANTHROPIC_BASE_URL"] = "http://127.0.0.1:" + freePort(t)
	out, _, err := runPaige(t, vars, "", "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	if l := lineOf(out, "model "+config.DefaultModelHaiku); !strings.HasPrefix(l, "✓") || !strings.Contains(l, "not checked: the Models API is unreachable") {
		t.Errorf("haiku line %q\n%s", l, out)
	}
}
