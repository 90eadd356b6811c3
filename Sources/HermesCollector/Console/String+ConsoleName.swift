extension String {
    /// Whether this is 1 to 64 ASCII letters and digits, and characters of `extra`: the names the
    /// console takes for users, and every API for namespaces (``NamespaceName``).
    func isConsoleName(allowing extra: String) -> Bool {
        (1...64).contains(count)
            && unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || extra.unicodeScalars.contains(scalar))
            }
    }
}
