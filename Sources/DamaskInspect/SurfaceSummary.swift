/// The figures of one surface over a run, accumulated from its records.
public struct SurfaceSummary: Sendable {
    public let client: Int
    public let surface: UInt32
    public var role = ""
    public var commits = 0
    public var bufferCommits = 0
    /// Buffer commits that declared no damage.
    public var damagelessCommits = 0
    /// Commits without a new buffer that only asked for a frame callback.
    public var frameOnlyCommits = 0
    public var reusedBufferCommits = 0
    public var unreadableCommits = 0
    /// Unreadable commits whose pool file the client had shrunk under the buffer.
    public var poolShrunkCommits = 0
    /// Unreadable commits of buffers that are not wl_shm (dmabuf, …).
    public var foreignBufferCommits = 0
    /// The wl_shm formats of other unreadable commits (formats the inspector cannot compare).
    public var unreadableFormats: Set<String> = []
    public var firstTime: Double?
    public var lastTime: Double?
    public var damagePixels: [Int] = []
    public var changedPixels: [Int] = []
    public var overDamageOfChanged: [Double] = []
    public var overDamageOfBounds: [Double] = []
    public var overDamageOfBoxes: [Double] = []
    /// Commits where damage was declared but no pixel changed.
    public var damageWithoutChange = 0
    public var underDamageCommits = 0
    public var underDamagePixels = 0
    public var heldWrites = 0
    public var costMicroseconds = 0

    public init(client: Int, surface: UInt32) {
        self.client = client
        self.surface = surface
    }

    /// Adds one record of this surface.
    public mutating func add(_ record: CommitRecord) {
        role = record.role
        costMicroseconds += record.costMicroseconds
        if record.kind == .heldWrite {
            heldWrites += 1
            return
        }
        commits += 1
        firstTime = firstTime ?? record.time
        lastTime = record.time
        if record.heldWrite { heldWrites += 1 }
        switch record.kind {
        case .buffer:
            bufferCommits += 1
            if record.isDamageless { damagelessCommits += 1 }
            if record.reused { reusedBufferCommits += 1 }
            if record.content == .unreadable { unreadableCommits += 1 }
            if record.poolShrunk { poolShrunkCommits += 1 }
            if record.content == .unreadable && !record.poolShrunk {
                if record.format.isEmpty { foreignBufferCommits += 1 } else { unreadableFormats.insert(record.format) }
            }
            damagePixels.append(record.damagePixels)
            if record.content == .compared {
                changedPixels.append(record.changedPixels)
                if let ratio = record.overDamageOfChanged { overDamageOfChanged.append(ratio) }
                if let ratio = record.overDamageOfBounds { overDamageOfBounds.append(ratio) }
                if let ratio = record.overDamageOfBoxes { overDamageOfBoxes.append(ratio) }
                if record.changedPixels == 0 && record.damagePixels > 0 { damageWithoutChange += 1 }
            }
            if record.underDamagePixels > 0 {
                underDamageCommits += 1
                underDamagePixels += record.underDamagePixels
            }
        case .noBuffer:
            if record.frameRequest && record.damage.isEmpty { frameOnlyCommits += 1 }
        case .unmap, .heldWrite:
            break
        }
    }

    /// Commits per second between the first and the last commit (nil for fewer than two).
    public var commitRate: Double? {
        guard let firstTime, let lastTime, commits > 1, lastTime > firstTime else { return nil }
        return Double(commits - 1) / (lastTime - firstTime)
    }

    static func median<T: Comparable>(_ values: [T]) -> T? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}
