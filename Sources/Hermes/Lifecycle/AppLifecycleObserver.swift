#if canImport(UIKit)
public import UIKit

/// Connects a client to the app's lifecycle on iOS: entering the background runs
/// ``HermesClient/didEnterBackground()`` inside a background task (flush, upload, timers
/// paused), coming back runs ``HermesClient/willEnterForeground()`` (session timeout, timers).
///
/// ```swift
/// let observer = AppLifecycleObserver(client: client)   // keep it as long as the client
/// ```
/// Call ``stop()`` to stop observing.
@MainActor
public final class AppLifecycleObserver {
    private let client: HermesClient
    private var tokens: [any NSObjectProtocol] = []

    /// Starts observing the app's notifications.
    public init(client: HermesClient) {
        self.client = client
        let center = NotificationCenter.default
        tokens.append(
            center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [client] _ in
                MainActor.assumeIsolated { Self.runInBackgroundTask(client) }
            })
        tokens.append(
            center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [client] _ in
                client.willEnterForeground()
            })
    }

    /// Stops observing.
    public func stop() {
        tokens.forEach { NotificationCenter.default.removeObserver($0) }
        tokens.removeAll()
    }

    private static func runInBackgroundTask(_ client: HermesClient) {
        let application = UIApplication.shared
        let task = Task {
            await client.didEnterBackground()
        }
        let identifier = application.beginBackgroundTask(withName: "hermes.upload") {
            // Out of time: the upload stops; its batch goes back to pending.
            task.cancel()
        }
        Task { @MainActor in
            await task.value
            if identifier != .invalid { application.endBackgroundTask(identifier) }
        }
    }
}
#endif
