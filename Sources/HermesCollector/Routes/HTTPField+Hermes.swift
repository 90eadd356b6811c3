import HTTPTypes
import Hummingbird
import HermesWire

extension HTTPField.Name {
    // The names are valid header tokens, fixed at compile time: the unwraps cannot fail.
    static let hermesNamespace = HTTPField.Name(HermesHeader.namespace)!
    static let hermesDeviceID = HTTPField.Name(HermesHeader.deviceID)!
    static let hermesBatchID = HTTPField.Name(HermesHeader.batchID)!
    static let hermesAppKey = HTTPField.Name(HermesHeader.appKey)!
    static let hermesPacketVersion = HTTPField.Name(HermesHeader.packetVersion)!
}
