import Foundation
import Testing

/// The module tables in README.md ("Layout") and docs/architecture.md name every product and
/// every non-test target that Package.swift declares, so the docs cannot drift from the build.
@Suite("Module tables", .timeLimit(.minutes(5)))
struct ModuleTablesTests {
    /// The repository's root: this file is `Tests/DamaskDocumentationTests/ModuleTablesTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The names of Package.swift's library targets (system libraries, C and Swift targets,
    /// executables), leaving out test targets and targets whose sources live under `Tests/`.
    static func targetNames() throws -> [String] {
        let manifest = try read("Package.swift")
        let declaration = /\.(systemLibrary|target|executableTarget)\(\s*name:\s*"([A-Za-z0-9_]+)"([^)]*)/
        return manifest.matches(of: declaration).compactMap { match in
            String(match.output.3).contains("path: \"Tests/") ? nil : String(match.output.2)
        }
    }

    /// The names of Package.swift's products.
    static func productNames() throws -> [String] {
        let manifest = try read("Package.swift")
        return manifest.matches(of: /\.(library|executable)\(name:\s*"([A-Za-z0-9_-]+)"/).map { String($0.output.2) }
    }

    /// The README's "Layout" section: from its heading to the next one.
    static func readmeLayout() throws -> String {
        let readme = try read("README.md")
        let start = try #require(readme.range(of: "\n## Layout\n"))
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// docs/architecture.md's first table (the layers).
    static func architectureTable() throws -> String {
        let architecture = try read("docs/architecture.md")
        let lines = architecture.split(separator: "\n", omittingEmptySubsequences: false)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return table.joined(separator: "\n")
    }

    /// Whether `name` stands in `text` as a whole word (not as part of a longer name).
    static func mentions(_ text: String, _ name: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: name)
        return text.range(of: "(?<![A-Za-z0-9_-])\(escaped)(?![A-Za-z0-9_-])", options: .regularExpression) != nil
    }

    @Test("Package.swift is read: it declares the layers and the demo")
    func manifestIsRead() throws {
        let targets = try Self.targetNames()
        #expect(targets.contains("DamaskViews") && targets.contains("CWaylandClient"))
        #expect(!targets.contains("DamaskTestSupport") && !targets.contains("DamaskViewsTests"))
        #expect(try Self.productNames().contains("damask-demo"))
    }

    @Test("README's layout names every target and product of Package.swift")
    func readmeLayoutIsComplete() throws {
        let layout = try Self.readmeLayout()
        let missing = try (Self.targetNames() + Self.productNames()).filter { !Self.mentions(layout, $0) }
        #expect(missing.isEmpty, "README.md, Layout, does not name: \(missing)")
    }

    @Test("docs/architecture.md's module table names every target of Package.swift")
    func architectureTableIsComplete() throws {
        let table = try Self.architectureTable()
        #expect(table.contains("| module |"))
        let missing = try Self.targetNames().filter { !Self.mentions(table, $0) }
        #expect(missing.isEmpty, "docs/architecture.md's module table does not name: \(missing)")
    }
}
