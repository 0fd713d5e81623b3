@testable import DamaskInspect
import Foundation
import Testing

/// The evidence images a run writes and what the summary says about them.
@Suite("Evidence images", .timeLimit(.minutes(5)))
struct EvidenceWriterTests {
    @Test("Past the limit no image is written, and the summary's evidence line says how many offending commits got none")
    func theLimitIsSaid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-evidence-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var writer = try EvidenceWriter(directory: directory)
        writer.limit = 2
        let format = BufferFormat(code: 1)
        let before = ContentSnapshot(width: 2, height: 1, format: format, bytes: [0, 0, 0, 0, 0, 0, 0, 0])
        let after = ContentSnapshot(width: 2, height: 1, format: format, bytes: [0, 0, 0, 0, 255, 255, 255, 0])
        let pixels = CommitEvidence(previous: before, current: after, damage: DamageRegion([], clippedTo: before.bounds))
        for commit in 2...4 {
            var record = CommitRecord(kind: .buffer, time: 0, client: 1, surface: 3, role: "toplevel", commit: commit)
            record.underDamagePixels = 1
            _ = try writer.write(record, pixels)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["client1-surface3-commit2.png", "client1-surface3-commit3.png"])
        #expect(writer.summaryLine == "evidence: 2 PNG files in \(directory) (the limit: 1 more offending commits have none)")
    }
}
