#!/usr/bin/env bash
# PostgreSQL for the ideate (GhostPath) store tests.
#
# Sourced by .ci/run with `set -euo pipefail` and PAIGE_CI_DIR set. Installs
# Debian's postgresql when no server binaries exist, initialises a cluster in
# $PAIGE_CI_DIR/pg (owned by the postgres user when running as root, because
# the server refuses to run as root), starts it on 127.0.0.1:55432 with its
# unix socket in the data directory, waits until it accepts connections,
# creates the database paige_test and exports PAIGE_TEST_POSTGRES_URL.
# Idempotent: a cluster already running on the port is reused.

pg_port=55432
pg_dir="${PAIGE_CI_DIR:?PAIGE_CI_DIR must be set}/pg"
pg_bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && pg_bin="$d"
done
if [ -z "$pg_bin" ]; then
  echo "postgres: installing Debian's postgresql"
  if [ "$(id -u)" = 0 ]; then sudo_cmd=""; else sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && pg_bin="$d"
  done
fi
[ -n "$pg_bin" ] || { echo "postgres: no initdb found" >&2; return 1; }

# as_pg runs a command as the cluster owner (postgres when we are root).
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if ! as_pg "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"; then
  mkdir -p "$pg_dir"
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$pg_dir"
    chmod 700 "$pg_dir"
    # The postgres user must be able to reach the data dir through its parents.
    chmod o+x "$PAIGE_CI_DIR"
  fi
  if [ ! -f "$pg_dir/data/PG_VERSION" ]; then
    as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 >"$PAIGE_CI_DIR/pg-initdb.log" 2>&1 \
      || { cat "$PAIGE_CI_DIR/pg-initdb.log" >&2; return 1; }
  fi
  as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 30 \
    -o "-p $pg_port -k $pg_dir/data -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" start >/dev/null \
    || { cat "$pg_dir/server.log" >&2; return 1; }
fi

for _ in $(seq 1 60); do
  as_pg "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" && break
  sleep 0.5
done
as_pg "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" || { echo "postgres: not ready" >&2; return 1; }

if ! as_pg "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'paige_test'" | grep -q 1; then
  as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres paige_test
fi
export PAIGE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:${pg_port}/paige_test?sslmode=disable"
echo "postgres: ready at $PAIGE_TEST_POSTGRES_URL"
