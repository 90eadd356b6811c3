import Foundation

/// The device facts Hermes writes into every record (`OS_NAME`, `OS_VERSION`, `DEVICE_MODEL`).
public struct DeviceInfo: Sendable, Hashable {
    /// `OS_NAME`.
    public var osName: String
    /// `OS_VERSION`.
    public var osVersion: String
    /// `DEVICE_MODEL`.
    public var model: String

    /// Creates device facts.
    public init(osName: String, osVersion: String, model: String) {
        self.osName = osName
        self.osVersion = osVersion
        self.model = model
    }

    /// The facts of the device this runs on.
    public static var current: DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return DeviceInfo(
            osName: osName,
            osVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            model: machine
        )
    }

    private static var osName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #else
        "unknown"
        #endif
    }

    /// The hardware identifier from `uname` (`iPhone16,2`, `arm64`, `x86_64`).
    private static var machine: String {
        var info = utsname()
        guard uname(&info) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &info.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
