/// The images that are not the app's own code: the system's and the language runtime's libraries
/// on Linux and Apple platforms. A crash group is named after the top frames outside them.
///
/// An image is matched by its stem, the name up to its first dot (`libc.so.6` → `libc`,
/// `libsystem_kernel.dylib` → `libsystem_kernel`), against whole names and prefixes.
package enum SystemImages {
    /// Stems that name a system image whole.
    static let names: Set<String> = [
        "libc", "libm", "libdl", "librt", "libutil", "libgcc_s", "libstdc++", "libc++", "libc++abi", "libz", "libcurl", "libxml2",
        "libBlocksRuntime", "libxctest", "libdyld", "dyld", "libobjc", "CoreFoundation", "UIKit", "UIKitCore", "AppKit", "SwiftUI",
        "SwiftUICore", "QuartzCore", "GraphicsServices", "CFNetwork", "Combine", "XCTest", "FrontBoardServices", "BaseBoard",
        "RunningBoardServices", "CoreGraphics", "Security", "libicucore",
    ]

    /// Stem prefixes of system images (Swift's runtime and libraries, glibc's loader, Foundation
    /// in every shape, libdispatch, Apple's `libsystem_*`).
    static let prefixes = [
        "libswift", "ld-linux", "ld64", "libpthread", "libdispatch", "libFoundation", "Foundation", "libsystem_", "libicu", "libxpc",
    ]

    /// Whether `image` is a system or runtime library rather than the app's own code.
    package static func contains(_ image: String) -> Bool {
        let stem = image.prefix { $0 != "." }
        return names.contains(String(stem)) || prefixes.contains { stem.hasPrefix($0) }
    }
}
