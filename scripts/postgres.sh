#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and benchmarks.
#
#   scripts/postgres.sh start   creates a cluster in a new temporary directory, listening on
#                               127.0.0.1 on a free port, with a database "hermes"; prints the
#                               connection URL as its last line.
#   scripts/postgres.sh stop [DIR]
#                               stops the cluster in DIR (default: the one start made last)
#                               and removes the directory.
#
# PostgreSQL refuses to run as root: as root the cluster runs as an unprivileged system user
# ($HERMES_POSTGRES_USER, default "postgres", created if missing) through runuser.
# Binaries: $PG_BIN, default /usr/lib/postgresql/15/bin (the Debian package postgresql-15).
# Where start records the directory for stop: $HERMES_POSTGRES_STATE
# (default ${TMPDIR:-/tmp}/hermes-postgres.dir).
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
STATE=${HERMES_POSTGRES_STATE:-${TMPDIR:-/tmp}/hermes-postgres.dir}
RUN_USER=${HERMES_POSTGRES_USER:-postgres}

fail() { echo "postgres.sh: $*" >&2; exit 1; }

# Runs a PostgreSQL binary as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$RUN_USER" -- "$@"
    else
        "$@"
    fi
}

ensure_user() {
    [ "$(id -u)" -eq 0 ] || return 0
    if ! id "$RUN_USER" >/dev/null 2>&1; then
        timeout 30 useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_USER" \
            || fail "cannot create the system user $RUN_USER"
    fi
}

# A TCP port nothing listens on now (the server may still lose a race for it: start retries).
free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$(( 20000 + RANDOM % 40000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    fail "found no free port"
}

start() {
    [ -x "$PG_BIN/initdb" ] || fail "no PostgreSQL in $PG_BIN (install postgresql-15, or set PG_BIN)"
    ensure_user
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/hermes-postgres.XXXXXX")
    [ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$dir"
    echo "$dir" > "$STATE"
    cd "$dir"
    as_owner timeout 120 "$PG_BIN/initdb" -D "$dir/data" -U hermes --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
    local port started=""
    for _ in 1 2 3 4 5; do
        port=$(free_port)
        if as_owner timeout 60 "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null 2>&1; then
            started=yes
            break
        fi
    done
    [ -n "$started" ] || { tail -20 "$dir/server.log" >&2; fail "the server did not start"; }
    as_owner timeout 30 "$PG_BIN/createdb" -h "$dir" -p "$port" -U hermes hermes || fail "createdb failed"
    echo "data directory: $dir" >&2
    echo "postgres://hermes@127.0.0.1:$port/hermes?sslmode=disable"
}

stop() {
    local dir=${1:-}
    if [ -z "$dir" ]; then
        [ -f "$STATE" ] || fail "nothing to stop: no $STATE"
        dir=$(cat "$STATE")
    fi
    case "$dir" in
        */hermes-postgres.*) ;;
        *) fail "refusing to remove $dir: not a directory start made" ;;
    esac
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner timeout 60 "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 \
            || as_owner timeout 30 "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w -t 20 stop >/dev/null 2>&1 \
            || echo "postgres.sh: the server in $dir did not stop cleanly" >&2
    fi
    rm -rf "$dir"
    if [ -f "$STATE" ] && [ "$(cat "$STATE")" = "$dir" ]; then rm -f "$STATE"; fi
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    *) echo "usage: $0 start | stop [DIR]" >&2; exit 2 ;;
esac
