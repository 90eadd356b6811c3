#!/usr/bin/env bash
# Checks deploy/hermes-collector@.service as written: systemd-analyze finds nothing to say about
# it, and the collector starts from what the unit gives it (its credentials directory, its
# environment, the optional environment file) on SQLite and, when HERMES_TEST_POSTGRES_URL is
# set, on PostgreSQL, and answers /ready. Exits non-zero otherwise.
#   bash scripts/check-deploy.sh <path to a built hermes>
set -euo pipefail
cd "$(dirname "$0")/.."
hermes=$(realpath "${1:?the hermes binary}")
work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

# The unit, with ExecStart pointing at this build: verify prints nothing for a sound unit.
sed "s|/usr/local/bin/hermes|$hermes|" deploy/hermes-collector@.service > "$work/hermes-collector@.service"
findings=$(cd "$work" && timeout 60 systemd-analyze verify --man=no ./hermes-collector@8080.service 2>&1 || echo "systemd-analyze failed")
if [ -n "$findings" ]; then
    echo "deploy/hermes-collector@.service: $findings" >&2
    exit 1
fi

# The credentials the unit loads, made as INSTALL.md makes them.
credentials="$work/credentials"
mkdir -m 0700 "$credentials"
"$hermes" keys generate --token --output "$credentials/app-key" >/dev/null
"$hermes" keys generate --token --output "$credentials/admin-token" >/dev/null
"$hermes" keys generate --hpke --key-id 1 --output "$credentials/hpke-private-key" >/dev/null

# Runs ExecStart's command line with the unit's environment (and the given extra variables) on
# a free port until /ready answers.
start() {
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    env -i PATH="$PATH" HERMES_STORAGE="$work/state/collector-$port.sqlite" HERMES_RETENTION_DAYS=90 "$@" \
        "$hermes" collector serve --host 127.0.0.1 --port "$port" --secrets-dir "$credentials" 2>"$work/log" &
    server=$!
    for _ in $(seq 1 300); do
        if curl -fsS "http://127.0.0.1:$port/ready" >/dev/null 2>&1; then
            kill "$server"; wait "$server" || true
            return 0
        fi
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    echo "the collector did not become ready as the unit runs it:" >&2
    cat "$work/log" >&2
    exit 1
}
mkdir -m 0700 "$work/state"
start
echo "deploy: the unit verifies and serves on SQLite"
if [ -n "${HERMES_TEST_POSTGRES_URL:-}" ]; then
    start HERMES_STORAGE="$HERMES_TEST_POSTGRES_URL"
    echo "deploy: the unit serves on PostgreSQL (HERMES_STORAGE from the environment file)"
fi
