import DamaskTestSupport
import Foundation
import Testing

/// `--sequence` takes FASTA text only: a binary file is refused before any window opens,
/// naming the file and the first byte that is not text.
@Suite("Demo --sequence input", .timeLimit(.minutes(5)))
struct DemoSequenceInputTests {
    @Test("A binary file (a few bases among NULs and high bytes) exits 2 naming the file, the byte, its line and column")
    func binaryFileIsRefused() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("image.bin")
        // Bytes a binary file has: A, C, G and T among them, so counting bases accepted it.
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x41, 0x43, 0x00, 0x47, 0x54]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try DemoRun.runPlain(["--headless", "--sequence", path])
        #expect(result.status == 2, "\(result.output)")
        // 0x89 is the first byte: line 1, column 1.
        #expect(result.output.contains("damask-demo: '\(path)' is not a FASTA text file: byte 0x89 at line 1, column 1"),
            "\(result.output)")
    }

    @Test("A NUL on a later sequence line is placed by line and column; a UTF-8 header is text")
    func placesTheFirstOffendingByte() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("bad.fa")
        try Data(">Séquence ünïcode\nACGT\nAC\u{0}GT\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try DemoRun.runPlain(["--headless", "--sequence", path])
        #expect(result.status == 2)
        #expect(result.output.contains("byte 0x0 at line 3, column 3"), "\(result.output)")

        let good = (directory as NSString).appendingPathComponent("good.fa")
        try Data(">Séquence ünïcode\nACGT\nacgtn\n".utf8).write(to: URL(fileURLWithPath: good))
        let run = try DemoRun.run(DemoHeadlessTests.fast + ["--sequence", good], script: "scene chromosome\nwait idle\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }
}
