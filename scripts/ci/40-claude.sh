#!/usr/bin/env bash
# Claude Code CLI: the real `claude` for the plugin's end-to-end test.
#
# Sourced by .ci/run with `set -euo pipefail` and PAIGE_CI_DIR set. Installs
# @anthropic-ai/claude-code at a pinned version from npm into
# $PAIGE_CI_DIR/claude (the package ships a native binary, bin/claude.exe),
# checks that `claude --version` runs and reports that version, and exports
# PAIGE_TEST_CLAUDE, which internal/cli's TestRealClaudeCodeCoaching reads.
# Idempotent: an install of the pinned version already present is reused.

claude_version="2.1.331"
claude_dir="${PAIGE_CI_DIR:?PAIGE_CI_DIR must be set}/claude"
claude_bin="$claude_dir/node_modules/.bin/claude"
command -v npm >/dev/null || { echo "claude: npm not found" >&2; return 1; }
if ! { [ -x "$claude_bin" ] && "$claude_bin" --version 2>/dev/null | grep -q "^$claude_version "; }; then
  echo "claude: installing @anthropic-ai/claude-code@$claude_version"
  mkdir -p "$claude_dir"
  npm install --prefix "$claude_dir" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$claude_version"
fi
claude_got="$(HOME="$claude_dir" DISABLE_AUTOUPDATER=1 "$claude_bin" --version)" \
  || { echo "claude: $claude_bin --version failed" >&2; return 1; }
case "$claude_got" in
  "$claude_version "*) echo "claude: $claude_got" ;;
  *) echo "claude: got '$claude_got', want $claude_version" >&2; return 1 ;;
esac
export PAIGE_TEST_CLAUDE="$claude_bin"
