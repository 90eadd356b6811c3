import Foundation
@testable import Hermes
import Testing

/// The privacy manifest ships in the SDK's bundle and declares what the SDK does.
struct PrivacyManifestTests {
    @Test func itDeclaresNoTrackingAndTheRequiredReasonAPIsUsed() throws {
        let url = try #require(PrivacyManifest.url)
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        let apis = (plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).compactMap { $0["NSPrivacyAccessedAPIType"] as? String }
        #expect(Set(apis) == ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategorySystemBootTime"])
        let collected = (plist["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? [])
        #expect(collected.allSatisfy { $0["NSPrivacyCollectedDataTypeTracking"] as? Bool == false })
        #expect(collected.compactMap { $0["NSPrivacyCollectedDataType"] as? String }.contains("NSPrivacyCollectedDataTypeCrashData"))
    }
}
