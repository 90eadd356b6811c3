#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock, shared by reference (so escaping closures can capture it): Hermes' own
/// small lock, in place of the standard library's `Mutex`, which needs iOS 18 and macOS 15.
/// An `OSAllocatedUnfairLock` on Apple platforms (iOS 16, macOS 13), a `pthread_mutex_t` elsewhere
/// (adaptive with glibc).
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
        #if canImport(Glibc)
        // Adaptive: a caller that finds the lock taken spins a moment before it sleeps. Hermes
        // holds its locks for nanoseconds, so a second caller almost never has to sleep (a
        // system call and a wake-up of microseconds, on `send`'s path).
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        pthread_mutex_init(mutex, nil)
        #endif
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
