import DamaskGraphics
import Foundation

/// Writes one PNG per offending commit: the committed content dimmed, the declared damage at
/// full brightness, and every changed pixel outside the damage in magenta.
///
/// Owns nothing but its directory path. Not thread-safe.
public struct EvidenceWriter {
    public let directory: String
    /// At most this many images per run, so a broken client cannot fill the disk.
    public var limit = 200
    public private(set) var written = 0
    /// Offending commits past the limit, which got no image.
    public private(set) var skipped = 0
    /// The file names written so far: a surface whose id was reused (libwayland gives a
    /// destroyed surface's id to the next one) restarts its commit numbers, so its name may
    /// be taken.
    private var names: Set<String> = []

    /// Creates `directory` (and its parents) if needed and checks that a file can be created
    /// in it, so that an unusable directory is a usage error at start, not a surprise at the
    /// first offending commit.
    ///
    /// - Throws: `InspectError.output` naming the directory and the system's reason.
    public init(directory: String) throws {
        self.directory = directory
        func failure(_ what: String) -> InspectError {
            InspectError.output("cannot use the evidence directory \(directory): \(what)")
        }
        var status = stat()
        if stat(directory, &status) != 0 {
            guard errno == ENOENT else { throw failure(String(cString: strerror(errno))) }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                // Foundation's error names no cause a user can act on; mkdir's errno does.
                throw failure(mkdir(directory, 0o755) == 0 ? "it cannot be created" : String(cString: strerror(errno)))
            }
        } else if status.st_mode & S_IFMT != S_IFDIR {
            throw failure("it exists and is not a directory")
        }
        // A probe file: permissions, read-only mounts and pseudo file systems all show here.
        let probe = "\(directory)/.damask-inspect-probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create files in it: \(String(cString: strerror(errno)))") }
        close(fd)
        unlink(probe)
    }

    /// The summary's line about the images (nil when none was written), saying how many
    /// offending commits the limit left without one.
    public var summaryLine: String? {
        guard written > 0 else { return nil }
        let past = skipped > 0 ? " (the limit: \(skipped) more offending commits have none)" : ""
        return "evidence: \(written) PNG files in \(directory)\(past)"
    }

    /// Writes the image for `record` and returns its path (nil past the limit): named
    /// `clientC-surfaceS-commitN.png`, or `…-commitN-2.png` (`-3`, …) when this run already
    /// wrote that name for an earlier surface with the same id.
    public mutating func write(_ record: CommitRecord, _ evidence: CommitEvidence) throws -> String? {
        guard written < limit else {
            skipped += 1
            return nil
        }
        let current = evidence.current
        let bitmap = try Bitmap(width: current.width, height: current.height)
        for y in 0..<current.height {
            let spans = evidence.damage.spans(inRow: y)
            for x in 0..<current.width {
                let pixel = current.argb(x: x, y: y) | 0xff00_0000
                let inside = spans.contains { $0.contains(x) }
                bitmap.setPixel(x: x, y: y, to: inside ? pixel : Self.dim(pixel))
            }
        }
        _ = ContentComparison(previous: evidence.previous, current: current, damage: evidence.damage) { x, y in
            bitmap.setPixel(x: x, y: y, to: 0xffff_00ff)
        }
        let base = "client\(record.client)-surface\(record.surface)-commit\(record.commit)"
        var name = "\(base).png"
        var copy = 1
        while names.contains(name) {
            copy += 1
            name = "\(base)-\(copy).png"
        }
        let path = "\(directory)/\(name)"
        try bitmap.writePNG(to: path)
        names.insert(name)
        written += 1
        return path
    }

    private static func dim(_ pixel: UInt32) -> UInt32 {
        let r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff
        let gray = (r * 30 + g * 59 + b * 11) / 100 / 3 + 40
        return 0xff00_0000 | gray << 16 | gray << 8 | gray
    }
}
