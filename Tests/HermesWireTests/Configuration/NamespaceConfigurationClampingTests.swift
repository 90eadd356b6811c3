import HermesWire
import Testing

struct NamespaceConfigurationClampingTests {
    /// A field, a value to set, and the value clamping must give.
    struct Case: Sendable, CustomTestStringConvertible {
        var field: String
        var value: Double
        var expected: Double
        var testDescription: String { "\(field)=\(value) → \(expected)" }
    }

    static let cases: [Case] = [
        // maxBodyMByte (0, 3]: at or below 0 falls back to the default 1.
        Case(field: "maxBodyMByte", value: 0, expected: 1),
        Case(field: "maxBodyMByte", value: -2, expected: 1),
        Case(field: "maxBodyMByte", value: 0.001, expected: 0.001),
        Case(field: "maxBodyMByte", value: 3, expected: 3),
        Case(field: "maxBodyMByte", value: 3.01, expected: 3),
        // periodicTimerSecond 1...30
        Case(field: "periodicTimerSecond", value: 0.99, expected: 1),
        Case(field: "periodicTimerSecond", value: 1, expected: 1),
        Case(field: "periodicTimerSecond", value: 30, expected: 30),
        Case(field: "periodicTimerSecond", value: 31, expected: 30),
        // maxItem 1...100
        Case(field: "maxItem", value: 0, expected: 1),
        Case(field: "maxItem", value: 1, expected: 1),
        Case(field: "maxItem", value: 100, expected: 100),
        Case(field: "maxItem", value: 101, expected: 100),
        // maxFlowMByte (0, 100]
        Case(field: "maxFlowMByte", value: 0, expected: 20),
        Case(field: "maxFlowMByte", value: 0.01, expected: 0.01),
        Case(field: "maxFlowMByte", value: 100, expected: 100),
        Case(field: "maxFlowMByte", value: 100.5, expected: 100),
        // expirationDay 1...30
        Case(field: "expirationDay", value: 0.5, expected: 1),
        Case(field: "expirationDay", value: 1, expected: 1),
        Case(field: "expirationDay", value: 30, expected: 30),
        Case(field: "expirationDay", value: 45, expected: 30),
        // maxCacheCount 100...1,000,000
        Case(field: "maxCacheCount", value: 99, expected: 100),
        Case(field: "maxCacheCount", value: 100, expected: 100),
        Case(field: "maxCacheCount", value: 1_000_000, expected: 1_000_000),
        Case(field: "maxCacheCount", value: 1_000_001, expected: 1_000_000),
        // flushCount 1...10,000
        Case(field: "flushCount", value: 0, expected: 1),
        Case(field: "flushCount", value: 1, expected: 1),
        Case(field: "flushCount", value: 10_000, expected: 10_000),
        Case(field: "flushCount", value: 10_001, expected: 10_000),
        // maxMetaKByte (0, 64]
        Case(field: "maxMetaKByte", value: 0, expected: 10),
        Case(field: "maxMetaKByte", value: 64, expected: 64),
        Case(field: "maxMetaKByte", value: 65, expected: 64),
        // sampleRate 0...1
        Case(field: "sampleRate", value: -0.1, expected: 0),
        Case(field: "sampleRate", value: 0, expected: 0),
        Case(field: "sampleRate", value: 1, expected: 1),
        Case(field: "sampleRate", value: 1.5, expected: 1),
        // NaN, possible only from code, falls back to the default.
        Case(field: "periodicTimerSecond", value: .nan, expected: 5),
    ]

    @Test(arguments: cases)
    func eachBoundaryClampsAndReportsWhatChanged(testCase: Case) {
        var configuration = NamespaceConfiguration.hermesDefault
        configuration.set(testCase.field, testCase.value)

        let (clamped, adjustments) = configuration.clamped(namespace: "hermes")

        #expect(clamped.value(of: testCase.field) == testCase.expected)
        let changed = !(testCase.value == testCase.expected)
        #expect(adjustments.count == (changed ? 1 : 0))
        if changed, let adjustment = adjustments.first {
            #expect(adjustment.namespace == "hermes")
            #expect(adjustment.field.hasSuffix(testCase.field))
            #expect(adjustment.adjusted == testCase.expected)
        }
    }

    @Test func theAdjustmentSaysWhatWasChanged() {
        var configuration = NamespaceConfiguration.hermesDefault
        configuration.maxItem = 500
        let (_, adjustments) = configuration.clamped(namespace: "JZ")
        #expect(adjustments.map(\.description) == ["namespace JZ: maxItem 500 is out of range; using 100"])
    }

    @Test func theBuiltInDefaultNeedsNoAdjustment() {
        #expect(NamespaceConfiguration.hermesDefault.clamped(namespace: "hermes").1.isEmpty)
    }
}

extension NamespaceConfiguration {
    mutating func set(_ field: String, _ value: Double) {
        switch field {
        case "maxBodyMByte": maxBodyMByte = value
        case "periodicTimerSecond": periodicTimerSecond = value
        case "maxItem": maxItem = Int(value)
        case "maxFlowMByte": maxFlowMByte = value
        case "expirationDay": expirationDay = value
        case "maxCacheCount": maxCacheCount = Int(value)
        case "flushCount": flushCount = Int(value)
        case "maxMetaKByte": maxMetaKByte = value
        case "sampleRate": monitorList[0].sampleRate = value
        default: Issue.record("unknown field \(field)")
        }
    }

    func value(of field: String) -> Double {
        switch field {
        case "maxBodyMByte": maxBodyMByte
        case "periodicTimerSecond": periodicTimerSecond
        case "maxItem": Double(maxItem)
        case "maxFlowMByte": maxFlowMByte
        case "expirationDay": expirationDay
        case "maxCacheCount": Double(maxCacheCount)
        case "flushCount": Double(flushCount)
        case "maxMetaKByte": maxMetaKByte
        case "sampleRate": monitorList[0].sampleRate
        default: .nan
        }
    }
}
