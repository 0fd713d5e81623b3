import Foundation
import Testing

@Suite("Generated wire tables")
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
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
