package trail

import (
	"path"
	"strings"
)

// jsTool recognises a JavaScript tool run directly or through npx/exec.
func jsTool(args []string) (command, bool) {
	if len(args) == 0 {
		return command{}, false
	}
	tool := path.Base(args[0])
	sub := ""
	if len(args) > 1 {
		sub = args[1]
	}
	var cat Category
	switch {
	case tool == "jest" || tool == "vitest" || tool == "mocha" || tool == "ava" || tool == "playwright" && sub == "test":
		cat = Test
	case tool == "eslint" || tool == "biome" && (sub == "lint" || sub == "check") || tool == "tsc" && has(args, "--noEmit"):
		cat = Lint
	case tool == "prettier" || tool == "biome" && sub == "format":
		cat = Format
	case tool == "tsc" || (tool == "vite" || tool == "next" || tool == "nuxt" || tool == "astro") && sub == "build" || tool == "webpack" || tool == "esbuild":
		cat = Build
	case (tool == "vite" || tool == "next" || tool == "nuxt" || tool == "astro") && (sub == "" || sub == "dev" || sub == "start"):
		cat = Run
	case tool == "prisma" && sub == "migrate" || tool == "knex" && strings.HasPrefix(sub, "migrate") || tool == "drizzle-kit" && (sub == "migrate" || sub == "push"):
		cat = Migrate
	default:
		return command{}, false
	}
	n := 1
	if tool == "vitest" && (sub == "run" || sub == "watch") || tool == "playwright" {
		n = 2
	}
	return command{Cat: cat, Canonical: canonical(args, cat, n)}, true
}

// pyTool recognises Python tools run directly or as "python -m tool".
func pyTool(args []string) (command, bool) {
	tool := path.Base(args[0])
	facts := []string{"language: Python"}
	if tool == "python" || tool == "python3" {
		if len(args) >= 3 && args[1] == "-m" {
			c, ok := pyTool(args[2:])
			c.Canonical = tool + " -m " + c.Canonical
			return c, ok
		}
		if len(args) >= 3 && path.Base(args[1]) == "manage.py" {
			if cat, ok := djangoCats[args[2]]; ok {
				return command{Cat: cat, Canonical: tool + " manage.py " + args[2], Facts: facts}, true
			}
		}
		return command{}, false
	}
	sub := ""
	if len(args) > 1 {
		sub = args[1]
	}
	var cat Category
	switch {
	case tool == "pytest" || tool == "tox" || tool == "nox" || tool == "unittest":
		cat = Test
	case tool == "ruff" && sub == "format" || tool == "black" || tool == "isort":
		cat = Format
	case tool == "ruff" || tool == "flake8" || tool == "mypy" || tool == "pylint" || tool == "pyright":
		cat = Lint
	case tool == "uvicorn" || tool == "gunicorn" || tool == "flask" && sub == "run" || tool == "fastapi" && (sub == "dev" || sub == "run"):
		cat = Run
	case tool == "alembic" && sub == "upgrade":
		cat = Migrate
	default:
		return command{}, false
	}
	return command{Cat: cat, Canonical: canonical(args, cat, 1), Facts: facts}, true
}

// pyPMCmd handles uv, poetry, pipenv, pdm, hatch and pip.
func pyPMCmd(args []string) (command, bool) {
	pm := path.Base(args[0])
	if pm == "pip3" {
		pm = "pip"
	}
	facts := []string{"package manager: " + pm, "language: Python"}
	if len(args) < 2 {
		return command{}, false
	}
	switch args[1] {
	case "run":
		if len(args) < 3 {
			return command{}, false
		}
		inner := args[2:]
		c, ok := pyTool(inner)
		if !ok {
			return command{}, false
		}
		c.Canonical = pm + " run " + c.Canonical
		c.Facts = append(facts, c.Facts[1:]...)
		return c, true
	case "sync", "install", "add", "lock":
		if pm == "pip" && args[1] != "install" {
			return command{}, false
		}
		if has(args, "--user") || has(args, "-g") {
			return command{}, false
		}
		return command{Cat: Deps, Canonical: pm + " " + map[bool]string{true: "install", false: args[1]}[args[1] == "add" || args[1] == "lock"], Facts: facts}, true
	}
	return command{}, false
}

