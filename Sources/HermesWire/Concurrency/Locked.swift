#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock, shared by reference (so escaping closures can capture it): Hermes' own
/// small lock, in place of the standard library's `Mutex`, which needs iOS 18 and macOS 15.
/// An `OSAllocatedUnfairLock` on Apple platforms (iOS 16, macOS 13), a `pthread_mutex_t` elsewhere.
///
/// Like `Mutex`, it is `Sendable` whatever the value: the value is only reached under the lock.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    #if canImport(os)
    private let lock = OSAllocatedUnfairLock()
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    package init(_ value: Value) {
        self.value = value
        #if !canImport(os)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        #endif
    }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        #if canImport(os)
        lock.lock()
        defer { lock.unlock() }
        #else
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&value)
    }
}
