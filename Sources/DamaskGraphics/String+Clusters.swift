extension String {
    /// What a layout needs to know of one grapheme cluster without making a `Character`:
    /// its first scalar and whether it is exactly a space.
    struct ClusterHead {
        /// The cluster's first scalar.
        var scalar: Unicode.Scalar
        /// Whether the cluster is the single scalar U+0020 (a space a mark extends is not).
        var isSpace: Bool
    }

    /// Whether a grapheme cluster boundary lies between the ASCII bytes `first` and `second`:
    /// always but for CR LF (UAX #29 rule GB3). Every other rule that joins scalars involves a
    /// non-ASCII one, so ASCII text needs no grapheme-break tables (issue 29's CPU per key).
    ///
    /// - Precondition: both bytes are ASCII (below 0x80).
    static func isClusterBoundary(betweenASCII first: UInt8, and second: UInt8) -> Bool {
        assert(first < 0x80 && second < 0x80, "not ASCII: \(first), \(second)")
        return first != 0x0D || second != 0x0A
    }

    /// The head of the grapheme cluster that starts at `index`, and the index after the
    /// cluster, without the grapheme-break tables when they cannot matter.
    ///
    /// An ASCII byte followed by an ASCII byte with a boundary between them
    /// (``isClusterBoundary(betweenASCII:and:)``), or by the end, is a cluster of its own. Anything
    /// else (a non-ASCII scalar, or an ASCII one that a combining mark may follow) goes to
    /// the standard library. Text of a Latin script is mostly such bytes: typing a key then
    /// walks its chunk without touching the Unicode tables (issue 29's CPU per key).
    ///
    /// - Precondition: `index` is a cluster boundary before `endIndex`.
    func clusterHead(startingAt index: Index) -> (head: ClusterHead, next: Index) {
        let bytes = utf8
        let byte = bytes[index]
        if byte < 0x80 {
            let next = bytes.index(after: index)
            if next == bytes.endIndex {
                return (ClusterHead(scalar: Unicode.Scalar(byte), isSpace: byte == 0x20), next)
            }
            let following = bytes[next]
            if following < 0x80, Self.isClusterBoundary(betweenASCII: byte, and: following) {
                return (ClusterHead(scalar: Unicode.Scalar(byte), isSpace: byte == 0x20), next)
            }
        }
        let character = self[index]
        // A cluster has at least one scalar.
        let head = ClusterHead(scalar: character.unicodeScalars.first!, isSpace: character == " ")
        return (head, self.index(after: index))
    }
}
