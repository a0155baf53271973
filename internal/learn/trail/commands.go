package trail

import (
	"path"
	"regexp"
	"strings"
)

// Category is what a command does for the project.
type Category string

// The categories of commands learned as procedures.
const (
	Test    Category = "test"
	Build   Category = "build"
	Lint    Category = "lint"
	Format  Category = "format"
	Run     Category = "run"
	Migrate Category = "migrate"
	Check   Category = "check"
	Deps    Category = "deps"
	// Services start what the project needs (docker compose up);
	// Script is a script of the project run by path.
	Services Category = "services"
	// Tool is a task of a library or of the project run through its
	// toolchain (mix ash.codegen).
	Tool   Category = "tool"
	Script Category = "script"
)

// labels are the content prefixes of procedures, by category.
var labels = map[Category]string{Test: "tests", Build: "build", Lint: "lint", Format: "format",
	Run: "start the project", Migrate: "migrate the database", Check: "checks", Deps: "install dependencies",
	Services: "start services", Script: "project script", Tool: "project task"}

// namespacedTask matches a mix task of a library or the project
// ("ash.codegen", "assets.deploy").
var namespacedTask = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z][a-z0-9_.]*$`)

// command is a recognised command: its category, its canonical form (what
// is learned and compared across sessions) and the facts it shows.
type command struct {
	Cat       Category
	Canonical string
	Facts     []string // "package manager: pnpm", "language: Go"
}

// nodePMs, pyPMs: package managers whose use is a fact worth knowing
// (the ecosystem offers several).
var nodePMs = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}

var pyRunners = map[string]bool{"uv": true, "poetry": true, "pipenv": true, "pdm": true, "hatch": true}

// classify recognises the normalised words args of one simple command. ok
// is false for anything that is not a build, test, lint, format, run,
// migrate, check or dependency command of a known toolchain.
func classify(args []string) (command, bool) {
	if len(args) == 0 {
		return command{}, false
	}
	tool := path.Base(args[0])
	switch {
	case tool == "go":
		return goCmd(args)
	case tool == "cargo":
		return cargoCmd(args)
	case tool == "mix" || tool == "iex":
		return mixCmd(args)
	case nodePMs[tool]:
		return nodeCmd(args)
	case tool == "npx" || tool == "bunx" || tool == "pnpx":
		c, ok := jsTool(args[1:])
		c.Canonical = tool + " " + c.Canonical
		c.Facts = append(c.Facts, "runtime: Node.js")
		return c, ok
	case pyRunners[tool] || tool == "pip" || tool == "pip3":
		return pyPMCmd(args)
	case tool == "bundle" || tool == "rails" || tool == "rake" || tool == "rspec" || tool == "rubocop":
		if tool != args[0] && !isProjectScript("./"+strings.TrimPrefix(args[0], "./")) {
			return command{}, false // some other rails than the project's bin/rails
		}
		return rubyCmd(args)
	case tool == "make" || tool == "just" || tool == "task":
		return targetCmd(args)
	}
	if c, ok := pyTool(args); ok {
		return c, true
	}
	if c, ok := jsTool(args); ok {
		c.Facts = append(c.Facts, "runtime: Node.js")
		return c, true
	}
	return otherCmd(args)
}

// Subcommands by category, per toolchain.
var (
	goCats    = map[string]Category{"test": Test, "build": Build, "vet": Lint, "run": Run, "fmt": Format, "generate": Build}
	cargoCats = map[string]Category{"test": Test, "nextest": Test, "llvm-cov": Test, "build": Build, "check": Build,
		"clippy": Lint, "fmt": Format, "run": Run}
	mixCats = map[string]Category{"test": Test, "compile": Build, "phx.server": Run, "run": Run, "format": Format,
		"credo": Lint, "dialyzer": Lint, "ecto.migrate": Migrate, "ecto.setup": Migrate, "ecto.reset": Migrate,
		"deps.get": Deps, "setup": Deps, "precommit": Check, "quality": Check, "check": Check}
	djangoCats = map[string]Category{"runserver": Run, "migrate": Migrate, "test": Test}
)

func goCmd(args []string) (command, bool) {
	if len(args) < 2 {
		return command{}, false
	}
	if args[1] == "mod" && len(args) > 2 && (args[2] == "tidy" || args[2] == "download") {
		return command{Cat: Deps, Canonical: "go mod " + args[2], Facts: []string{"language: Go"}}, true
	}
	cat, ok := goCats[args[1]]
	if !ok {
		return command{}, false
	}
	return command{Cat: cat, Canonical: canonical(args, cat, 2), Facts: []string{"language: Go"}}, true
}

func cargoCmd(args []string) (command, bool) {
	if len(args) < 2 {
		return command{}, false
	}
	cat, ok := cargoCats[args[1]]
	if !ok {
		return command{}, false
	}
	n := 2
	if args[1] == "nextest" && len(args) > 2 && args[2] == "run" {
		n = 3
	}
	return command{Cat: cat, Canonical: canonical(args, cat, n), Facts: []string{"language: Rust"}}, true
}

func mixCmd(args []string) (command, bool) {
	if args[0] == "iex" { // iex -S mix phx.server
		if len(args) >= 4 && args[1] == "-S" && args[2] == "mix" && args[3] == "phx.server" {
			return command{Cat: Run, Canonical: "iex -S mix phx.server", Facts: []string{"language: Elixir"}}, true
		}
		return command{}, false
	}
	if len(args) < 2 {
		return command{Cat: Build, Canonical: "mix", Facts: []string{"language: Elixir"}}, true
	}
	cat, ok := mixCats[args[1]]
	if !ok {
		if !namespacedTask.MatchString(args[1]) {
			return command{}, false
		}
		// a library's or the project's own task (mix ash.codegen, mix
		// assets.deploy): the task is the procedure, its arguments (a
		// migration's name) are the occasion
		return command{Cat: Tool, Canonical: "mix " + args[1], Facts: []string{"language: Elixir"}}, true
	}
	return command{Cat: cat, Canonical: canonical(args, cat, 2), Facts: []string{"language: Elixir"}}, true
}

// nodeCmd handles npm, pnpm, yarn and bun: their own subcommands and
// package.json scripts.
func nodeCmd(args []string) (command, bool) {
	pm := path.Base(args[0])
	facts := []string{"package manager: " + pm, "runtime: Node.js"}
	if pm == "bun" {
		facts[1] = "runtime: Bun"
	}
	if len(args) < 2 {
		if pm == "yarn" {
			return command{Cat: Deps, Canonical: "yarn", Facts: facts}, true
		}
		return command{}, false
	}
	sub, script := args[1], ""
	switch sub {
	case "install", "i", "ci", "add":
		if has(args, "-g") || has(args, "--global") {
			return command{}, false // a global tool, not the project's dependencies
		}
		return command{Cat: Deps, Canonical: pm + " " + map[bool]string{true: "install", false: sub}[sub == "i"], Facts: facts}, true
	case "run", "run-script":
		if len(args) < 3 {
			return command{}, false
		}
		script = args[2]
	case "exec", "dlx", "x":
		c, ok := jsTool(args[2:])
		c.Canonical = pm + " " + sub + " " + c.Canonical
		c.Facts = append(c.Facts, facts...)
		return c, ok
	default:
		script = sub
	}
	cat, ok := scriptCategory(script)
	if !ok && sub != "run" {
		if c, ok := jsTool(args[1:]); ok { // pnpm vitest run: a binary of the project
			c.Canonical = pm + " " + c.Canonical
			c.Facts = append(c.Facts, facts...)
			return c, true
		}
	}
	if !ok {
		return command{}, false
	}
	words := []string{pm}
	if sub == "run" || sub == "run-script" {
		words = append(words, "run")
	}
	return command{Cat: cat, Canonical: strings.Join(append(words, script), " "), Facts: facts}, true
}

// scriptCategory maps a package.json script or make/just target name to a
// category.
func scriptCategory(name string) (Category, bool) {
	n := strings.ToLower(name)
	switch {
	case n == "test" || n == "tests" || n == "t" || strings.HasPrefix(n, "test:") || n == "e2e" || n == "coverage" || n == "cov":
		return Test, true
	case n == "build" || strings.HasPrefix(n, "build:") || n == "compile":
		return Build, true
	case n == "lint" || strings.HasPrefix(n, "lint:") || n == "typecheck" || n == "type-check" || n == "vet" || n == "clippy":
		return Lint, true
	case n == "format" || n == "fmt" || n == "prettier" || strings.HasPrefix(n, "format:"):
		return Format, true
	case n == "dev" || n == "start" || n == "serve" || n == "run" || n == "server" || n == "watch":
		return Run, true
	case n == "migrate" || strings.HasPrefix(n, "db:migrate") || strings.HasPrefix(n, "migrate:"):
		return Migrate, true
	case n == "check" || n == "ci" || n == "verify" || n == "all" || n == "precommit" || n == "pre-commit":
		return Check, true
	case n == "install" || n == "setup" || n == "deps" || n == "bootstrap":
		return Deps, true
	}
	return "", false
}

func has(args []string, w string) bool {
	for _, a := range args {
		if a == w {
			return true
		}
	}
	return false
}
