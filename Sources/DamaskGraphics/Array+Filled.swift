extension Array {
    /// An array of `count` copies of `element`, allocated by code specialized for `Element`.
    ///
    /// `init(repeating:count:)` and `init(unsafeUninitializedCapacity:initializingWith:)`
    /// allocate through a standard-library function that is never specialized: at every
    /// call it asks the runtime for the metadata of the array's storage class, a lookup in
    /// the runtime's metadata cache (some 40 lines of code, fetched cold by a typed key).
    /// Reserving and appending is specialized and looks nothing up. For the arrays a typed
    /// key makes (CONTRIBUTING.md, "Arrays on the per-frame and per-key paths").
    init(filledWith element: Element, count: Int) {
        assert(count >= 0, "an array of \(count) elements")
        self.init()
        reserveCapacity(count)
        append(contentsOf: repeatElement(element, count: count))
    }
}
