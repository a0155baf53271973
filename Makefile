# Paige — one binary, four capabilities. `make run` and `make test` are the
# two commands a fresh machine needs (see README.md).

GO          ?= go
BIN         ?= bin/paige
HOOK_BIN    ?= $(dir $(BIN))paige-hook
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOBIN       := $(shell $(GO) env GOPATH)/bin
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -s -w -X github.com/paige-dev/paige/internal/cli.Version=$(VERSION)

.PHONY: run build test test-go test-web web lint bench generate

## run: start Paige on PROJECT_DIR, or else on a copy of examples/demo-project made once in
## DEMO_DIR (default DATA_DIR/demo-project, DATA_DIR defaulting to ~/.paige): the browser's edits
## go to that copy, never to the checkout's tracked files (offline when no ANTHROPIC_API_KEY is set)
DEMO_DIR ?= $${DATA_DIR:-$$HOME/.paige}/demo-project
run: build
	@project="$${PROJECT_DIR:-}"; \
	 if [ -z "$$project" ]; then \
	   project="$(DEMO_DIR)"; \
	   if [ ! -d "$$project" ]; then \
	     mkdir -p "$$project" && cp -R examples/demo-project/. "$$project"/ && echo "Copied examples/demo-project to $$project"; \
	   fi; \
	 fi; \
	 PROJECT_DIR="$$project" \
	 PAIGE_OFFLINE="$${PAIGE_OFFLINE:-$$( [ -n "$$ANTHROPIC_API_KEY" ] || grep -qs '^ANTHROPIC_API_KEY=.' .env || echo 1)}" \
	 exec $(abspath $(BIN)) serve

## build: compile bin/paige and, beside it, bin/paige-hook (the small binary the plugin's
## SessionStart hook runs)
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/paige
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(HOOK_BIN) ./cmd/paige-hook

## test: lint, then every Go test with the race detector, then the web UI's tests, then the
## benchmark report in its short mode (every tool once on tiny inputs; no timing is asserted)
test: lint test-go test-web bench-short

test-go:
	$(GO) test -race -count=1 -timeout 20m ./...

## lint: gofmt, go vet, staticcheck
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@test -x $(GOBIN)/staticcheck || $(GO) install $(STATICCHECK)
	$(GOBIN)/staticcheck ./...

## bench: run the Go benchmarks
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-report: build paige and print issue 24's budgets with today's figures
## (medians and min–max over 5 runs, load average, targets; see docs/performance.md).
## BENCH_SHORT=1 runs every tool once on tiny inputs; BENCH_REPORT_FLAGS='-runs 3 -root DIR'
.PHONY: bench-report bench-short
bench-report:
	$(GO) run ./bench/report $(BENCH_REPORT_FLAGS)

## bench-short: the report's short mode, which CI runs so the report never rots
bench-short:
	BENCH_SHORT=1 $(GO) run ./bench/report

# The two web UIs: GhostPath (web/ghostpath → internal/ideate/web/dist) and the
# Paige workbench (web/workbench → internal/coach/workbench/dist). Each has its
# own package-lock.json and one `npm ci`; each dist is committed with its source.
WEB_UIS := web/ghostpath:internal/ideate/web/dist web/workbench:internal/coach/workbench/dist

web/%/node_modules/.package-lock.json: web/%/package-lock.json
	cd web/$* && npm ci --no-audit --no-fund

## web: rebuild both UIs into their dist directories (commit them with the source)
web: web/ghostpath/node_modules/.package-lock.json web/workbench/node_modules/.package-lock.json
	cd web/ghostpath && npm run build
	cd web/workbench && npm run build

## test-web: type-check and unit-test both UIs (Vitest), and check each committed dist is current
test-web: web/ghostpath/node_modules/.package-lock.json web/workbench/node_modules/.package-lock.json
	@set -e; for ui in $(WEB_UIS); do \
	   dir=$${ui%%:*}; dist=$${ui#*:}; \
	   (cd $$dir && npx tsc --noEmit && npx vitest run); \
	   tmp=$$(mktemp -d); \
	   (cd $$dir && npx vite build --logLevel warn --outDir $$tmp --emptyOutDir) || { rm -rf $$tmp; exit 1; }; \
	   if ! diff -r $$tmp $$dist >/dev/null; then \
	     echo "$$dist is not the build of $$dir: run 'make web' and commit it"; \
	     diff -rq $$tmp $$dist; rm -rf $$tmp; exit 1; \
	   fi; rm -rf $$tmp; echo "$$dist is current"; \
	 done
