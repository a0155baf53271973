package dashboard

import (
	"os"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

// manifests maps a project-root file to the technology it reveals.
var manifests = []struct{ file, tech string }{
	{"go.mod", "Go"},
	{"tsconfig.json", "TypeScript"},
	{"package.json", "JavaScript/Node.js"},
	{"deno.json", "Deno"},
	{"Cargo.toml", "Rust"},
	{"pyproject.toml", "Python"},
	{"requirements.txt", "Python"},
	{"setup.py", "Python"},
	{"Gemfile", "Ruby"},
	{"pom.xml", "Java (Maven)"},
	{"build.gradle", "Java/Kotlin (Gradle)"},
	{"build.gradle.kts", "Kotlin (Gradle)"},
	{"composer.json", "PHP"},
	{"mix.exs", "Elixir"},
	{"Package.swift", "Swift"},
	{"pubspec.yaml", "Dart/Flutter"},
	{"CMakeLists.txt", "C/C++ (CMake)"},
	{"Dockerfile", "Docker"},
}

// StackFromNames names the technologies whose manifest files are among
// names (the project root's entries), in a fixed order, comma-separated;
// "unknown" when none is recognised.
func StackFromNames(names []string) string {
	have := make(map[string]bool, len(names))
	for _, n := range names {
		have[n] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range manifests {
		if have[m.file] && !seen[m.tech] {
			seen[m.tech] = true
			out = append(out, m.tech)
		}
	}
	if len(out) == 0 {
		return "unknown"
	}
	return strings.Join(out, ", ")
}

// TechStack reads the project root and returns [StackFromNames] of its
// entries ("unknown" when it cannot be read).
func TechStack(projectDir string) string {
	entries, err := os.ReadDir(projectDir)
	if err != nil || projectDir == "" {
		return "unknown"
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return StackFromNames(names)
}

// OverallStage is the user's overall Dreyfus stage for the learning
// materials prompt: the lower median of the assessed stages ("novice" when
// none is assessed). The median keeps one strong or weak skill area from
// deciding the level of every resource.
func OverallStage(stages []issueassessment.Stage) string {
	var ranks []int
	for _, s := range stages {
		if r := stageRank(s.Stage); r >= 0 {
			ranks = append(ranks, r)
		}
	}
	if len(ranks) == 0 {
		return string(coach.DefaultDreyfusStage)
	}
	sort.Ints(ranks)
	return string(stageOrder[ranks[(len(ranks)-1)/2]])
}

var stageOrder = []coach.DreyfusStage{coach.Novice, coach.AdvancedBeginner, coach.Competent, coach.Proficient, coach.Expert}

func stageRank(s string) int {
	for i, st := range stageOrder {
		if string(st) == s {
			return i
		}
	}
	return -1
}
