import HermesWire
package import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    // The names are valid header tokens, fixed at compile time: the unwraps cannot fail.
    // `package` so the tests send the same names.
    package static let hermesNamespace = HTTPField.Name(HermesHeader.namespace)!
    package static let hermesDeviceID = HTTPField.Name(HermesHeader.deviceID)!
    package static let hermesAppVersion = HTTPField.Name(HermesHeader.appVersion)!
    package static let hermesBatchID = HTTPField.Name(HermesHeader.batchID)!
    package static let hermesAppKey = HTTPField.Name(HermesHeader.appKey)!
    package static let hermesPacketVersion = HTTPField.Name(HermesHeader.packetVersion)!
    package static let hermesBatchAcknowledged = HTTPField.Name(HermesHeader.batchAcknowledged)!
    /// The console's CSRF token on every state-changing console request.
    package static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    /// The scheme a proxy in front was reached by (`https` marks the console cookie `Secure`).
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    /// Where a browser's event stream stopped, sent when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// What the console's pages tell the browser to send as the referrer.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    /// Whether a page may be framed (the console's may not).
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
}
