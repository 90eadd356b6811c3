// swift-tools-version:6.2
import PackageDescription

// The README's quick start as a package of its own: `swift run` here builds it against this
// checkout. With HERMES_PACKAGE_URL set it depends on Hermes as an app does, by version
// (`scripts/check-quickstart.sh` points it at a throwaway clone tagged 0.1.0).
let hermes: Package.Dependency =
    if let url = Context.environment["HERMES_PACKAGE_URL"] {
        .package(url: url, from: "0.1.0")
    } else {
        .package(name: "Hermes", path: "../..")
    }

let package = Package(
    name: "QuickStart",
    platforms: [.macOS(.v15)],
    dependencies: [hermes],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [
                .product(name: "Hermes", package: "Hermes"),
                .product(name: "HermesWire", package: "Hermes"),
            ]
        ),
    ]
)
