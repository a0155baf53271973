#!/usr/bin/env bash
# MCP conformance with the official TypeScript MCP SDK client.
#
# Sourced by .ci/run with `set -euo pipefail`. Installs the pinned
# @modelcontextprotocol/sdk from test/mcp-conformance/package-lock.json
# (npm ci) and exports PAIGE_TEST_MCP_TS, the directory that
# internal/cli's TestMCPConformanceTypeScript runs conformance.mjs from.
# Idempotent: npm ci reinstalls the same locked tree.

mcp_ts_dir="$(pwd)/test/mcp-conformance"
command -v node >/dev/null || { echo "mcp-ts: node not found (Node.js 18+ is needed)" >&2; return 1; }
(cd "$mcp_ts_dir" && npm ci --no-audit --no-fund --loglevel=error)
echo "mcp-ts: node $(node --version), sdk $(node -p "require('$mcp_ts_dir/node_modules/@modelcontextprotocol/sdk/package.json').version")"
export PAIGE_TEST_MCP_TS="$mcp_ts_dir"
