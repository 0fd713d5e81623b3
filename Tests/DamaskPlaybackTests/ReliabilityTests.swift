import DamaskGraphics
import Foundation
import Testing

@testable import DamaskPlayback

/// Damaged reference images are caught when the script is parsed, with the file, line and
/// column of the `expect image` that names them, before anything plays.
@Suite("Reliability: damaged reference images", .timeLimit(.minutes(5)))
struct ReliabilityTests {
    /// A valid reference PNG of a small two-colour bitmap.
    static func referencePNG() throws -> [UInt8] {
        let bitmap = try Bitmap(width: 30, height: 20)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.blue)
        context.fill(CGRect(x: 0, y: 0, width: 30, height: 20))
        context.setFillColor(.red)
        context.fill(CGRect(x: 4, y: 3, width: 11, height: 7))
        return try bitmap.pngData()
    }

    /// The error for a script whose second line expects the image at `path`, or nil.
    func parseError(referencing path: String) -> ScriptError? {
        do {
            _ = try parseScript("wait frames 1\n  expect image \(path)\n")
            return nil
        } catch {
            return error
        }
    }

    /// Cuts in the signature, after IHDR, and inside the image data (the 30×20 reference is
    /// 94 bytes: one IDAT whose data ends at byte 78).
    @Test("A truncated reference PNG is reported at parse time with file, line and column", arguments: [8, 33, 60, 75])
    func truncatedReferenceIsReportedAtParseTime(keptBytes: Int) throws {
        let png = try Self.referencePNG()
        #expect(keptBytes < png.count - 12, "the cut loses image data")
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-\(getpid())-truncated-\(keptBytes).png").path
        try Data(png.prefix(keptBytes)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let error = try #require(parseError(referencing: path), "a truncated reference image parsed")
        #expect(error.location == SourceLocation(file: "test.dsc", line: 2, column: 16))
        #expect(error.description.hasPrefix("test.dsc:2:16: error: cannot read reference image '\(path)': PNG decoding failed: "),
            "\(error.description)")
        #expect(!error.description.contains("\n"))
    }

    @Test("The whole reference PNG parses")
    func wholeReferenceParses() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-\(getpid())-whole-reference.png").path
        try Data(try Self.referencePNG()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(parseError(referencing: path) == nil)
    }
}