// rubyCmd handles bundler, rails, rake, rspec and rubocop.
func rubyCmd(args []string) (command, bool) {
	facts := []string{"language: Ruby"}
	tool, sub := path.Base(args[0]), ""
	if len(args) > 1 {
		sub = args[1]
	}
	switch {
	case tool == "bundle" && sub == "exec" && len(args) > 2:
		c, ok := rubyCmd(args[2:])
		c.Canonical = "bundle exec " + c.Canonical
		c.Facts = append(c.Facts, "package manager: bundler")
		return c, ok
	case tool == "bundle" && (sub == "install" || sub == ""):
		return command{Cat: Deps, Canonical: "bundle install", Facts: append(facts, "package manager: bundler")}, true
	case tool == "rspec":
		return command{Cat: Test, Canonical: canonical(args, Test, 1), Facts: facts}, true
	case tool == "rubocop":
		return command{Cat: Lint, Canonical: canonical(args, Lint, 1), Facts: facts}, true
	case (tool == "rails" || tool == "rake") && (sub == "test" || sub == "spec"):
		return command{Cat: Test, Canonical: args[0] + " " + sub, Facts: facts}, true
	case tool == "rails" && (sub == "server" || sub == "s"):
		return command{Cat: Run, Canonical: args[0] + " server", Facts: facts}, true
	case (tool == "rails" || tool == "rake") && sub == "db:migrate":
		return command{Cat: Migrate, Canonical: args[0] + " db:migrate", Facts: facts}, true
	}
	return command{}, false
}

// targetCmd handles make, just and task with a target named like a
// category ("make test", "just check"); "make" alone builds.
func targetCmd(args []string) (command, bool) {
	tool := args[0]
	var targets []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-f" || a == "--directory" || a == "--file" || a == "--justfile" || a == "--working-directory":
			i++ // the flag's value
		case !strings.HasPrefix(a, "-") && !strings.Contains(a, "="):
			targets = append(targets, a)
		}
	}
	if len(targets) == 0 {
		if tool == "make" {
			return command{Cat: Build, Canonical: "make"}, true
		}
		return command{}, false
	}
	if len(targets) > 1 {
		return command{}, false
	}
	cat, ok := scriptCategory(targets[0])
	if !ok {
		return command{}, false
	}
	words := []string{tool}
	for i := 1; i < len(args); i++ { // keep where it runs (make -C ../.. lint)
		if a := args[i]; (a == "-C" || a == "-f" || a == "--directory" || a == "--file" || a == "--justfile" || a == "--working-directory") && i+1 < len(args) {
			words = append(words, a, args[i+1])
			i++
		}
	}
	return command{Cat: cat, Canonical: strings.Join(append(words, targets[0]), " ")}, true
}

// otherCmd handles linters and formatters with no toolchain of their own,
// Docker Compose, the Gradle and Maven wrappers, and project scripts.
func otherCmd(args []string) (command, bool) {
	tool, sub := path.Base(args[0]), ""
	if len(args) > 1 {
		sub = args[1]
	}
	switch {
	case tool == "golangci-lint" || tool == "staticcheck":
		return command{Cat: Lint, Canonical: canonical(args, Lint, 1), Facts: []string{"language: Go"}}, true
	case tool == "gofmt" || tool == "goimports":
		return command{Cat: Format, Canonical: canonical(args, Format, 1), Facts: []string{"language: Go"}}, true
	case tool == "docker" && sub == "build":
		return command{Cat: Build, Canonical: strings.Join(args, " ")}, true
	case tool == "air" && len(args) == 1, tool == "nodemon":
		return command{Cat: Run, Canonical: strings.Join(args, " ")}, true
	case tool == "docker" && sub == "compose" && len(args) > 2 && args[2] == "up", tool == "docker-compose" && sub == "up":
		return command{Cat: Services, Canonical: strings.Join(args, " ")}, true
	case tool == "gradlew" || tool == "gradle" || tool == "mvnw" || tool == "mvn":
		if cat, ok := scriptCategory(sub); ok && (cat == Test || cat == Build || cat == Run || cat == Check) {
			return command{Cat: cat, Canonical: args[0] + " " + sub}, true
		}
	case isProjectScript(args[0]):
		return command{Cat: Script, Canonical: args[0]}, true
	}
	return command{}, false
}

