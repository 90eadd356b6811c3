import HermesWire
package import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    // The names are valid header tokens, fixed at compile time: the unwraps cannot fail.
    // `package` so the tests send the same names.
    package static let hermesNamespace = HTTPField.Name(HermesHeader.namespace)!
    package static let hermesDeviceID = HTTPField.Name(HermesHeader.deviceID)!
    package static let hermesBatchID = HTTPField.Name(HermesHeader.batchID)!
    package static let hermesAppKey = HTTPField.Name(HermesHeader.appKey)!
    package static let hermesPacketVersion = HTTPField.Name(HermesHeader.packetVersion)!
    package static let hermesBatchAcknowledged = HTTPField.Name(HermesHeader.batchAcknowledged)!
}
