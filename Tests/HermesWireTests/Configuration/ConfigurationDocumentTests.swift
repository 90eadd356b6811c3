import HermesWire
import Testing

struct ConfigurationDocumentTests {
    static let specExample = """
        { "revision": 7,
          "namespaces": {
            "hermes": { "url": "http://127.0.0.1:8080", "isUpload": true, "isGather": true,
                        "isUpdateClear": true, "maxBodyMByte": 1, "periodicTimerSecond": 5,
                        "maxItem": 100, "maxFlowMByte": 20, "expirationDay": 15,
                        "monitorList": [ { "type": "appCrash", "onlyWifi": false,
                                           "isRealtime": true, "isUploadPayload": true } ] } } }
        """

    @Test func theSpecExampleDecodes() throws {
        let document = try ConfigurationDocument(jsonBytes: Array(Self.specExample.utf8))
        #expect(document.revision == 7)
        let hermes = try #require(document.namespaces["hermes"])
        #expect(hermes.url == "http://127.0.0.1:8080")
        #expect(hermes.maxItem == 100 && hermes.periodicTimerSecond == 5 && hermes.expirationDay == 15)
        #expect(hermes.monitorList == [MonitorItem(type: "appCrash", isRealtime: true, isUploadPayload: true)])
        #expect(hermes.maxCacheCount == 10_000 && hermes.flushCount == 100 && hermes.maxMetaKByte == 10)
    }

    @Test func theBuiltInDefaultMatchesTheSpec() {
        let hermes = ConfigurationDocument.builtIn.namespaces["hermes"]
        #expect(
            hermes
                == NamespaceConfiguration(
                    url: nil, isUpload: true, isGather: true, isUpdateClear: true,
                    maxBodyMByte: 1, periodicTimerSecond: 5, maxItem: 100, maxFlowMByte: 20, expirationDay: 15,
                    monitorList: [
                        MonitorItem(type: "appCrash", onlyWifi: false, isRealtime: true, isUploadPayload: true, sampleRate: 1),
                        MonitorItem(type: "appAbnormalExit"), MonitorItem(type: "appLag"), MonitorItem(type: "appBoot"), MonitorItem(type: "net"),
                        MonitorItem(type: "netError"),
                        MonitorItem(type: "sdkHealth"),
                    ],
                    maxCacheCount: 10_000, flushCount: 100, maxMetaKByte: 10
                ))
        #expect(ConfigurationDocument.builtIn.revision == 0)
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = #"{"revision":1,"future":{"x":1},"namespaces":{"JZ":{"maxItem":10,"newKnob":"on","monitorList":[{"type":"pay","colour":"red"}]}}}"#
        let document = try ConfigurationDocument(jsonBytes: Array(text.utf8))
        #expect(document.namespaces["JZ"]?.maxItem == 10)
        #expect(document.namespaces["JZ"]?.monitorList == [MonitorItem(type: "pay")])
    }

    @Test(arguments: [
        (#"{"namespaces":{"JZ":{"maxItem":"ten"}}}"#, "namespaces.JZ.maxItem must be a number"),
        (#"{"namespaces":{"JZ":{"isGather":1}}}"#, "namespaces.JZ.isGather must be true or false"),
        (#"{"namespaces":{"JZ":{"monitorList":{}}}}"#, "namespaces.JZ.monitorList must be an array"),
        (#"{"namespaces":{"JZ":{"monitorList":[{"type":""}]}}}"#, "namespaces.JZ.monitorList[0].type must be a non-empty string"),
        (#"{"namespaces":{"JZ":{"url":5}}}"#, "namespaces.JZ.url must be a string"),
        (#"{"namespaces":[]}"#, "namespaces must be an object"),
        (#"{"revision":"7"}"#, "revision must be a number"),
        (#"[]"#, "configuration must be a JSON object"),
    ])
    func aFieldOfTheWrongTypeIsATypedErrorNamingTheField(text: String, reason: String) {
        do {
            _ = try ConfigurationDocument(jsonBytes: Array(text.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .malformedConfiguration)
            #expect(error.message.hasSuffix(reason), "\(error.message)")
        }
    }

    @Test func malformedJSONIsATypedError() {
        expectWireError(.malformedConfiguration) { try ConfigurationDocument(jsonBytes: Array("{\"revision\":".utf8)) }
    }

    @Test func missingFieldsTakeTheBuiltInDefaults() throws {
        let document = try ConfigurationDocument(jsonBytes: Array(#"{"namespaces":{"hermes":{},"JZ":{"maxItem":5}}}"#.utf8))
        #expect(document.revision == 0)
        #expect(document.namespaces["hermes"] == .hermesDefault)
        var expected = NamespaceConfiguration.hermesDefault
        expected.maxItem = 5
        expected.monitorList = []
        #expect(document.namespaces["JZ"] == expected)
    }

    @Test func aNullURLMeansTheClientsOwnCollector() throws {
        let document = try ConfigurationDocument(jsonBytes: Array(#"{"namespaces":{"JZ":{"url":null}}}"#.utf8))
        #expect(document.namespaces["JZ"]?.url == nil)
    }

    @Test func numbersMayBeFractionalAndCountsRoundDown() throws {
        let text =
            #"{"namespaces":{"JZ":{"maxBodyMByte":0.5,"periodicTimerSecond":2.5,"maxItem":10.9,"monitorList":[{"type":"pay","sampleRate":0.25}]}}}"#
        let jz = try #require(try ConfigurationDocument(jsonBytes: Array(text.utf8)).namespaces["JZ"])
        #expect(jz.maxBodyMByte == 0.5)
        #expect(jz.periodicTimerSecond == 2.5)
        #expect(jz.maxItem == 10)
        #expect(jz.monitorList.first?.sampleRate == 0.25)
    }

    @Test func hugeCountsDoNotTrap() throws {
        let text = #"{"namespaces":{"JZ":{"maxItem":1e300,"flushCount":-1e300}}}"#
        let (document, adjustments) = try ConfigurationDocument(jsonBytes: Array(text.utf8)).clamped()
        #expect(document.namespaces["JZ"]?.maxItem == 100)
        #expect(document.namespaces["JZ"]?.flushCount == 1)
        #expect(adjustments.map(\.field) == ["maxItem", "flushCount"])
    }

    @Test func encodingRoundTripsThroughDecoding() throws {
        var document = ConfigurationDocument.builtIn
        document.revision = 3
        document.namespaces["JZ"] = NamespaceConfiguration(
            url: nil, maxBodyMByte: 0.5, monitorList: [MonitorItem(type: "pay", onlyWifi: true, sampleRate: 0.1)])
        #expect(try ConfigurationDocument(jsonBytes: document.jsonBytes()) == document)
    }
}
