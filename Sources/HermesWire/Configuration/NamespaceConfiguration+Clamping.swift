extension NamespaceConfiguration {
    /// The allowed range of a value. A value below a range that excludes its lower bound
    /// (`(0, 3]`) is not clamped to an invalid minimum but replaced by the default.
    package struct Limit: Sendable {
        package var lower: Double
        package var lowerIsOpen: Bool
        package var upper: Double
        package var fallback: Double

        func apply(_ value: Double) -> Double {
            if value.isNaN { return fallback }
            if lowerIsOpen ? value <= lower : value < lower { return lowerIsOpen ? fallback : lower }
            return min(value, upper)
        }
    }

    static let maxBodyMByteLimit = Limit(lower: 0, lowerIsOpen: true, upper: 3, fallback: 1)
    static let periodicTimerSecondLimit = Limit(lower: 1, lowerIsOpen: false, upper: 30, fallback: 5)
    static let maxItemLimit = Limit(lower: 1, lowerIsOpen: false, upper: 100, fallback: 100)
    static let maxFlowMByteLimit = Limit(lower: 0, lowerIsOpen: true, upper: 100, fallback: 20)
    static let expirationDayLimit = Limit(lower: 1, lowerIsOpen: false, upper: 30, fallback: 15)
    static let maxCacheCountLimit = Limit(lower: 100, lowerIsOpen: false, upper: 1_000_000, fallback: 10_000)
    static let flushCountLimit = Limit(lower: 1, lowerIsOpen: false, upper: 10_000, fallback: 100)
    static let maxMetaKByteLimit = Limit(lower: 0, lowerIsOpen: true, upper: 64, fallback: 10)

    /// The configuration with the largest sizes any clamped configuration can have (`maxItem`,
    /// `maxBodyMByte`, `maxMetaKByte` at their upper bounds): what a collector accepts for a
    /// namespace it does not configure.
    public static var widest: NamespaceConfiguration {
        var widest = NamespaceConfiguration()
        widest.maxItem = Int(maxItemLimit.upper)
        widest.maxBodyMByte = maxBodyMByteLimit.upper
        widest.maxMetaKByte = maxMetaKByteLimit.upper
        return widest
    }
    static let sampleRateLimit = Limit(lower: 0, lowerIsOpen: false, upper: 1, fallback: 1)

    /// Each clamped field's wire name and range, in the order of the specification's table
    /// (`sampleRate` is each monitor item's): what an editor shows beside each field.
    package static let limitsByField: [(field: String, limit: Limit)] = [
        ("maxBodyMByte", maxBodyMByteLimit), ("periodicTimerSecond", periodicTimerSecondLimit), ("maxItem", maxItemLimit),
        ("maxFlowMByte", maxFlowMByteLimit), ("expirationDay", expirationDayLimit), ("maxCacheCount", maxCacheCountLimit),
        ("flushCount", flushCountLimit), ("maxMetaKByte", maxMetaKByteLimit), ("sampleRate", sampleRateLimit),
    ]

    /// This configuration with every value brought into its range (specification §3), and one
    /// adjustment per value that was changed. Never traps, whatever the values.
    ///
    /// Open lower bounds (`maxBodyMByte`, `maxFlowMByte`, `maxMetaKByte` must be above 0):
    /// a value at or below 0 is replaced by the built-in default. NaN is replaced by the default.
    /// - Parameter namespace: the namespace's name, for the adjustment records.
    /// - Returns: the clamped configuration and what was changed.
    public func clamped(namespace: String) -> (NamespaceConfiguration, [ConfigurationAdjustment]) {
        var result = self
        var adjustments: [ConfigurationAdjustment] = []

        func clamp(_ value: inout Double, _ field: String, _ limit: Limit) {
            let adjusted = limit.apply(value)
            if adjusted != value || value.isNaN {
                adjustments.append(.init(namespace: namespace, field: field, original: value, adjusted: adjusted))
                value = adjusted
            }
        }
        func clamp(_ value: inout Int, _ field: String, _ limit: Limit) {
            var real = Double(value)
            clamp(&real, field, limit)
            value = Int(real)
        }

        clamp(&result.maxBodyMByte, "maxBodyMByte", Self.maxBodyMByteLimit)
        clamp(&result.periodicTimerSecond, "periodicTimerSecond", Self.periodicTimerSecondLimit)
        clamp(&result.maxItem, "maxItem", Self.maxItemLimit)
        clamp(&result.maxFlowMByte, "maxFlowMByte", Self.maxFlowMByteLimit)
        clamp(&result.expirationDay, "expirationDay", Self.expirationDayLimit)
        clamp(&result.maxCacheCount, "maxCacheCount", Self.maxCacheCountLimit)
        clamp(&result.flushCount, "flushCount", Self.flushCountLimit)
        clamp(&result.maxMetaKByte, "maxMetaKByte", Self.maxMetaKByteLimit)
        for index in result.monitorList.indices {
            let field = "monitorList[\(result.monitorList[index].type)].sampleRate"
            clamp(&result.monitorList[index].sampleRate, field, Self.sampleRateLimit)
        }
        return (result, adjustments)
    }
}
