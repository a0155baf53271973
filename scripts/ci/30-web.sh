#!/usr/bin/env bash
# The web UIs (GhostPath, the Paige workbench): npm packages and headless
# Chromium for the UI tests.
#
# Sourced by .ci/run with `set -euo pipefail` and PAIGE_CI_DIR set. Installs
# each UI's npm packages from its package-lock.json (npm ci in web/ghostpath
# and web/workbench: Vitest, TypeScript, Vite, playwright-core, Monaco,
# xterm.js), installs Debian's chromium when
# /usr/bin/chromium is missing (Playwright's own browser download cannot
# work here), checks that it starts headless, and exports
# PAIGE_TEST_CHROMIUM, which the end-to-end tests of internal/ideate/web and
# internal/coach/workbench/e2e read.
# Idempotent: installs nothing that is already present.

command -v npm >/dev/null || { echo "web: npm not found (Node.js 20.19+ is needed)" >&2; return 1; }
echo "web: node $(node --version), npm $(npm --version)"
for web_dir in "$(pwd)/web/ghostpath" "$(pwd)/web/workbench"; do
  (cd "$web_dir" && npm ci --no-audit --no-fund --loglevel=error)
done

if [ ! -x /usr/bin/chromium ]; then
  echo "web: installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then web_sudo=""; else web_sudo="sudo"; fi
  $web_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $web_sudo apt-get install -y -qq chromium >/dev/null
fi
/usr/bin/chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="${PAIGE_CI_DIR:?PAIGE_CI_DIR must be set}/chromium-check" \
  --dump-dom about:blank >/dev/null 2>"$PAIGE_CI_DIR/chromium-check.log" \
  || { echo "web: chromium does not start headless:" >&2; cat "$PAIGE_CI_DIR/chromium-check.log" >&2; return 1; }
echo "web: $(/usr/bin/chromium --version)"
export PAIGE_TEST_CHROMIUM=/usr/bin/chromium
