package trail

import (
	"strings"
	"testing"
)

// TestNormalise: the same procedure written many ways is one canonical
// command; secrets in environment assignments never survive; what is not a
// plain, known build/test/run command yields nothing.
func TestNormalise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"go test ./...", "test:go test ./..."},
		{"cd /x && go test -count=1 -v ./internal/learn/... 2>&1 | tail -30", "test:go test ./..."},
		{"GOFLAGS=-mod=mod timeout 300 go test -run 'TestA|TestB' ./pkg", "test:go test ./..."},
		{"go test -race -tags integration ./...", "test:go test -race -tags integration ./..."},
		{"go test", "test:go test"},
		{"CGO_ENABLED=0 go build -o bin/app ./cmd/app", "build:go build -o bin/app ./cmd/app"},
		{"python -m pytest tests/test_math_utils.py -v", "test:python -m pytest"},
		{"uv run pytest -x -q -k cart", "test:uv run pytest"},
		{"uv run pytest --cov=src --cov-report term-missing", "test:uv run pytest --cov=src --cov-report term-missing"},
		{"cargo test 2>&1", "test:cargo test"},
		{"cargo test parse_ -- --nocapture", "test:cargo test"},
		{"cargo llvm-cov --fail-under-lines 100 2>&1", "test:cargo llvm-cov --fail-under-lines 100"},
		{"cargo clippy -- -D warnings", "lint:cargo clippy -- -D warnings"},
		{"MIX_ENV=test mix test test/shop/cart_test.exs:42", "test:mix test"},
		{"mix phx.server 2>&1 | head -80", "run:mix phx.server"},
		{"iex -S mix phx.server", "run:iex -S mix phx.server"},
		{"pnpm test", "test:pnpm test"},
		{"pnpm run build", "build:pnpm run build"},
		{"npm run dev", "run:npm run dev"},
		{"pnpm install --frozen-lockfile", "deps:pnpm install"},
		{"npx vitest run src/cart.test.ts", "test:npx vitest run"},
		{"pnpm exec eslint .", "lint:pnpm exec eslint ."},
		{"bundle exec rspec spec/models", "test:bundle exec rspec"},
		{"just check 2>&1", "check:just check"},
		{"make", "build:make"},
		{"./scripts/dev.sh", "script:./scripts/dev.sh"},
		{"docker compose up -d db", "services:docker compose up -d db"},
		{"pnpm vitest run src/cart", "test:pnpm vitest run"},
		{"npx prettier --write src/cart main.ts", "format:npx prettier --write"},
		{"uv run mypy src", "lint:uv run mypy src"},
		{"cargo run --release -- --help", "run:cargo run --release"},
		{"go vet ./...", "lint:go vet ./..."},
		{"bin/rails db:migrate", "migrate:bin/rails db:migrate"},
		{"/opt/other/rails server", ""},
		{"go mod tidy", "deps:go mod tidy"},
		{"make -C ../.. lint", "lint:make -C ../.. lint"},
		{"docker build -t app:dev .", "build:docker build -t app:dev ."},
		{"air", "run:air"},
		{"python manage.py migrate", "migrate:python manage.py migrate"},
		{"mix ecto.migrate && mix test", "migrate:mix ecto.migrate|test:mix test"},
		{"nohup env PORT=4000 mix phx.server > /tmp/log 2>&1 &", "run:mix phx.server"},
		// nothing to learn
		{"git status", ""},
		{"ls -la && cat README.md", ""},
		{"npm install -g vercel", ""},
		{"pip install --user black", ""},
		{`git commit -m "$(cat <<'EOF'` + "\nmsg\nEOF\n)\"", ""},
		{"(cd web && pnpm build)", ""},
		{"go test ./... | xargs echo", ""},
		{"echo 'unbalanced", ""},
		{"python3 -c 'print(1)'", ""},
		{"/usr/bin/env", ""},
		{strings.Repeat("go test ./... && ", 200) + "true", ""},
	} {
		var got []string
		for _, s := range splitCommand(c.in) {
			if cmd, ok := classify(s.Args); ok {
				got = append(got, string(cmd.Cat)+":"+cmd.Canonical)
			}
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%q → %q, want %q", c.in, g, c.want)
		}
	}
}

// TestSplitDirAndPipes: a cd before a command is kept as the directory it
// ran in; output filters mark the command as piped.
func TestSplitDirAndPipes(t *testing.T) {
	segs := splitCommand("cd web && pnpm build 2>&1 | tail -5; cd .. ; cd api && go test ./...")
	if len(segs) != 2 || segs[0].Dir != "web" || !segs[0].Piped || segs[1].Dir != "api" {
		t.Errorf("segments = %+v", segs)
	}
}
