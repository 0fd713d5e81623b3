import Foundation
import Testing
import DamaskTestSupport

@Suite("Generated wire tables", .timeLimit(.minutes(5)))
struct GeneratedTablesTests {
    @Test("The committed wire tables match protocols/core/wayland.xml and protocols/*.xml")
    func committedTablesMatchTheXML() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/generate-inspect-tables")
        process.arguments = ["--check"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.killIfRunning(after: 120)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.waitUntilExit(timeout: 10), "generate-inspect-tables --check did not end")
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