// isProjectScript reports whether p names a script inside the project
// ("./run.sh", "scripts/dev.sh"): relative, no parent directory.
func isProjectScript(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.Contains(p, "..") {
		return false
	}
	return strings.HasPrefix(p, "./") && len(p) > 2 && strings.Count(p, "/") <= 2
}

// Flags that select or decorate a run without changing what it does.
// dropValue flags also take the next word (unless written flag=value).
var (
	dropFlag = map[string]bool{"-v": true, "-vv": true, "-vvv": true, "--verbose": true, "-q": true, "--quiet": true,
		"--color": true, "--no-color": true, "-count": true, "-timeout": true, "--tb": true, "-x": true,
		"--exitfirst": true, "-s": true, "--nocapture": true, "-failfast": true, "--watch=false": true, "-run": true,
		"-skip": true, "-k": true, "--filter": true, "-t": true, "--testNamePattern": true, "--grep": true, "-rA": true,
		"--html": true, "--open": true, "--no-fail-fast": true}
	keepValue = map[string]bool{"-tags": true, "-p": true, "--features": true, "-m": true, "--package": true,
		"-coverprofile": true, "-bench": true, "-cpu": true, "-parallel": true, "--cov-report": true, "--bin": true}
	dropValue = map[string]bool{"-count": true, "-timeout": true, "-run": true, "-skip": true, "-k": true,
		"--filter": true, "-t": true, "--testNamePattern": true, "--grep": true, "--tb": true}
)

// isFileArg reports whether a lint or format argument names particular
// files ("src/cart", "main.py") rather than the project (".", "./...",
// "src").
func isFileArg(a string) bool {
	if a == "." || strings.HasSuffix(a, "/...") {
		return false
	}
	return strings.Contains(strings.TrimSuffix(a, "/"), "/") || path.Ext(a) != ""
}

// canonical joins the first n words of args with the rest normalised: noise
// and selection flags dropped; for tests, positional arguments (files,
// names, packages) dropped too, go's package patterns becoming "./...",
// and everything after "--" dropped (also for run: the program's
// arguments); for lint and format, arguments naming particular files.
func canonical(args []string, cat Category, n int) string {
	n = min(n, len(args))
	out := append([]string(nil), args[:n]...)
	goTest := len(args) > 1 && path.Base(args[0]) == "go" && args[1] == "test"
	pkgs := false
	for i := n; i < len(args); i++ {
		a := args[i]
		name, _, hasEq := strings.Cut(a, "=")
		switch {
		case a == "--" && (cat == Test || cat == Run): // what follows goes to the tests or the program
			i = len(args)
		case dropFlag[name] || dropFlag[a]:
			if dropValue[name] && !hasEq && i+1 < len(args) {
				i++
			}
		case keepValue[a] && i+1 < len(args):
			out = append(out, a, args[i+1])
			i++
		case strings.HasPrefix(a, "-"):
			out = append(out, a)
			if i+1 < len(args) && isNumber(args[i+1]) { // --fail-under 100
				out = append(out, args[i+1])
				i++
			}
		case cat == Test && goTest:
			pkgs = true
		case cat == Test:
		case (cat == Lint || cat == Format) && isFileArg(a):
		default:
			out = append(out, a)
		}
	}
	if pkgs {
		out = append(out, "./...")
	}
	return strings.Join(out, " ")
}

func isNumber(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}
