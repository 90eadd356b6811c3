import Foundation
import HermesCollector
import HermesWire
import Testing

struct CrashSignatureTests {
    /// The stack of `hermes demo`'s index-out-of-range crash (Linux, debug build).
    static let linuxStack = """
        Crashed: SIGILL (code 2) at 0x7f213856df7f, thread 2294
        0   libswiftCore.so  0x7f213856df7f  closure #1 (…) in Swift._assertionFailure(_: Swift.StaticString, …) -> Swift.Never + 623
        1   libswiftCore.so  0x7f21386f961f  Swift._assertionFailure(_: Swift.StaticString, _: Swift.StaticString) -> Swift.Never + 303
        2   libswiftSwiftOnoneSupport.so  0x7f2138bdcf65  merged generic specialization <Swift.UInt64> of Swift.Array.subscript.getter : (Swift.Int) -> A + 85
        3   hermes-crash-probe  0x55839a4ed600  hermes_crash_probe.crashProbeIndexesPastTheEnd(Swift.Array<Swift.Int>, Swift.Int) -> Swift.Int + 48
        4   hermes-crash-probe  0x55839a4ecc1c  main + 2652
        5   libc.so.6  0x7f2136c4524a  libc.so.6 + 0x2724a

        """

    static let meta: JSONValue = ["signal": "SIGILL", "signalNumber": 4]

    static func signature(_ stack: String, meta: JSONValue = meta) -> CrashSignature {
        CrashSignature(meta: meta, payload: Array(stack.utf8))
    }

