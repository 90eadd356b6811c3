// `import Hermes` brings the transports an app configures (`PlatformTransport`, `Transport`)
// with it, as it did before they moved to their own module.
@_exported public import HermesTransport
