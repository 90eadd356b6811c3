#!/usr/bin/env bash
# Fuzzes HermesWire's packet and configuration decoders with libFuzzer for a while.
#
#   bash Fuzz/run.sh [seconds]      # default 60; run from anywhere in the repository
#
# Builds Fuzz/ into .build-fuzz/ (debug: the shortest build, 1.5 to 2 minutes from clean;
# HERMES_FUZZ_CONFIGURATION=release takes about a minute longer and runs 2 to 4 times as many
# inputs a second, for long runs), writes the seed corpus into .build-fuzz/corpus/ (the test
# vectors, configuration documents and the committed regressions of
# Tests/HermesWireTests/Vectors/fuzz-regressions/), and fuzzes. Inputs that crash land in
# .build-fuzz/artifacts/, and the script then exits non-zero. Replay one with
# `SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Fuzz/lsan.supp .build-fuzz/debug/HermesFuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
configuration="${HERMES_FUZZ_CONFIGURATION:-debug}"
scratch=.build-fuzz
corpus="$scratch/corpus"
artifacts="$scratch/artifacts"
regressions=Tests/HermesWireTests/Vectors/fuzz-regressions

# HermesWire links the system zlib, as for the main tests (.ci/run).
if [ ! -f /usr/include/zlib.h ]; then
    echo "installing: zlib1g-dev"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zlib1g-dev
fi

echo "building the fuzzer ($configuration)"
build_start=$SECONDS
# ld.gold warns "Cannot export local symbol" for ASan's helpers: harmless, and thousands of lines.
if ! swift build --package-path Fuzz --scratch-path "$scratch" -c "$configuration" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
    | { grep -v "Cannot export local symbol" || true; }; then
    echo "fuzz: the fuzzer did not build" >&2
    exit 1
fi
fuzzer="$scratch/$configuration/HermesFuzz"
echo "built in $((SECONDS - build_start)) s"

mkdir -p "$corpus" "$artifacts"
python3 Fuzz/seed_corpus.py Tests/HermesWireTests/Vectors/vectors.json "$corpus"
if [ -d "$regressions" ]; then find "$regressions" -type f -exec cp {} "$corpus"/ \;; fi
crashes_before=$(find "$artifacts" -type f | wc -l)

log="$scratch/fuzz.log"
echo "fuzzing for $seconds s ($(find "$corpus" -type f | wc -l) inputs in $corpus); log: $log"
fuzz_start=$SECONDS
status=0
# Swift's own crash backtracer would run first, and trips ASan; libFuzzer reports a trap itself.
# LeakSanitizer misreads some globals as leaks: Fuzz/lsan.supp says which.
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1 || status=$?
elapsed=$((SECONDS - fuzz_start))

crashes=$(( $(find "$artifacts" -type f | wc -l) - crashes_before ))
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    # From the first report (a Swift trap's message, or a sanitizer's or libFuzzer's) on.
    awk '/Fatal error|Precondition failed|Assertion failed|==[0-9]+== ?ERROR/ { found = 1 } found' "$log" | head -n 150
    echo "fuzz: FAILED (libFuzzer exit $status, $crashes new crash file(s) in $artifacts/)" >&2
    echo "fuzz: ${executions:-?} executions in $elapsed s"
    exit 1
fi
grep -E "^#[0-9]+[[:space:]]+DONE" "$log" || true
echo "fuzz: ${executions:-?} executions in $elapsed s (${rate:-?} exec/s), no crash"
