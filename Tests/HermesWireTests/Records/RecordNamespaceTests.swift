import HermesWire
import Testing

/// The one rule for business namespaces and stored types.
struct RecordNamespaceTests {
    @Test func onlyTheMonitoringNamespaceStoresItsTypesUnprefixed() {
        #expect(RecordNamespace.storedType("pay", in: "JZ") == "JZ-pay")
        #expect(RecordNamespace.storedType("appCrash", in: "hermes") == "appCrash")
        #expect(!RecordNamespace.isBusiness("hermes"))
        #expect(RecordNamespace.isBusiness("JZ") && RecordNamespace.isBusiness("Hermes"))
    }
}
