package knowledge

import (
	"strings"
	"sync"
)

// knownNames are lower-cased names of tools, libraries, commands,
// languages, services and git words that [Entities] takes whatever their
// shape (most are plain lower-case words). Two-word names are matched as a
// pair ("go vet").
var knownNames = sync.OnceValue(func() map[string]bool {
	return wordSet(`
	python rust ruby java kotlin swift scala elixir erlang haskell ocaml clojure php perl lua julia dart zig nim
	javascript typescript js ts node nodejs deno bun c c++ c# cpp csharp objective-c sql bash zsh fish sh powershell html css sass scss
	npm pnpm yarn npx pip pipx uv poetry conda pdm hatch cargo rustup gem bundler rebar3 maven mvn gradle sbt
	composer brew apt apt-get dnf yum pacman nix asdf mise nvm pyenv rbenv volta corepack
	cmake bazel ninja meson goreleaser
	git gh github gitlab bitbucket jj svn hg
	main master develop trunk staging production prod dev qa
	force-push rebase squash cherry-pick
	eslint prettier biome tslint stylelint oxlint ruff black isort flake8 pylint mypy pyright bandit
	gofmt gofumpt goimports golint staticcheck golangci-lint govulncheck revive errcheck
	rustfmt clippy miri rubocop credo dialyzer sobelow shellcheck shfmt hadolint tflint checkov
	jest vitest mocha jasmine cypress playwright puppeteer selenium karma ava
	pytest unittest tox nox rspec minitest exunit junit testify ginkgo gomock nextest
	react preact vue svelte sveltekit angular solidjs next.js nextjs nuxt remix astro gatsby vite webpack rollup esbuild parcel turbopack swc babel tsc
	tailwind tailwindcss bootstrap mui chakra shadcn storybook redux zustand jotai recoil mobx xstate tanstack zod yup joi valibot
	react-hook-form formik axios graphql apollo trpc prisma drizzle typeorm sequelize knex mongoose
	fastify koa hapi nestjs hono django flask fastapi starlette pydantic sqlalchemy alembic celery
	rails sinatra phoenix ecto oban liveview absinthe cowboy
	spring quarkus ktor gin fiber chi cobra viper gorm sqlc sqlx pgx
	tokio actix axum serde diesel clap anyhow thiserror
	pandas polars numpy scipy matplotlib jupyter pytorch tensorflow keras
	postgres postgresql mysql mariadb sqlite redis memcached mongodb mongo cassandra dynamodb elasticsearch opensearch kafka rabbitmq nats
	clickhouse snowflake bigquery supabase firebase neon planetscale chromadb pinecone
	docker podman docker-compose kubernetes k8s kubectl helm kustomize terraform opentofu pulumi ansible vagrant
	aws gcp azure s3 ec2 lambda cloudflare vercel netlify heroku fly.io railway
	nginx caddy traefik apache
	stripe clerk auth0 okta sentry datadog grafana prometheus opentelemetry otel honeycomb
	jenkins circleci travis buildkite argocd
	linux macos windows wsl ubuntu debian alpine
	iex irb ipython vim neovim emacs vscode intellij xcode tmux
	openapi swagger protobuf grpc json yaml toml csv markdown
	mcp claude anthropic openai ollama llama
	makefile dockerfile readme changelog tsconfig jsconfig pyproject gemfile procfile justfile gitignore
	go-vet
	go vet|go test|go build|go run|go mod|go generate|go fmt
	cargo test|cargo build|cargo run|cargo check|cargo nextest|cargo fmt|cargo clippy
	npm test|npm run|npm install|pnpm test|pnpm install|yarn test
	mix test|mix format|mix compile|mix credo|mix dialyzer
	github actions|gitlab ci|pre-commit hooks|pre-commit
	git push|git commit|git rebase|git merge|git pull
	docker compose|make test|make build|make lint
	`)
})

// entityStop are words never taken as entities, however they are written
// ("User", "Correction", "Never" open entries; "the branch" names none).
var entityStop = sync.OnceValue(func() map[string]bool {
	return wordSet(`
	i me my we us our you your he she it its they them their this that these those there here
	a an the and or but if then else when while for to of in on at by with from into over under about as
	is are was were be been am do does did done have has had will would shall should can could may might must
	not no yes never always usually often sometimes also just only very really too so than go make mix
	all any some each every new old same other another current default whole
	user users correction corrections decided decision rule rules fact facts preference procedure note
	use uses using run runs running sure please keep let let's don't doesn't can't won't
	ok okay e.g i.e etc and/or vs via per
	before after first then next finally now today
	`)
})

// wordSet splits s at white space, and at '|' for two-word names, into a
// set.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "|") {
			for _, name := range strings.Split(line, "|") {
				if name = strings.TrimSpace(name); name != "" {
					m[name] = true
				}
			}
			continue
		}
		for _, w := range strings.Fields(line) {
			m[w] = true
		}
	}
	return m
}
