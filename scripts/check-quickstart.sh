#!/usr/bin/env bash
# Builds and runs Examples/QuickStart the way an app's SwiftPM sees Hermes, and checks that the
# README's quick start is that program, line for line.
#
#   bash scripts/check-quickstart.sh      # run from anywhere in the repository; CI runs it
#
# Hermes comes from a throwaway clone of the committed HEAD (uncommitted changes are not in it),
# tagged 0.1.0 and named by a file:// URL, so resolution goes through a versioned
# `.package(url:from:)` exactly as in an app: unsafe build flags, for one, would be refused.
# The build must compile no SwiftNIO or Hummingbird module: the SDK does not depend on them.
# The program then runs against a collector URL where none listens: it must still start, send,
# flush, try one upload round and shut down cleanly. Everything happens in a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."

example=Examples/QuickStart
program="$example/Sources/QuickStart/main.swift"

# 1. The README shows the program verbatim: the first swift block after "## Quick start".
readme_block=$(awk '/^## Quick start/ { section = 1; next }
    section && /^```swift$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }' README.md)
if ! diff -u <(printf '%s\n' "$readme_block") "$program" > /dev/null; then
    diff -u --label "README.md (## Quick start)" --label "$program" <(printf '%s\n' "$readme_block") "$program" || true
    echo "quickstart: the README's quick start differs from $program; make them the same" >&2
    exit 1
fi
echo "quickstart: the README's quick start is $program, line for line"

# 2. A throwaway clone of HEAD, tagged, and a copy of the example that depends on it by version.
work=$(mktemp -d "${TMPDIR:-/tmp}/hermes-quickstart.XXXXXX")
trap 'rm -rf "$work" 2> /dev/null || true' EXIT
head=$(git rev-parse HEAD)
git clone --quiet . "$work/hermes"
git -C "$work/hermes" tag 0.1.0 "$head"
cp -R "$example" "$work/QuickStart"
rm -rf "$work/QuickStart/.build" "$work/QuickStart/Package.resolved"
echo "quickstart: building against $(git rev-parse --short HEAD) as hermes 0.1.0 (file://$work/hermes)"

# A clean debug build of Hermes, swift-crypto (BoringSSL), GRDB, swift-log and swift-metrics:
# several minutes on 2 idle cores, far more while other builds share them.
build_start=$SECONDS
export HERMES_PACKAGE_URL="file://$work/hermes"
status=0
timeout --kill-after=30 2400 swift build --package-path "$work/QuickStart" --scratch-path "$work/build" \
    > "$work/build.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    tail -n 40 "$work/build.log"
    [ "$status" -ne 124 ] || echo "quickstart: the build did not finish within 40 minutes" >&2
    echo "quickstart: the example did not build against the tagged clone" >&2
    exit 1
fi
echo "quickstart: built in $((SECONDS - build_start)) s"

# 3. Nothing of SwiftNIO or Hummingbird was compiled (SwiftPM still resolves every package the
#    manifest names, so the pins would list them; what matters is what an app builds and links).
modules=$(find "$work/build" -name '*.swiftmodule' -exec basename {} .swiftmodule \; | sort -u)
if ! printf '%s\n' "$modules" | grep -q '^Hermes$'; then
    echo "quickstart: no Hermes module in the build; the check below would prove nothing" >&2
    exit 1
fi
forbidden=$(printf '%s\n' "$modules" | grep -E '^(NIO|_NIO|Hummingbird)' || true)
if [ -n "$forbidden" ]; then
    echo "quickstart: an app that uses Hermes compiled these modules:" $forbidden >&2
    exit 1
fi
echo "quickstart: no SwiftNIO or Hummingbird module built ($(printf '%s\n' "$modules" | wc -l) modules)"

# 4. It runs without a collector: port 9 (discard) on loopback refuses the connection.
bin=$(swift build --package-path "$work/QuickStart" --scratch-path "$work/build" --show-bin-path)
if ! HERMES_COLLECTOR=http://127.0.0.1:9 TMPDIR="$work" timeout 120 "$bin/QuickStart" > "$work/run.log" 2>&1; then
    cat "$work/run.log"
    echo "quickstart: the program failed without a collector" >&2
    exit 1
fi
cat "$work/run.log"
# Both namespaces tried and will try again: the records wait on disk.
for namespace in JZ hermes; do
    if ! grep -q "^$namespace: retry later" "$work/run.log"; then
        echo "quickstart: expected namespace $namespace to keep its record for a later round" >&2
        exit 1
    fi
done
echo "quickstart: ok"
