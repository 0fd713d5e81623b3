import Foundation

extension TextLayout {
    /// The clusters of some chunks that reach an x range, in logical order: each one's
    /// position in the line, its x extent, and where its UTF-8 bytes lie in its chunk's text.
    ///
    /// A text view lists the clusters of the chunks an edit changed, before and after, and
    /// compares them to find the pixels that changed. Two clusters compare by their bytes
    /// (``hasSameText(at:as:in:)``), so no `Character` is made per cluster, and the list
    /// holds plain values: a typed key lists a chunk of up to 48 clusters twice (issue 29's
    /// CPU per key). Bytes compare more strictly than `Character`s do (a precomposed letter
    /// differs from its decomposed form), which only ever redraws more.
    public struct ClusterList {
        /// One cluster of the list.
        public struct Cluster {
            /// Its position in the line (clusters from the line's start).
            public let position: Int
            /// Its x extent, user units from the line's origin.
            public let extent: ClosedRange<CGFloat>
            /// Which of the list's chunk texts holds it.
            let chunk: Int
            /// Its UTF-8 offsets in that text.
            let bytes: Range<Int>
            /// Its first eight UTF-8 bytes, the first in the lowest byte (zeros after the
            /// last): the whole cluster when ``bytes`` counts eight or fewer, as most do.
            let head: UInt64
        }

        /// The clusters, in the order they were appended.
        public private(set) var clusters: [Cluster] = []
        /// The text of each chunk appended (shared storage, not copied).
        private var texts: [String] = []

        /// An empty list with room for `capacity` clusters.
        public init(capacity: Int = 0) {
            clusters.reserveCapacity(capacity)
        }

        /// How many clusters the list holds.
        public var count: Int { clusters.count }

        /// The cluster at `index`.
        public subscript(index: Int) -> Cluster { clusters[index] }

        /// The text of the cluster at `index`.
        public func text(at index: Int) -> Substring {
            let cluster = clusters[index]
            let text = texts[cluster.chunk], utf8 = text.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: cluster.bytes.lowerBound)
            let end = utf8.index(start, offsetBy: cluster.bytes.count)
            return text[start..<end]
        }

        /// Whether the cluster at `index` has the same UTF-8 bytes as the one at `otherIndex`
        /// of `other`.
        public func hasSameText(at index: Int, as otherIndex: Int, in other: ClusterList) -> Bool {
            let mine = clusters[index], theirs = other.clusters[otherIndex]
            guard mine.head == theirs.head, mine.bytes.count == theirs.bytes.count else { return false }
            guard mine.bytes.count > 8 else { return true }
            return texts[mine.chunk].utf8.dropFirst(mine.bytes.lowerBound).prefix(mine.bytes.count)
                .elementsEqual(other.texts[theirs.chunk].utf8.dropFirst(theirs.bytes.lowerBound).prefix(theirs.bytes.count))
        }

        /// Appends `chunk`'s clusters whose x extent reaches `range`, in logical order.
        public mutating func append(_ chunk: ChunkSnapshot, reaching range: ClosedRange<CGFloat>) {
            let chunkIndex = texts.count
            texts.append(chunk.text)
            // ASCII text (the usual case) is listed from its bytes: one cluster per byte but
            // CR LF (``String/isClusterBoundary(betweenASCII:and:)``).
            let listed = chunk.text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                var isASCII = true
                for byte in bytes where byte >= 0x80 { isASCII = false; break }
                guard isASCII else { return false }
                var offset = 0, local = 0
                for edges in chunk.line.clusters {
                    guard offset < bytes.count else { break }
                    var end = offset + 1
                    if end < bytes.count, !String.isClusterBoundary(betweenASCII: bytes[offset], and: bytes[end]) { end += 1 }
                    var head = UInt64(bytes[offset])
                    if end - offset == 2 { head |= UInt64(bytes[offset + 1]) << 8 }
                    appendCluster(of: chunk, edges: edges, local: local, bytes: offset..<end, head: head, chunkIndex: chunkIndex, reaching: range)
                    offset = end
                    local += 1
                }
                return true
            }
            guard listed != true else { return }
            // Other text: the standard library's clusters.
            let text = chunk.text, utf8 = text.utf8
            var index = text.startIndex, offset = 0, local = 0
            for edges in chunk.line.clusters {
                guard index < text.endIndex else { break }
                let next = text.index(after: index)
                var head: UInt64 = 0, length = 0
                for byte in utf8[index..<next] {
                    if length < 8 { head |= UInt64(byte) << (8 * UInt64(length)) }
                    length += 1
                }
                appendCluster(
                    of: chunk, edges: edges, local: local, bytes: offset..<(offset + length), head: head, chunkIndex: chunkIndex,
                    reaching: range)
                index = next
                offset += length
                local += 1
            }
        }

        /// Appends the cluster `local` of `chunk` (at `edges`, `bytes` in its text) when its x
        /// extent reaches `range`.
        private mutating func appendCluster(
            of chunk: ChunkSnapshot, edges: TextLine.ClusterEdges, local: Int, bytes: Range<Int>, head: UInt64,
            chunkIndex: Int, reaching range: ClosedRange<CGFloat>
        ) {
            let lower = min(edges.left, edges.right) + chunk.origin, upper = max(edges.left, edges.right) + chunk.origin
            guard upper >= range.lowerBound, lower <= range.upperBound else { return }
            clusters.append(
                Cluster(
                    position: chunk.firstCharacter + local, extent: lower...upper, chunk: chunkIndex, bytes: bytes, head: head))
        }
    }
}
