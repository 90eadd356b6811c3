/// One out-of-range configuration value and the value used instead.
public struct ConfigurationAdjustment: Sendable, Hashable, CustomStringConvertible {
    /// The namespace whose value was changed.
    public var namespace: String
    /// The JSON key, with the monitor type for per-item fields (`monitorList[net].sampleRate`).
    public var field: String
    /// The value received.
    public var original: Double
    /// The value used.
    public var adjusted: Double

    /// Creates an adjustment record.
    public init(namespace: String, field: String, original: Double, adjusted: Double) {
        self.namespace = namespace
        self.field = field
        self.original = original
        self.adjusted = adjusted
    }

    public var description: String {
        "namespace \(namespace): \(field) \(Self.format(original)) is out of range; using \(Self.format(adjusted))"
    }

    private static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }
}
