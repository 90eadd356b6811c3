// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Hermes",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HermesWire", targets: ["HermesWire"]),
        .executable(name: "hermes", targets: ["hermes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "HermesWire",
            dependencies: [
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "hermes",
            dependencies: [
                "HermesWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "HermesWireTests",
            dependencies: [
                "HermesWire",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)

// Swift 6 language mode everywhere, with the stricter checks swift-log 1.16 uses.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.unsafeFlags(["-Xfrontend", "-require-explicit-sendable"]))
    target.swiftSettings = settings
}
