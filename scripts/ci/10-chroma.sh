#!/usr/bin/env bash
# ChromaDB for the memory backend tests (internal/memory, TestChromaReal*).
#
# Sourced by .ci/run with `set -euo pipefail` and PAIGE_CI_DIR set. Starts
# ChromaDB (npm chromadb, through a private Debian trixie glibc when the
# system's is older than 2.39; see scripts/chroma-server.sh) on
# 127.0.0.1:18000 with its data in $PAIGE_CI_DIR/chroma, waits for
# /api/v2/heartbeat and exports PAIGE_TEST_CHROMA_URL. Idempotent: a server
# already answering on the port is reused, installs are cached.

chroma_url="$(bash "$(dirname "${BASH_SOURCE[0]}")/../chroma-server.sh" "${PAIGE_CI_DIR:?PAIGE_CI_DIR must be set}/chroma" 18000)" || {
  echo "chroma: server failed to start" >&2
  return 1
}
export PAIGE_TEST_CHROMA_URL="$chroma_url"
echo "chroma: $PAIGE_TEST_CHROMA_URL"
