#!/usr/bin/env bash
# The console's browser suite (Tests/Browser/console_test.py): headless Chromium, driven by
# Selenium, against `hermes demo --serve`. Needs Debian's chromium, chromium-driver and
# python3-selenium (the system Python: Debian's selenium lives there).
#   HERMES_BIN          the hermes binary (default .build/debug/hermes; hermes-crash-probe beside it)
#   CONSOLE_ARTIFACTS   where failure screenshots and the demo's log go (default .build/console-browser)
#   CONSOLE_SCREENSHOTS also keep each page's screenshot there (docs/console.md's pictures)
set -euo pipefail
cd "$(dirname "$0")/.."
hermes="${HERMES_BIN:-.build/debug/hermes}"
artifacts="${CONSOLE_ARTIFACTS:-.build/console-browser}"
screenshots=()
if [ -n "${CONSOLE_SCREENSHOTS:-}" ]; then screenshots=(--screenshots "$CONSOLE_SCREENSHOTS"); fi
exec timeout 300 /usr/bin/python3 Tests/Browser/console_test.py --hermes "$hermes" --artifacts "$artifacts" "${screenshots[@]}"