    @Test func linuxStackIsNamedByTheAppFramesBelowTheRuntime() {
        let signature = Self.signature(Self.linuxStack)
        #expect(signature.signal == "SIGILL")
        #expect(
            signature.frames == [
                "hermes-crash-probe hermes_crash_probe.crashProbeIndexesPastTheEnd(Swift.Array<Swift.Int>, Swift.Int) -> Swift.Int",
                "hermes-crash-probe main",
            ])
        #expect(signature.title == "SIGILL in crashProbeIndexesPastTheEnd(…)")
        #expect(signature.culprit == "hermes_crash_probe.crashProbeIndexesPastTheEnd(Swift.Array<Swift.Int>, Swift.Int) -> Swift.Int")
        #expect(signature.digest.count == 64)
        #expect(signature.digest.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func sameCrashAtOtherAddressesAndOffsetsIsTheSameGroup() {
        let moved = Self.linuxStack
            .replacingOccurrences(of: "0x55839a4e", with: "0x61a2bb3e")
            .replacingOccurrences(of: "0x7f21", with: "0x7fa9")
            .replacingOccurrences(of: "+ 48", with: "+ 52")
            .replacingOccurrences(of: "main + 2652", with: "main + 2700")
            .replacingOccurrences(of: "thread 2294", with: "thread 77")
        #expect(moved != Self.linuxStack)
        #expect(Self.signature(moved).digest == Self.signature(Self.linuxStack).digest)
    }

    @Test func anotherTopAppFrameIsAnotherGroup() {
        let other = Self.linuxStack.replacingOccurrences(of: "crashProbeIndexesPastTheEnd", with: "crashProbeUnwrapsNil")
        #expect(Self.signature(other).digest != Self.signature(Self.linuxStack).digest)
        #expect(Self.signature(other).title == "SIGILL in crashProbeUnwrapsNil(…)")
    }

    @Test func anotherSignalIsAnotherGroup() {
        let trap = Self.signature(Self.linuxStack, meta: ["signal": "SIGTRAP"])
        #expect(trap.digest != Self.signature(Self.linuxStack).digest)
        #expect(trap.title == "SIGTRAP in crashProbeIndexesPastTheEnd(…)")
    }

    @Test func appleStackPassesOverSystemFrameworks() {
        let stack = """
            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001e8f7a42c __pthread_kill + 8
            1   libsystem_pthread.dylib       \t0x00000001fc9b6c0c pthread_kill + 268
            2   libswiftCore.dylib            \t0x00000001a0b1c2d4 Swift._assertionFailure(_: Swift.StaticString) -> Swift.Never + 1112
            3   Shop                          \t0x0000000104a5c3a4 Shop.CartViewController.checkout() -> () + 36 (CartViewController.swift:42)
            4   Shop                          \t0x0000000104a5d100 @objc Shop.CartViewController.checkout() -> () + 28
            5   UIKitCore                     \t0x00000001a3c1b2a0 -[UIApplication sendAction:to:from:forEvent:] + 100
            6   CoreFoundation                \t0x00000001a1e2f3c4 __CFRunLoopRun + 1996
            7   Shop                          \t0x0000000104a60000 0x104a58000 + 32768
            """
        let signature = Self.signature(stack, meta: ["signal": "SIGTRAP"])
        #expect(
            signature.frames == [
                "Shop Shop.CartViewController.checkout() -> ()", "Shop @objc Shop.CartViewController.checkout() -> ()", "Shop Shop",
            ])
        #expect(signature.title == "SIGTRAP in checkout()")
        #expect(signature.culprit == "Shop.CartViewController.checkout() -> ()")
    }

    @Test func stackOfSystemFramesOnlyUsesTheTopThree() {
        let stack = """
            0   libsystem_kernel.dylib  0x1e8f7a42c  __pthread_kill + 8
            1   libsystem_c.dylib  0x1a9d3c8a0  abort + 180
            2   libc++abi.dylib  0x1b2f0a1c4  libc++abi.dylib + 0x1a1c4
            3   CoreFoundation  0x1a1e2f3c4  __CFRunLoopRun + 1996
            """
        let signature = Self.signature(stack, meta: ["signal": "SIGABRT"])
        #expect(signature.frames == ["libsystem_kernel.dylib __pthread_kill", "libsystem_c.dylib abort", "libc++abi.dylib libc++abi.dylib"])
        #expect(signature.title == "SIGABRT in __pthread_kill")
    }

    @Test func framesInNoImageAreLeftOut() {
        let stack = """
            Crashed: SIGSEGV (code 1) at 0x8, thread 9
            0   ???  0x7f0000001000
            1   app  0x55000000a000  app.handle(request: app.Request) throws -> () + 12
            """
        #expect(Self.signature(stack, meta: [:]).frames == ["app app.handle(request: app.Request) throws -> ()"])
        #expect(Self.signature(stack, meta: [:]).signal == "SIGSEGV")
        #expect(Self.signature(stack, meta: [:]).title == "SIGSEGV in handle(…)")
    }

    @Test func garbagePayloadsFallBackToTheSignalAlone() {
        let empty = CrashSignature(meta: Self.meta, payload: [])
        let absent = CrashSignature(meta: Self.meta, payload: nil)
        let binary = CrashSignature(meta: Self.meta, payload: (0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        for signature in [empty, absent, binary] {
            #expect(signature.frames == [])
            #expect(signature.title == "SIGILL")
            #expect(signature.culprit == nil)
            #expect(signature.digest == empty.digest)
        }
        #expect(CrashSignature(meta: ["signal": "SIG\u{0}\nILL"], payload: nil).signal == "unknown")
        #expect(CrashSignature(meta: "not an object", payload: nil).title == "unknown")
    }

    @Test func hugePayloadIsReadOnlyAtItsStart() {
        let line = "7   app  0x55000000a000  app.spin() -> () + 12\n"
        let huge = Self.linuxStack + String(repeating: line, count: 200_000) + "9   app  0x1  app.never() -> ()\n"
        let signature = Self.signature(huge)
        #expect(signature.frames.count == 3)
        #expect(signature.frames.last == "app app.spin() -> ()")
        #expect(!signature.frames.contains("app app.never() -> ()"))
    }

    @Test func titlesShortenFunctionNames() {
        func title(_ function: String) -> String {
            Self.signature("0   app  0x1000  \(function) + 4", meta: ["signal": "SIGILL"]).title
        }
        #expect(title("main") == "SIGILL in main")
        #expect(title("closure #1 (Swift.Int) -> () in app.Worker.run() -> ()") == "SIGILL in run()")
        #expect(title("static app.Parser<A>.parse(Swift.String) throws -> A") == "SIGILL in parse(…)")
        #expect(
            title("-[AppDelegate application:didFinishLaunchingWithOptions:]")
                == "SIGILL in -[AppDelegate application:didFinishLaunchingWithOptions:]")
        #expect(Self.signature("0   app  0x1000  app + 0x1f00").title == "SIGILL in app")
    }
}
