package import HermesWire

/// The figures of one benchmark suite, in the order they are printed.
package struct BenchReport {
    package struct Figure {
        package var key: String
        package var value: Double
        package var label: String
    }

    package var figures: [Figure] = []

    package mutating func add(_ key: String, _ value: Double, _ label: String) {
        figures.append(Figure(key: key, value: value, label: label))
    }

    package var json: JSONValue {
        .object(
            Dictionary(
                uniqueKeysWithValues: figures.map { figure in
                    let rounded = (figure.value * 1000).rounded() / 1000
                    return (figure.key, rounded == rounded.rounded() ? JSONValue.int(Int64(rounded)) : .double(rounded))
                }))
    }

    package func table(title: String) -> String {
        let width = figures.map(\.label.count).max() ?? 0
        var lines = ["== \(title)"]
        for figure in figures {
            let padding = String(repeating: " ", count: width - figure.label.count)
            lines.append("  \(figure.label)\(padding)  \(Self.format(figure.value))")
        }
        return lines.joined(separator: "\n")
    }

    /// One suite's figures, or an object with a key per suite.
    package static func json(_ reports: [(suite: String, report: BenchReport)]) -> JSONValue {
        reports.count == 1
            ? reports[0].report.json
            : .object(Dictionary(uniqueKeysWithValues: reports.map { ($0.suite, $0.report.json) }))
    }

    /// Several suites' figures in one table: suite, figure, value.
    package static func table(_ reports: [(suite: String, report: BenchReport)]) -> String {
        var table = TextTable(columns: ["suite", "figure", "value"])
        for (suite, report) in reports {
            for figure in report.figures { table.add([suite, figure.label, format(figure.value)]) }
        }
        return table.render()
    }

    private static func format(_ value: Double) -> String {
        if abs(value) >= 100 || value == value.rounded() { return String(Int64(value.rounded())) }
        let hundredths = (value * 100).rounded() / 100
        return String(hundredths)
    }
}

/// The middle value of `values` (the upper one of the two middle values of an even count).
package func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// The median over `pairs` alternating runs of `baseline` time divided by `subject` time: the
/// subject's speed relative to the baseline, robust against the machine's speed drifting.
package func medianSpeedRatio(pairs: Int = 15, subject: () throws -> Void, baseline: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var ratios: [Double] = []
    for _ in 0..<pairs {
        let subjectTime = try clock.measure(subject)
        let baselineTime = try clock.measure(baseline)
        ratios.append(baselineTime / subjectTime)
    }
    return median(ratios)
}

/// Times `body` repeatedly, for at least `minimumIterations` runs and about `budget` in all, and
/// returns the median duration of one run in seconds.
package func medianSeconds(minimumIterations: Int = 5, budget: Duration = .milliseconds(600), _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    let start = clock.now
    while samples.count < minimumIterations || (clock.now - start < budget && samples.count < 10_000) {
        samples.append(try clock.measure(body).seconds)
    }
    return median(samples)
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
