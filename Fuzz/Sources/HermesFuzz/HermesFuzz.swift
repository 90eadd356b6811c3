import CLibFuzzer
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// libFuzzer's entry point: the input's first byte picks a ``FuzzTarget``, the rest is that
/// target's data.
///
/// Errors the decoders throw are expected and ignored. A finding is a trap (a decoder's, or a
/// failed check of ``FuzzTarget``), a crash or an AddressSanitizer report.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    guard let selector = input.first else { return 0 }
    FuzzTarget(selector: selector).run(Array(input.dropFirst()))
    return 0
}

/// Hands the process to libFuzzer's driver, with libFuzzer's command line
/// (`-max_total_time=60 corpus/`, or crash files to replay them).
///
/// libFuzzer's own `main` cannot be used: SwiftPM links every executable with `main` bound to
/// the module's Swift entry point (`HermesFuzz_main`), so a target without one does not link.
/// `LLVMFuzzerRunDriver` is the driver behind libFuzzer's `main`.
@main
enum LibFuzzerMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                guard let data else { return 0 }
                return fuzz(data, size)
            })
    }
}
