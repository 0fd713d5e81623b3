import Foundation
import Testing

/// The frame path stays in rooms of a readable size (issue 32): no source file of
/// DamaskViews or DamaskWayland is longer than 500 lines, and the two types that used to
/// hold everything, `Layer` and `WaylandSurface`, stay near 450. A type that grows past
/// the limit splits by concern into `Type+Concern.swift` extensions or its own parts.
@Suite("Source file sizes", .timeLimit(.minutes(1)))
struct SourceFileSizeTests {
    /// The longest a file of the frame path's modules may be, in lines.
    static let moduleLimit = 500
    /// The longest `Layer.swift` and `WaylandSurface.swift` may be, in lines.
    static let formerGodObjectLimit = 460

    /// The line count of every Swift file under `Sources/<module>`, by path.
    static func lineCounts(inModule module: String) throws -> [String: Int] {
        let directory = ModuleTablesTests.root.appendingPathComponent("Sources/\(module)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var counts: [String: Int] = [:]
        for name in names where name.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            counts["Sources/\(module)/\(name)"] = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        return counts
    }

    @Test("The line counts are read: each module has files, and Window.swift is among them")
    func lineCountsAreRead() throws {
        let views = try Self.lineCounts(inModule: "DamaskViews")
        #expect(views.count > 50)
        #expect((views["Sources/DamaskViews/Window.swift"] ?? 0) > 100)
        #expect(try Self.lineCounts(inModule: "DamaskWayland").count > 20)
    }

    @Test("No file of DamaskViews or DamaskWayland is over 500 lines", arguments: ["DamaskViews", "DamaskWayland"])
    func modulesStayUnderTheLimit(module: String) throws {
        let tooLong = try Self.lineCounts(inModule: module).filter { $0.value > Self.moduleLimit }
        #expect(tooLong.isEmpty, "over \(Self.moduleLimit) lines: \(tooLong.sorted { $0.key < $1.key })")
    }

    @Test("Layer.swift and WaylandSurface.swift stay near 450 lines")
    func formerGodObjectsStaySmall() throws {
        let layer = try #require(try Self.lineCounts(inModule: "DamaskViews")["Sources/DamaskViews/Layer.swift"])
        let surface = try #require(try Self.lineCounts(inModule: "DamaskWayland")["Sources/DamaskWayland/WaylandSurface.swift"])
        #expect(layer <= Self.formerGodObjectLimit)
        #expect(surface <= Self.formerGodObjectLimit)
    }
}
