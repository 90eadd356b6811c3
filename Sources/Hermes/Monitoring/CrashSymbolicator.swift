#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the functions of a crash report's stack, at the next start: finds each address's
/// image, reads that file's ELF symbols, and demangles Swift names with the runtime's demangler.
/// The addresses belong to the crashed process, so only the image files are consulted, never
/// the running process's symbols (`dladdr` would name this process's layout).
struct CrashSymbolicator {
    /// Reads the symbols of an image file; injected so tests can name symbols without files.
    var symbols: (String) -> ELFSymbolTable? = { ELFSymbolTable(path: $0) }

    /// The report as text: a heading line, then one line per frame,
    /// `<n>  <image>  0x<address>  <function> + <offset>` (or `<image> + 0x<offset>` when the
    /// function is unknown, or `???` when no image holds the address).
    func symbolicate(_ report: CrashReport, images: [CrashImage]) -> String {
        var tables: [String: ELFSymbolTable?] = [:]
        var lines = [heading(report)]
        for (index, address) in report.frames.enumerated() {
            // A return address points after the call: look up the call itself.
            let lookup = index == 0 ? address : address &- 1
            let number = String(index) + String(repeating: " ", count: max(1, 4 - String(index).count))
            let hex = "0x" + String(address, radix: 16)
            guard let image = images.first(where: { $0.start <= lookup && lookup < $0.end }) else {
                lines.append("\(number)???  \(hex)")
                continue
            }
            if tables[image.path] == nil { tables[image.path] = symbols(image.path) }
            let fileAddress = lookup &- image.bias
            if let table = tables[image.path] ?? nil, let found = table.symbol(containing: fileAddress) {
                let offset = index == 0 ? found.offset : found.offset &+ 1
                lines.append("\(number)\(image.name)  \(hex)  \(Self.demangle(found.symbol.name)) + \(offset)")
            } else {
                lines.append("\(number)\(image.name)  \(hex)  \(image.name) + 0x\(String(address &- image.bias, radix: 16))")
            }
        }
        if !report.isComplete { lines.append("(the report ends here: the crash handler itself failed)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func heading(_ report: CrashReport) -> String {
        "Crashed: \(CrashReport.signalName(report.signal)) (code \(report.code)) at 0x\(String(report.address, radix: 16)), thread \(report.thread)"
    }

    /// A Swift symbol demangled (`$s…` → `Module.function() -> ()`); other names unchanged.
    static func demangle(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") else { return name }
        return name.withCString { pointer in
            guard let demangled = swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return name }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

/// The Swift runtime's demangler (exported by the standard library on every platform).
@_silgen_name("swift_demangle")
private func swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
