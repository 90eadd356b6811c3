#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(Dispatch)
import Dispatch
import Hermes

extension LogPersister {
    /// Saves the buffered entries when the process receives SIGTERM (opt-in; platforms with
    /// Dispatch signal sources: Apple platforms and Linux).
    ///
    /// On SIGTERM the persister saves, waits until the client has made the records durable
    /// (`client.flush()`), and then, with `thenTerminate`, restores the default action and
    /// raises SIGTERM again, so the process ends as it would have. It returns once the signal
    /// source is registered, so a SIGTERM sent after it is not missed. The source replaces
    /// SIGTERM's default action; ``shutdown()`` cancels it and restores the default action.
    /// Do not combine it with another SIGTERM
    /// handler, such as swift-service-lifecycle's: there, let the service group shut the client
    /// down, which saves the entries.
    ///
    /// ```swift
    /// let persister = LogPersister(client: client)
    /// await persister.saveOnSIGTERM()
    /// ```
    /// - Parameter thenTerminate: raise SIGTERM again after saving (default). Pass `false` when
    ///   the app ends itself.
    public func saveOnSIGTERM(thenTerminate: Bool = true) async {
        let source = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        let client = self.client
        source.setEventHandler { [weak self] in
            // A one-shot task: it ends when the save and the flush are done.
            Task {
                await self?.save(reason: .signal)
                try? await client.flush()
                if thenTerminate {
                    signal(SIGTERM, SIG_DFL)
                    kill(getpid(), SIGTERM)
                }
            }
        }
        #if canImport(Darwin)
        // Darwin delivers to the source (kqueue) only what the process's disposition lets
        // through at lower precedence: ignore the default action. Linux's Dispatch installs
        // its own handler.
        signal(SIGTERM, SIG_IGN)
        #endif
        replaceSignalSource(with: SignalSource(source))
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            source.setRegistrationHandler { registered.resume() }
            source.resume()
        }
    }

    /// Cancels the SIGTERM source, if any, and restores SIGTERM's default action.
    func stopSignalHandling() {
        if replaceSignalSource(with: nil) { signal(SIGTERM, SIG_DFL) }
    }
}
#else
extension LogPersister {
    func stopSignalHandling() {}
}
#endif
