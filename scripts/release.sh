#!/usr/bin/env bash
# Builds a release `hermes` with the Swift runtime and Foundation linked in
# (--static-swift-stdlib) and packs it with the systemd unit, the haproxy configuration, an
# example settings file and INSTALL.md:
#   bash scripts/release.sh            # dist/hermes-<version>-linux-<arch>.tar.gz
# The binary still needs the system's C libraries: glibc, libstdc++, libsqlite3, zlib and libcurl
# (Debian: libsqlite3-0, zlib1g, libcurl4; FoundationNetworking, linked in, calls libcurl); LIBRARIES in
# the archive lists what ldd found. Building needs libcurl's development files
# (libcurl4-openssl-dev) to link against.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/HermesWire/HermesVersion.swift)
name="hermes-$version-linux-$(uname -m)"
scratch=.build-release-static
timeout 3600 swift build -c release --product hermes --static-swift-stdlib --scratch-path "$scratch"

rm -rf "dist/$name"
mkdir -p "dist/$name/bin" "dist/$name/deploy"
install -m 0755 "$scratch/release/hermes" "dist/$name/bin/hermes"
cp deploy/hermes-collector@.service deploy/haproxy.cfg deploy/collector.yaml "dist/$name/deploy/"
cp deploy/INSTALL.md LICENSE "dist/$name/"
ldd "dist/$name/bin/hermes" | sed 's/ (0x[0-9a-f]*)//' > "dist/$name/LIBRARIES"
if grep -q 'libswift\|libFoundation\|not found' "dist/$name/LIBRARIES"; then
    echo "the binary still links the Swift runtime, or misses a library:" >&2
    cat "dist/$name/LIBRARIES" >&2
    exit 1
fi
"dist/$name/bin/hermes" --version
tar -C dist -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz"
