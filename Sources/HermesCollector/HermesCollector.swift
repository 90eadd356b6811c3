// The Hermes collector server: in progress.
