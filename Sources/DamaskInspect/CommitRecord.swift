import Foundation

/// What the inspector found at one commit of one surface (or, for `.heldWrite`, at the
/// release of a buffer the client wrote into while the compositor held it): one JSONL line.
public struct CommitRecord: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A commit that attached a buffer.
        case buffer
        /// A commit without a new buffer (frame request, state change or damage only).
        case noBuffer = "no-buffer"
        /// A commit that attached no buffer (null): the surface is unmapped.
        case unmap
        /// A release event showing the buffer changed between its commit and its release.
        case heldWrite = "held-write"
    }

    /// How the content was compared.
    public enum Content: String, Sendable {
        /// Compared with the surface's previous content.
        case compared
        /// First content, or the size, format, scale, transform or viewport changed (which
        /// repaints the whole surface): every pixel counts as changed.
        case new
        /// The pixels could not be read (not wl_shm, unknown format, truncated pool).
        case unreadable
        /// No buffer: nothing to compare.
        case none
    }

    public var kind: Kind
    /// Seconds since the inspector started.
    public var time: Double
    public var client: Int
    public var surface: UInt32
    public var role: String
    /// 1-based commit number of the surface.
    public var commit: Int
    public var buffer: UInt32?
    public var width = 0
    public var height = 0
    public var format = ""
    /// Whether the buffer was committed before (reused) rather than new.
    public var reused = false
    public var frameRequest = false
    /// Declared damage in buffer pixels, as sent (damage converted, damage_buffer as is), clipped.
    public var damage: [PixelRect] = []
    /// Pixels the damage covers (overlaps once).
    public var damagePixels = 0
    public var content = Content.none
    public var changedPixels = 0
    public var changedBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// The bounding boxes of the separate changes (``ChangeClusters``); empty unless compared.
    public var changedBoxes: [PixelRect] = []
    public var underDamagePixels = 0
    public var underDamageBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// The content was compared on the surface, in surface pixels (the geometry, buffer size
    /// or format changed at the same surface size), rather than buffer pixel by buffer pixel:
    /// then `changed_px`, `changed_bbox` and the under-damage figures are surface pixels.
    public var comparedOnSurface = false
    /// The buffer was written while the compositor held it (detected at this commit or release).
    public var heldWrite = false
    /// Microseconds the inspector spent copying and comparing for this record.
    public var costMicroseconds = 0
    /// The content is `unreadable` because the client's pool file was shorter than the buffer
    /// (it shrank the file before or while the inspector read it).
    public var poolShrunk = false
    /// The file name of this record's evidence PNG in the `--evidence` directory, when one
    /// was written (the name alone does not identify a surface whose id was reused).
    public var evidence: String?

    public init(kind: Kind, time: Double, client: Int, surface: UInt32, role: String, commit: Int) {
        (self.kind, self.time, self.client, self.surface, self.role, self.commit) = (kind, time, client, surface, role, commit)
    }

    /// Damage area ÷ changed pixels (nil when nothing changed, and for a held-write record,
    /// whose changed pixels are the client's writes after the commit, not a commit's change).
    public var overDamageOfChanged: Double? {
        kind == .buffer && content == .compared && changedPixels > 0 ? Double(damagePixels) / Double(changedPixels) : nil
    }

    /// Damage area ÷ changed bounding-box area (nil when nothing changed).
    public var overDamageOfBounds: Double? {
        kind == .buffer && content == .compared && changedBounds.area > 0 ? Double(damagePixels) / Double(changedBounds.area) : nil
    }

    /// Damage area ÷ the area of the separate changes' bounding boxes (``ChangeClusters``):
    /// unlike ``overDamageOfBounds`` it does not forgive damage between two distant
    /// changes (nil when nothing changed).
    public var overDamageOfBoxes: Double? {
        let area = changedBoxes.reduce(0) { $0 + $1.area }
        return kind == .buffer && content == .compared && area > 0 ? Double(damagePixels) / Double(area) : nil
    }

    /// A commit that attached a buffer but declared no damage at all.
    public var isDamageless: Bool { kind == .buffer && damage.isEmpty }

    /// Whether this record is a bug: pixels changed outside the damage, or a held buffer written.
    public var isOffending: Bool { underDamagePixels > 0 || heldWrite }

    /// The record as one line of JSON (no trailing newline).
    public var jsonLine: String {
        func rect(_ r: PixelRect) -> String { "[\(r.x),\(r.y),\(r.width),\(r.height)]" }
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.3f", value)
        }
        var fields: [String] = [
            "\"kind\":\"\(kind.rawValue)\"",
            "\"t\":\(number(time))",
            "\"client\":\(client)",
            "\"surface\":\(surface)",
            "\"role\":\"\(Self.escape(role))\"",
            "\"commit\":\(commit)",
            "\"buffer\":\(buffer.map(String.init) ?? "null")",
        ]
        if buffer != nil {
            fields += [
                "\"width\":\(width)", "\"height\":\(height)", "\"format\":\"\(format)\"", "\"reused\":\(reused)",
            ]
        }
        fields += [
            "\"frame\":\(frameRequest)",
            "\"damage\":[\(damage.map(rect).joined(separator: ","))]",
            "\"damage_px\":\(damagePixels)",
            "\"content\":\"\(content.rawValue)\"",
            "\"space\":\"\(comparedOnSurface ? "surface" : "buffer")\"",
            "\"changed_px\":\(changedPixels)",
            "\"changed_bbox\":\(rect(changedBounds))",
            "\"changed_boxes\":[\(changedBoxes.map(rect).joined(separator: ","))]",
            "\"under_damage_px\":\(underDamagePixels)",
            "\"under_damage_bbox\":\(rect(underDamageBounds))",
            "\"over_damage_changed\":\(number(overDamageOfChanged))",
            "\"over_damage_bbox\":\(number(overDamageOfBounds))",
            "\"over_damage_boxes\":\(number(overDamageOfBoxes))",
            "\"held_write\":\(heldWrite)",
            "\"cost_us\":\(costMicroseconds)",
            "\"pool_shrunk\":\(poolShrunk)",
            "\"evidence\":\(evidence.map { "\"\(Self.escape($0))\"" } ?? "null")",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
