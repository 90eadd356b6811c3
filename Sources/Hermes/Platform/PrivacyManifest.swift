package import Foundation

/// The SDK's privacy manifest (`PrivacyInfo.xcprivacy`), shipped as a resource for an App Store
/// build to merge; read here only so that tests can check what it declares.
package enum PrivacyManifest {
    /// The manifest in the SDK's resource bundle.
    package static var url: URL? {
        Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy")
    }
}
