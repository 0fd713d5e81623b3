import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// What an opaque window tells the compositor, read from a real Weston's protocol log:
/// `wl_surface.set_opaque_region` covers what is known opaque, and a window opaque
/// everywhere presents `XRGB8888` buffers.
@Suite("Opaque surfaces under Weston", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct OpaqueSurfaceTests {
    static let testClient = PrivateCompositor.productsDirectory.appendingPathComponent("damask-test-client")
    /// `WL_SHM_FORMAT_ARGB8888` and `WL_SHM_FORMAT_XRGB8888`.
    static let argb8888 = 0, xrgb8888 = 1

    /// The integers between the parentheses of `line`'s request, e.g. `add(0, 0, 200, 150)`.
    static func arguments(of line: String) -> [Int] {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The `wl_region@N` named in `line`.
    static func regionID(in line: String) -> String? {
        guard let range = line.range(of: #"wl_region@\d+"#, options: .regularExpression) else { return nil }
        return String(line[range])
    }

    /// The rects of every opaque region set on `surface` (e.g. `wl_surface@3`), in log
    /// order: the `wl_region.add` calls since the region's `create_region`.
    static func opaqueRegions(of surface: String, in lines: [String]) -> [[CGRect]] {
        var adds: [String: [CGRect]] = [:]
        var result: [[CGRect]] = []
        for line in lines {
            if line.contains(".create_region("), let id = regionID(in: line) {
                adds[id] = []
            } else if line.contains(".add("), let id = regionID(in: line), line.contains(id + ".add(") {
                let values = arguments(of: line)
                if values.count == 4 {
                    adds[id, default: []].append(CGRect(x: values[0], y: values[1], width: values[2], height: values[3]))
                }
            } else if line.contains(surface + ".set_opaque_region("), let id = regionID(in: line) {
                result.append(adds[id] ?? [])
            }
        }
        return result
    }

    /// The formats of every `wl_shm_pool.create_buffer` in the log.
    static func bufferFormats(in lines: [String]) -> [Int] {
        lines.filter { $0.contains(".create_buffer(") }.compactMap { arguments(of: $0).last }
    }

    /// The log lines of the client that titled its window "Damask Test" (Weston's helper
    /// clients make surfaces, regions and buffers of their own), once `condition` holds.
    static func clientLines(
        of weston: PrivateCompositor, until condition: ([String]) -> Bool
    ) -> [String] {
        var result: [String] = []
        weston.waitForLogLines(containing: "][proto] client ") { lines in
            guard let title = lines.first(where: { $0.contains(".set_title(\"Damask Test\")") }),
                let range = title.range(of: #"client 0x[0-9a-f]+ "#, options: .regularExpression)
            else { return false }
            let client = String(title[range])
            result = lines.filter { $0.contains(client) }
            return condition(result)
        }
        return result
    }

    /// Starts the client, waits for its first commit; returns it, its surface and its log
    /// lines once they show an opaque region on that surface and a commit after it.
    func start(_ arguments: [String], on weston: PrivateCompositor) throws -> (ClientProcess, String, [String]) {
        let client = try ClientProcess(Self.testClient, arguments, environment: weston.clientEnvironment)
        let ready = try #require(
            client.waitForLine { $0.hasPrefix("ready") }, "no first commit; stderr: \(client.standardError)")
        let surface = "wl_surface@\(ready.split(separator: " ")[3])"
        let lines = Self.clientLines(of: weston) { lines in
            guard let set = lines.lastIndex(where: { $0.contains(surface + ".set_opaque_region(") }) else { return false }
            return lines[set...].contains { $0.contains(surface + ".commit()") }
        }
        return (client, surface, lines)
    }

    @Test("A window opaque everywhere sets its whole surface as opaque region and presents XRGB8888 buffers")
    func opaqueWindowSendsWholeOpaqueRegionAndXRGBBuffers() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, surface, lines) = try start(["--size", "200x150"], on: weston)
        let regions = Self.opaqueRegions(of: surface, in: lines)
        let region = try #require(regions.last, "no set_opaque_region on \(surface)")
        #expect(Region(rects: region) == Region(CGRect(x: 0, y: 0, width: 200, height: 150)), "\(region)")
        let formats = Self.bufferFormats(in: lines)
        #expect(!formats.isEmpty, "no wl_shm_pool.create_buffer in the log")
        #expect(formats.allSatisfy { $0 == Self.xrgb8888 }, "formats \(formats)")
        // A change keeps the region: nothing is sent again.
        client.send("mark 10 20 30 40")
        _ = try #require(client.waitForLine { $0.hasPrefix("commit 2 ") })
        let before = lines.count { $0.contains(surface + ".commit()") }
        let after = Self.clientLines(of: weston) { lines in
            lines.count { $0.contains(surface + ".commit()") } > before
        }
        #expect(after.count { $0.contains(surface + ".set_opaque_region(") } == 1)
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test("A decorated window's opaque region is its content area, not the shadow; its buffers keep alpha")
    func decoratedWindowOpaqueRegionIsTheContentArea() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, surface, lines) = try start(["--size", "200x150", "--decorated"], on: weston)
        let contentLine = try #require(client.waitForLine { $0.hasPrefix("content ") })
        let values = contentLine.split(separator: " ").dropFirst().compactMap { Double($0) }
        try #require(values.count == 4, "bad line '\(contentLine)'")
        let content = CGRect(x: values[0], y: values[1], width: values[2], height: values[3])
        let region = Region(rects: try #require(Self.opaqueRegions(of: surface, in: lines).last))
        #expect(Region(content).subtracting(region).isEmpty, "content \(content) not inside \(region)")
        let geometry = try #require(lines.last { $0.contains(".set_window_geometry(") }, "no window geometry")
        let g = Self.arguments(of: geometry)
        try #require(g.count == 4)
        let window = Region(CGRect(x: g[0], y: g[1], width: g[2], height: g[3]))
        #expect(region.subtracting(window).isEmpty, "opaque region \(region) reaches into the shadow")
        let formats = Self.bufferFormats(in: lines)
        #expect(!formats.isEmpty && formats.allSatisfy { $0 == Self.argb8888 }, "formats \(formats)")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }
}
