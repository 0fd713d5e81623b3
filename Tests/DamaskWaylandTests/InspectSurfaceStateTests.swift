import DamaskTestSupport
import Foundation
import Testing

/// damask-inspect against known answers under real compositors: Tests/InspectClients/
/// surface-states.c plays a matrix of buffer transform × buffer scale × viewport × damage /
/// damage_buffer × sub-surface sync / desync × XRGB8888 / ARGB8888 / RGB565 / XRGB2101010,
/// and the cases of issue 34
/// (invalid damage, a change outside the viewport's crop, geometry changes at the same
/// surface size, damage smaller than a buffer pixel, a desynchronized sub-surface under a
/// synchronized one, a write into a buffer a synchronized sub-surface cached), printing for
/// each commit the pixels it changed and the changed pixels it left undamaged. One client
/// process per compositor.
@Suite("damask-inspect known-answer surface states", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct InspectSurfaceStateTests {
    /// One `expect` line of the client.
    struct Expectation {
        let surface: Int, commit: Int, changed: Int, under: Int, space: String, held: Bool
    }

    static func expectations(_ output: String) -> [Expectation] {
        output.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 7, f[0] == "expect", let s = Int(f[1]), let c = Int(f[2]), let ch = Int(f[3]), let u = Int(f[4]) else { return nil }
            return Expectation(surface: s, commit: c, changed: ch, under: u, space: String(f[5]), held: f[6] == "1")
        }
    }

    @Test("Every commit of the matrix and of the named cases gets exactly the client's changed and under-damaged pixel counts", arguments: ["weston", "mutter"])
    func knownAnswers(compositor name: String) throws {
        let compositor = try PrivateCompositor(name == "weston" ? .weston() : .gnome())
        defer { compositor.stop() }
        let client = try InspectRun.buildClient("surface-states")
        defer { unlink(client) }
        let run = try InspectRun.run([client], environment: compositor.clientEnvironment, timeout: 300)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output.suffix(2000))")
        // 192 cases per format: XRGB8888 and ARGB8888 always, RGB565 and XRGB2101010 where
        // the compositor offers them (Weston 10 and mutter 43 both do).
        let cases = run.output.split(separator: "\n").compactMap { line -> Int? in
            let words = line.split(separator: " ")
            return words.count == 3 && words[0] == "matrix" ? Int(words[1]) : nil
        }.first ?? 0
        #expect(cases == 4 * 192, "\(run.output.suffix(2000))")
        let expected = Self.expectations(run.output)
        // Three commits per case, a fourth with a crop (a third of them); 13 named cases.
        #expect(expected.count == cases * 3 + cases / 3 + 13)
        let buffers = run.records.filter { $0["kind"] as? String == "buffer" }
        var byCommit: [String: [String: Any]] = [:]
        for record in buffers {
            byCommit["\(record["surface"] as? Int ?? -1)/\(record["commit"] as? Int ?? -1)"] = record
        }
        var failures: [String] = []
        for e in expected {
            guard let record = byCommit["\(e.surface)/\(e.commit)"] else {
                failures.append("@\(e.surface) commit \(e.commit): no record")
                continue
            }
            let got = (record["content"] as? String ?? "", record["changed_px"] as? Int ?? -1, record["under_damage_px"] as? Int ?? -1,
                       record["space"] as? String ?? "", record["held_write"] as? Bool ?? false)
            if got != ("compared", e.changed, e.under, e.space, e.held) {
                failures.append("@\(e.surface) commit \(e.commit): expected compared \(e.changed)/\(e.under) \(e.space) held \(e.held), got \(got) \(record["role"] ?? "")")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(expected.count) wrong:\n\(failures.prefix(40).joined(separator: "\n"))")
        // Only each surface's first buffer is new content.
        var seen: Set<Int> = []
        let renewed = buffers.filter { record in
            let first = seen.insert(record["surface"] as? Int ?? -1).inserted
            return !first && record["content"] as? String == "new"
        }
        #expect(renewed.isEmpty, "\(renewed.prefix(5))")
        // Under-damage and a held write were found: exit status 1.
        #expect(run.status == 1, "\(run.output.suffix(2000))")
    }

    @Test("Re-check cases (damage before and after attach, scale 3 with adjacent and overlapping rects, a viewport unset or destroyed, the same buffer again, INT32 and far-off damage, sync toggled with state cached, a buffer shared with a sub-surface, an orphaned sub-surface; under Weston a buffer not a multiple of its scale) get exactly the client's counts", arguments: ["weston", "mutter"])
    func recheckCases(compositor name: String) throws {
        let compositor = try PrivateCompositor(name == "weston" ? .weston() : .gnome())
        defer { compositor.stop() }
        let client = try InspectRun.buildClient("recheck-cases")
        defer { unlink(client) }
        // mutter posts invalid_size for the odd-sized buffer: Weston only.
        let run = try InspectRun.run([client, "common"] + (name == "weston" ? ["odd-scale"] : []), environment: compositor.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output.suffix(2000))")
        let expected = Self.expectations(run.output)
        #expect(expected.count == (name == "weston" ? 18 : 17))
        var byCommit: [String: [String: Any]] = [:]
        for record in run.records where record["kind"] as? String == "buffer" {
            byCommit["\(record["surface"] as? Int ?? -1)/\(record["commit"] as? Int ?? -1)"] = record
        }
        var failures: [String] = []
        for e in expected {
            let record = byCommit["\(e.surface)/\(e.commit)"]
            let got = (record?["content"] as? String ?? "", record?["changed_px"] as? Int ?? -1, record?["under_damage_px"] as? Int ?? -1,
                       record?["space"] as? String ?? "")
            if got != ("compared", e.changed, e.under, e.space) {
                failures.append("@\(e.surface) commit \(e.commit): expected \(e.changed)/\(e.under) \(e.space), got \(got) \(record?["role"] ?? "no record")")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(run.status == 1, "\(run.output.suffix(2000))")
    }
}
