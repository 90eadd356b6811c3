// The Hermes SDK: see HermesClient.swift (in progress).
