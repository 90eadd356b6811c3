// Test helpers for Hermes users: in progress.
