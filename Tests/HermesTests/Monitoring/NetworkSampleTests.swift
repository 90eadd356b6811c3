@testable import Hermes
import Testing

struct NetworkSampleTests {
    @Test func idsAreTemplatedOutOfPaths() {
        #expect(NetworkSample.pathTemplate("/v1/users/42/orders/9F1C2A7E-55AA-4C1E-9E61-2D2F4B0C1A9E") == "/v1/users/:id/orders/:id")
        #expect(NetworkSample.pathTemplate("/v1/blobs/5d41402abc4b2a76b9719d911017c592") == "/v1/blobs/:id")
        #expect(NetworkSample.pathTemplate("/v1/users/me/v2") == "/v1/users/me/v2")
        #expect(NetworkSample.pathTemplate("/v1/deadbeefcafe") == "/v1/deadbeefcafe")
        #expect(NetworkSample.pathTemplate("") == "/")
        #expect(NetworkSample.pathTemplate("/items/7/") == "/items/:id/")
    }

    @Test func filledTaskMetricsWinOverTheSDKsOwnMeasurement() {
        let own = NetworkSample.Measurement(duration: .milliseconds(30), requestBytes: 7, responseBytes: 8, source: "sdk")
        let metrics = NetworkSample.Measurement(duration: .milliseconds(21), requestBytes: 7, responseBytes: 5, source: "metrics")

        #expect(NetworkSample.Measurement.choose(metrics: metrics, own: own) == metrics)
        #expect(NetworkSample.Measurement.choose(metrics: nil, own: own) == own)
        var empty = metrics
        empty.duration = .zero
        #expect(NetworkSample.Measurement.choose(metrics: empty, own: own) == own)
    }
}
