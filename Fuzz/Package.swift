// swift-tools-version:6.1
import PackageDescription

// A libFuzzer target over HermesWire's packet and configuration decoders, built and run from
// the repository root by `bash Fuzz/run.sh [seconds]`. It only builds with
// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`, which link libFuzzer in.
let package = Package(
    name: "HermesFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Hermes", path: "..")
    ],
    targets: [
        // The declaration of libFuzzer's driver, which the harness's `main` hands over to.
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "HermesFuzz",
            dependencies: [
                "CLibFuzzer",
                .product(name: "HermesWire", package: "Hermes"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
