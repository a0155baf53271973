#!/usr/bin/env bash
# Start a local ChromaDB server for Paige's memory backend (developers and CI).
#
#   scripts/chroma-server.sh DATA_DIR [PORT]      # PORT defaults to 8000
#
# Prints the server URL (e.g. http://127.0.0.1:8000) on stdout once
# /api/v2/heartbeat answers; logs go to DATA_DIR/chroma.log, the pid to
# DATA_DIR/chroma.pid. Idempotent: if a server already answers on PORT it is
# reused; installs are skipped when present.
#
# ChromaDB comes from npm (package chromadb, pinned below), whose CLI runs the
# Rust server through a native binding that needs glibc >= 2.39. Debian 12 has
# 2.36, so this script downloads Debian trixie's libc6, libstdc++6 and
# libgcc-s1 with a PRIVATE apt configuration (the system's sources are never
# touched), unpacks them into a private directory and starts node through that
# directory's dynamic loader. On a system with glibc >= 2.39 node runs as is.
#
# Environment: PAIGE_CHROMA_HOME (install dir; default ~/.cache/paige-chroma),
# PAIGE_CHROMA_VERSION (npm version; default below).
set -euo pipefail

CHROMA_VERSION="${PAIGE_CHROMA_VERSION:-3.5.0}"
DEBIAN_MIRROR="${PAIGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
HOME_DIR="${PAIGE_CHROMA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/paige-chroma}"

usage() { echo "usage: $0 DATA_DIR [PORT]" >&2; exit 2; }
[ $# -ge 1 ] || usage
DATA_DIR="$1"
PORT="${2:-8000}"
URL="http://127.0.0.1:${PORT}"
mkdir -p "$DATA_DIR" "$HOME_DIR"
DATA_DIR="$(cd "$DATA_DIR" && pwd)"

log() { echo "chroma-server: $*" >&2; }

heartbeat() { curl -fsS --max-time 2 "$URL/api/v2/heartbeat" >/dev/null 2>&1; }

if heartbeat; then
  log "already running at $URL"
  echo "$URL"
  exit 0
fi

# 1. The chromadb npm package (CLI + native server binding), pinned.
install_chroma() {
  local pkg="$HOME_DIR/npm/node_modules/chromadb/package.json"
  if [ -f "$pkg" ] && grep -q "\"version\": \"$CHROMA_VERSION\"" "$pkg"; then
    return
  fi
  log "installing chromadb@$CHROMA_VERSION from npm"
  mkdir -p "$HOME_DIR/npm"
  (cd "$HOME_DIR/npm" && [ -f package.json ] || echo '{"private":true}' >package.json)
  npm install --prefix "$HOME_DIR/npm" --no-audit --no-fund --loglevel=error "chromadb@$CHROMA_VERSION" >&2
}

glibc_ok() {
  local v
  v="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  [ -n "$v" ] && [ "$(printf '%s\n2.39\n' "$v" | sort -V | head -n1)" = "2.39" ]
}

# 2. Debian trixie's glibc and C++ runtime, unpacked privately.
install_glibc() {
  local root="$HOME_DIR/glibc"
  if [ -x "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ] || [ -x "$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ]; then
    return
  fi
  log "fetching Debian trixie libc6, libstdc++6, libgcc-s1 (private apt config)"
  local apt="$HOME_DIR/apt"
  mkdir -p "$apt/etc/sources.list.d" "$apt/etc/preferences.d" "$apt/lists/partial" \
    "$apt/cache/archives/partial" "$apt/debs"
  echo "deb $DEBIAN_MIRROR trixie main" >"$apt/etc/sources.list"
  local opts=(
    -o "Dir::Etc::sourcelist=$apt/etc/sources.list"
    -o "Dir::Etc::sourceparts=$apt/etc/sources.list.d"
    -o "Dir::Etc::preferencesparts=$apt/etc/preferences.d"
    -o "Dir::State::Lists=$apt/lists"
    -o "Dir::Cache=$apt/cache"
    -o "APT::Get::List-Cleanup=0"
  )
  # apt's _apt sandbox user cannot write into a private dir under $HOME.
  [ "$(id -u)" = 0 ] && opts+=(-o "APT::Sandbox::User=root")
  apt-get "${opts[@]}" -qq update >&2
  (cd "$apt/debs" && apt-get "${opts[@]}" -qq download libc6 libstdc++6 libgcc-s1 >&2)
  mkdir -p "$root"
  local deb
  for deb in "$apt/debs"/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
}

install_chroma
NODE="$(command -v node)"
CLI="$HOME_DIR/npm/node_modules/chromadb/dist/cli.mjs"
[ -f "$CLI" ] || { log "chromadb CLI missing at $CLI"; exit 1; }

run=("$NODE" "$CLI" run --path "$DATA_DIR/db" --port "$PORT")
if ! glibc_ok; then
  install_glibc
  G="$HOME_DIR/glibc"
  LD="$G/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  [ -x "$LD" ] || LD="$G/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  LIBS="$G/usr/lib/x86_64-linux-gnu:$G/lib/x86_64-linux-gnu"
  run=("$LD" --library-path "$LIBS" "${run[@]}")
fi

log "starting ChromaDB at $URL (data: $DATA_DIR/db, log: $DATA_DIR/chroma.log)"
setsid nohup "${run[@]}" >"$DATA_DIR/chroma.log" 2>&1 </dev/null &
echo $! >"$DATA_DIR/chroma.pid"

for _ in $(seq 1 120); do
  if heartbeat; then
    echo "$URL"
    exit 0
  fi
  if ! kill -0 "$(cat "$DATA_DIR/chroma.pid")" 2>/dev/null; then
    log "ChromaDB exited; last log lines:"
    tail -n 20 "$DATA_DIR/chroma.log" >&2
    exit 1
  fi
  sleep 0.5
done
log "ChromaDB did not answer $URL/api/v2/heartbeat within 60 s; last log lines:"
tail -n 20 "$DATA_DIR/chroma.log" >&2
exit 1
