#!/usr/bin/env bash
# A throwaway PostgreSQL server for agentlog's PostgreSQL tests, on a free loopback port.
#
#   eval "$(scripts/postgres.sh start)"   # starts it; prints: export AGENTLOG_POSTGRES_URL=...
#   npx vitest run packages/store/src/postgres
#   scripts/postgres.sh stop              # stops it and deletes its data
#
# The cluster lives in $AGENTLOG_PG_DIR (default: /tmp/agentlog-postgres-$USER); `start` reuses a
# server already running there. Everything but the export line goes to stderr. As root, the server
# runs as the `postgres` user (PostgreSQL refuses root) and Debian's `postgresql` package is
# installed when no server binaries are found. .ci/run uses this script too.
set -euo pipefail

base="${AGENTLOG_PG_DIR:-${TMPDIR:-/tmp}/agentlog-postgres-$(id -un)}"
data="$base/data"
log="$base/server.log"

say() { echo "postgres.sh: $*" >&2; }

# Runs a server command as the postgres user when we are root, else as ourselves.
as_server_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The directory of initdb and pg_ctl: Debian's newest version, else the one on the PATH.
find_bin_dir() {
  local dir
  dir="$(for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; fi
  done | sort -V | tail -n 1)"
  if [ -z "$dir" ] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dir="$(dirname "$(command -v initdb)")"
  fi
  echo "$dir"
}

install_postgres() {
  if [ "$(id -u)" != 0 ]; then
    say "no PostgreSQL server binaries (initdb, pg_ctl) found; install PostgreSQL first"
    exit 1
  fi
  say "installing Debian's postgresql package"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
}

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# The pid of the running postmaster of our cluster, or nothing.
running_pid() {
  [ -f "$data/postmaster.pid" ] || return 0
  local pid
  pid="$(head -n 1 "$data/postmaster.pid")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

print_export() {
  # Line 4 of postmaster.pid is the port the server listens on.
  local port
  port="$(sed -n 4p "$data/postmaster.pid")"
  echo "export AGENTLOG_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres"
}

start() {
  if [ -n "$(running_pid)" ]; then
    say "reusing the server already running in $base"
    print_export
    return
  fi
  local bin
  bin="$(find_bin_dir)"
  if [ -z "$bin" ]; then
    install_postgres
    bin="$(find_bin_dir)"
    [ -n "$bin" ] || { say "initdb still not found after installing postgresql"; exit 1; }
  fi
  mkdir -p "$base"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$base"; fi
  chmod 700 "$base"
  if [ ! -f "$data/PG_VERSION" ]; then
    as_server_user "$bin/initdb" -D "$data" -A trust -U postgres --encoding=UTF8 --no-locale >"$base/initdb.log" 2>&1 ||
      { cat "$base/initdb.log" >&2; exit 1; }
  fi
  local port
  port="$(free_port)"
  if ! as_server_user "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $base" start >&2; then
    say "the server did not start; its log:"
    tail -n 50 "$log" >&2 || true
    exit 1
  fi
  say "PostgreSQL ($("$bin/postgres" --version)) runs in $base on 127.0.0.1:$port"
  print_export
}

stop() {
  local pid
  pid="$(running_pid)"
  if [ -n "$pid" ]; then
    local bin
    bin="$(find_bin_dir)"
    if [ -z "$bin" ] || ! as_server_user "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >&2; then
      # pg_ctl missing or stuck: stop the postmaster by its pid.
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    say "stopped the server in $base (pid $pid)"
  fi
  # Delete only what start created, never an arbitrary directory.
  if [ -f "$data/PG_VERSION" ]; then rm -rf "$data"; fi
  rm -f "$log" "$base/initdb.log"
  rmdir "$base" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop   (the cluster lives in \$AGENTLOG_PG_DIR, default $base)" >&2
    exit 2
    ;;
esac
