// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Hermes",
    // What the SDK's code needs (Duration and Clock, OSAllocatedUnfairLock); the collector's
    // dependencies need no more. Checked on Linux only: see docs/specification.md, Platforms.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "HermesWire", targets: ["HermesWire"]),
        .library(name: "HermesTransport", targets: ["HermesTransport"]),
        .library(name: "Hermes", targets: ["Hermes"]),
        .library(name: "HermesLogging", targets: ["HermesLogging"]),
        .library(name: "HermesTestKit", targets: ["HermesTestKit"]),
        .library(name: "HermesSync", targets: ["HermesSync"]),
        .library(name: "HermesCollector", targets: ["HermesCollector"]),
        .library(name: "HermesCollectorPostgres", targets: ["HermesCollectorPostgres"]),
        .executable(name: "hermes", targets: ["hermes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // Atomics where the SDK needs them, back to iOS 16 and macOS 13 (the standard library's
        // need iOS 18 and macOS 15); already in the graph through SwiftNIO.
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The collector's settings file may be YAML.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The collector's /metrics: counters, request histograms, the database size.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Already a dependency of Hummingbird; named for the HTTP request parts the collector's
        // connection guard sees (NIOHTTPTypes).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Already a dependency of postgres-nio; named for the TLS settings of a postgres:// URL.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
        // The console's password hashes (bcrypt).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // `swift package generate-documentation --target Hermes` (the DocC catalog); builds nothing else.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The journal's hardware CRC-32C and acquire/release access to mapped memory.
        .target(name: "CHermesJournal"),
        // The fatal-signal handler of crash capture: async-signal-safe C.
        .target(name: "CHermesCrash"),
        // Shared by the SDK and the collector: no NIO, no Hummingbird.
        .target(
            name: "HermesWire",
            dependencies: [
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                // v1's AES-CBC and single AES blocks; on Apple platforms CommonCrypto does those,
                // so an app's build compiles no BoringSSL.
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
            ]
        ),
        // HTTP for the SDK and record sync: `Transport`, plain sockets on Linux, URLSession. No NIO.
        .target(name: "HermesTransport", dependencies: ["HermesWire"]),
        // The SDK: no NIO, no Hummingbird.
        .target(
            name: "Hermes",
            dependencies: [
                "HermesWire",
                "HermesTransport",
                "CHermesJournal",
                "CHermesCrash",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                // `HermesClient: Service` (graceful shutdown on servers); no NIO.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The privacy manifest an App Store build of an app merges: no tracking, the data
            // collected, the required-reason APIs used.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // A swift-log handler that persists logs through a Hermes namespace.
        .target(
            name: "HermesLogging",
            dependencies: [
                "Hermes",
                "HermesWire",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HermesTestKit",
            dependencies: [
                "Hermes",
                "HermesTransport",
                "HermesWire",
            ]
        ),
        // Record sync on a device: the shared data set in SQLite, offline writes, /v1/sync. No NIO.
        .target(
            name: "HermesSync",
            dependencies: [
                "HermesWire",
                // `PlatformTransport` for /v1/sync; no NIO.
                "HermesTransport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "HermesCollector",
            dependencies: [
                "HermesWire",
                .product(name: "Yams", package: "Yams"),
                // Alert webhooks: the HTTP client, and (Crypto) their HMAC-SHA256 signatures, the
                // console's session token hashes, crash group signatures (SHA-256).
                "HermesTransport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // The console's password hashes.
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                // HTTPS without a proxy (--tls-cert-file, --tls-key-file).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The console's page, script and style sheet, compiled into the binary.
            resources: [
                .embedInCode("Console/Assets/index.html"),
                .embedInCode("Console/Assets/console.js"),
                .embedInCode("Console/Assets/console.css"),
            ]
        ),
        // The collector's PostgreSQL store, for several instances on one database. Its own target:
        // SQLite-only users and the SDK never build postgres-nio.
        .target(
            name: "HermesCollectorPostgres",
            dependencies: [
                "HermesCollector",
                "HermesWire",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The laboratory: benchmarks, tortures and their support, for `hermes bench|torture|sync`
        // and the harness tests. Not a product.
        .target(
            name: "HermesHarness",
            dependencies: [
                "Hermes",
                .product(name: "Atomics", package: "swift-atomics"),
                "HermesTransport",
                "HermesWire",
                "HermesCollector",
                "HermesCollectorPostgres",
                "HermesLogging",
                "HermesSync",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // The fault proxy of `hermes torture faults` (the SDK itself stays free of NIO).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The round-robin front of `hermes bench collector`.
                .product(name: "NIOPosix", package: "swift-nio"),
                // The raw insert ceiling of `hermes bench collector` on PostgreSQL.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // An app-sized process (it runs only the SDK; the harness gives it the workload) for the
        // memory figure of `hermes bench store` and the device side of `hermes bench e2e`.
        .executableTarget(
            name: "hermes-burst-probe",
            dependencies: ["Hermes", "HermesHarness"],
            path: "Sources/HermesBurstProbe"
        ),
        // An app that really crashes (four ways) after installing crash capture: the crash tests'
        // and `hermes demo`'s child process.
        .executableTarget(
            name: "hermes-crash-probe",
            dependencies: ["Hermes", "CHermesCrash"],
            path: "Sources/HermesCrashProbe"
        ),
        .executableTarget(
            name: "hermes",
            dependencies: [
                "HermesHarness",
                // Built with `hermes` so that `swift run hermes bench store` finds it beside it.
                "hermes-burst-probe",
                "hermes-crash-probe",
                "HermesWire",
                "Hermes",
                "HermesTransport",
                "HermesCollector",
                "HermesCollectorPostgres",
                "HermesLogging",
                "HermesSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // `hermes keys generate` (HPKE public keys).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What the SDK's, the logging handler's and the loopback test harnesses share: a
        // temporary folder, a test clock, a settable wall clock. Not a product.
        .target(
            name: "HermesTestEnvironment",
            dependencies: ["HermesWire", .product(name: "Clocks", package: "swift-clocks")],
            path: "Tests/HermesTestEnvironment"
        ),
        .testTarget(
            name: "HermesWireTests",
            dependencies: [
                "HermesWire",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Vectors"]
        ),
        .testTarget(
            name: "HermesTests",
            dependencies: [
                "Hermes",
                "CHermesJournal",
                .product(name: "Atomics", package: "swift-atomics"),
                "HermesTransport",
                "HermesTestKit",
                "HermesTestEnvironment",
                "HermesWire",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "HermesEndToEndTests",
            dependencies: [
                "hermes",
                "HermesHarness",
                "Hermes",
                "HermesCollector",
                "HermesTestKit",
                "HermesTestEnvironment",
                "HermesWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HermesHarnessTests",
            dependencies: [
                "HermesHarness",
                "Hermes",
                "HermesCollector",
                "HermesTestKit",
                "HermesWire",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HermesLoggingTests",
            dependencies: [
                "HermesLogging",
                "Hermes",
                "HermesTestKit",
                "HermesTestEnvironment",
                "HermesWire",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HermesSyncTests",
            dependencies: [
                "HermesSync",
                "HermesCollector",
                "HermesWire",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HermesCollectorTests",
            dependencies: [
                "HermesCollector",
                "HermesCollectorPostgres",
                "HermesWire",
                // Tests make the collector's database refuse a record (a trigger) to see a batch fail.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Which thread a request's code runs on (`MultiThreadedEventLoopGroup.currentEventLoop`).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)

// Swift 6 language mode everywhere, with the stricter checks swift-log 1.16 uses. No unsafe
// flags: SwiftPM can refuse a product built with them to a package that depends on it by version.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    // Every public type says whether it is Sendable, or the build fails. Only our targets: SwiftPM
    // drops the warning settings of packages it fetches, so an app that depends on Hermes never
    // sees it (passed with -Xswiftc it would also fail SwiftPM's generated test runner).
    settings.append(.treatWarning("ExplicitSendable", as: .error))
    target.swiftSettings = settings
}
