import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The damage pipeline against real compositors: after a seeded random sequence of content
/// and compositing changes, what the compositor shows equals a fresh render, and the damage
/// on the wire is exactly the damage the window reported, commit for commit.
@Suite("Damage pipeline under real compositors", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct DamagePipelineTests {
    /// One step of the sequence: the commands sent together (one main-loop turn).
    struct Step {
        var commands: [String]
    }

    /// A reproducible sequence of marks, box moves, hides, alpha and colour changes.
    static func sequence(seed: UInt64, count: Int) -> [Step] {
        var generator = SeededRandom(seed: seed)
        var boxShown = false
        var alpha = 1.0
        var steps: [Step] = []
        let colors = ["FFD700", "8A2BE2", "00CED1", "FF69B4"]
        var colorIndex = 0
        func rect() -> String {
            let x = Int.random(in: 0..<180, using: &generator), y = Int.random(in: 0..<130, using: &generator)
            let w = Int.random(in: 1...40, using: &generator), h = Int.random(in: 1...40, using: &generator)
            return "\(x) \(y) \(w) \(h)"
        }
        func command() -> String {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return "mark \(rect())"
            case 1:
                boxShown = true
                return "box \(rect())"
            case 2 where boxShown:
                boxShown = false
                return "box-hidden 1"
            case 3:
                alpha = alpha == 1 ? 0.5 : 1
                return "box-alpha \(alpha)"
            default:
                colorIndex = (colorIndex + 1) % colors.count
                return "box-color \(colors[colorIndex])"
            }
        }
        for _ in 0..<count {
            let burst = Int.random(in: 1...3, using: &generator)
            steps.append(Step(commands: (0..<burst).map { _ in command() }))
        }
        return steps
    }

    /// Damage per buffer commit of `surfaceID` in a Weston proto log, in order.
    static func damagePerCommit(inLog lines: [String], surfaceID: String) -> [Set<String>] {
        let prefix = "rq wl_surface@\(surfaceID)."
        var commits: [Set<String>] = []
        var attached = false
        var damage = Set<String>()
        for line in lines {
            guard let range = line.range(of: prefix) else { continue }
            let request = line[range.upperBound...]
            if request.hasPrefix("attach(") {
                attached = true
            } else if request.hasPrefix("damage_buffer(") {
                let numbers = request.dropFirst("damage_buffer(".count).dropLast()
                damage.insert(numbers.replacingOccurrences(of: " ", with: ""))
            } else if request.hasPrefix("commit()") {
                if attached { commits.append(damage) }
                attached = false
                damage = []
            }
        }
        return commits
    }

    /// The damage rects of a client "commit N x,y,w,h …" line.
    static func damage(ofCommitLine line: String) -> Set<String> {
        Set(line.split(separator: " ").dropFirst(2).map(String.init))
    }

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-damage-\(name)").path
    }

    /// Plays the sequence on `compositor`; after every step the presented buffer equals a
    /// fresh render. Returns the client, its surface id and the commit lines.
    func play(on compositor: PrivateCompositor) throws -> (ClientProcess, String, [String]) {
        let client = try ClientProcess(FoundationTests.testClient, [], environment: compositor.clientEnvironment)
        let ready = try #require(client.waitForLine { $0.hasPrefix("ready") }, "\(client.standardError)")
        let surfaceID = String(ready.split(separator: " ")[3])
        var commits = 1
        for (index, step) in Self.sequence(seed: 0xDA5C, count: 40).enumerated() {
            for command in step.commands { client.send(command) }
            let snapshot = temporaryPath("snapshot-\(index).png"), render = temporaryPath("render-\(index).png")
            // Let the window settle: the client answers "settled" after the display pass that
            // presents the step (a change that shows nothing commits nothing).
            let seen = client.outputLines.count
            client.send("settle")
            _ = try #require(client.waitForLine(skipping: seen) { $0.hasPrefix("settled ") }, "step \(index) never settled")
            commits = client.outputLines.filter { $0.hasPrefix("commit ") }.count
            client.send("snapshot \(snapshot)")
            client.send("render \(render)")
            _ = try #require(client.waitForLine { $0 == "wrote \(render)" }, "step \(index): \(step.commands)")
            let presented = try Bitmap(contentsOfPNGFile: snapshot)
            let fresh = try Bitmap(contentsOfPNGFile: render)
            let difference = Bitmap.difference(presented, fresh, tolerance: 0)
            #expect(difference.differingPixelCount == 0, "step \(index) \(step.commands): presented buffer differs from a fresh render in \(difference.differingPixelCount) pixels")
            try? FileManager.default.removeItem(atPath: snapshot)
            try? FileManager.default.removeItem(atPath: render)
        }
        #expect(commits > 25, "most steps change pixels and commit")
        let commitLines = client.outputLines.filter { $0.hasPrefix("commit ") }
        return (client, surfaceID, commitLines)
    }

    @Test("Under Weston the screen equals a fresh render and the wire damage equals the reported damage")
    func westonShowsAFreshRenderAndGetsTheReportedDamage() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, surfaceID, commitLines) = try play(on: weston)
        // Weston has handled (and logged) the last commit before the screenshot.
        weston.waitForLogLines(containing: "rq wl_surface@\(surfaceID).commit()") {
            Self.damagePerCommit(inLog: weston.logLines(containing: "rq wl_surface@\(surfaceID)."), surfaceID: surfaceID).count
                >= commitLines.count && !$0.isEmpty
        }

        // The screen: the window's area of a Weston screenshot equals a fresh render.
        let shotPath = temporaryPath("weston.png"), renderPath = temporaryPath("final.png")
        try weston.screenshot(to: shotPath)
        client.send("render \(renderPath)")
        _ = try #require(client.waitForLine { $0 == "wrote \(renderPath)" })
        let shot = try Bitmap(contentsOfPNGFile: shotPath)
        let fresh = try Bitmap(contentsOfPNGFile: renderPath)
        let origin = try #require(Self.locate(fresh, in: shot), "the window is on screen")
        var differing = 0
        for y in 0..<fresh.height {
            for x in 0..<fresh.width
            where shot.pixel(x: origin.x + x, y: origin.y + y) & 0xFF_FFFF != fresh.pixel(x: x, y: y) & 0xFF_FFFF {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) pixels on screen differ from a fresh render")

        // The wire: damage_buffer requests per commit equal the window's reports.
        let wire = Self.damagePerCommit(inLog: weston.logLines(containing: "rq wl_surface@\(surfaceID)."), surfaceID: surfaceID)
        let reported = commitLines.map(Self.damage(ofCommitLine:))
        #expect(wire.count == reported.count)
        for (index, pair) in zip(wire, reported).enumerated() where pair.0 != pair.1 {
            Issue.record("commit \(index + 1): wire \(pair.0.sorted()) ≠ reported \(pair.1.sorted())")
        }
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test("Under mutter the same sequence ends with the same pixels and no frame stalls")
    func mutterShowsAFreshRenderWithoutStalls() throws {
        let mutter = try PrivateCompositor(.gnome())
        let (client, _, commitLines) = try play(on: mutter)
        #expect(commitLines.count > 25)
        client.send("frames 3")
        #expect(client.waitForLines(count: 3, prefix: "frame ", timeout: 5), "frame callbacks still arrive after the sequence")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    /// Where `window` appears in `screen`, found by its top-left 8×8 pixels and confirmed by
    /// its corners.
    static func locate(_ window: Bitmap, in screen: Bitmap) -> (x: Int, y: Int)? {
        func matches(_ x: Int, _ y: Int) -> Bool {
            for (dx, dy) in [(0, 0), (window.width - 1, 0), (0, window.height - 1), (window.width - 1, window.height - 1), (window.width / 2, window.height / 2)]
            where screen.pixel(x: x + dx, y: y + dy) & 0xFF_FFFF != window.pixel(x: dx, y: dy) & 0xFF_FFFF {
                return false
            }
            return true
        }
        for y in 0...(screen.height - window.height) {
            for x in 0...(screen.width - window.width) where matches(x, y) {
                return (x, y)
            }
        }
        return nil
    }
}


/// `DAMASK_DEBUG=damage` flashes each frame's damage for one frame.
@Suite("Damage flashing from the environment", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DamageFlashEnvironmentTests {
    func commits(after command: String, environment extra: [String: String]) throws -> [String] {
        let weston = try PrivateCompositor(.weston())
        var environment = weston.clientEnvironment
        environment.merge(extra) { $1 }
        let client = try ClientProcess(FoundationTests.testClient, [], environment: environment)
        _ = try #require(client.waitForLine { $0.hasPrefix("ready") }, "\(client.standardError)")
        // The first frame's own flash, if any, ends before the settle answer.
        client.send("settle")
        _ = try #require(client.waitForLine { $0.hasPrefix("settled ") })
        let before = client.outputLines.count
        client.send(command)
        // After the change's own commit, "settle" answers after the next pass: the one that
        // takes a flash away, or one that commits nothing.
        _ = try #require(client.waitForLine(skipping: before) { $0.hasPrefix("commit ") })
        let committed = client.outputLines.count
        client.send("settle")
        _ = try #require(client.waitForLine(skipping: committed) { $0.hasPrefix("settled ") })
        let lines = client.outputLines.dropFirst(before).filter { $0.hasPrefix("commit ") }
        let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-flash.png").path
        let render = snapshot + ".render.png"
        client.send("snapshot \(snapshot)")
        client.send("render \(render)")
        _ = try #require(client.waitForLine { $0 == "wrote \(render)" })
        let difference = Bitmap.difference(try Bitmap(contentsOfPNGFile: snapshot), try Bitmap(contentsOfPNGFile: render), tolerance: 0)
        #expect(difference.differingPixelCount == 0, "after the flash the screen shows the real pixels again")
        client.send("quit")
        _ = client.waitForExit(timeout: 5)
        return lines.map { String($0.split(separator: " ").dropFirst(2).joined(separator: " ")) }
    }

    @Test("DAMASK_DEBUG=damage adds one frame that takes the flash away again")
    func flashingAddsOneFrameOverTheSameDamage() throws {
        let plain = try commits(after: "mark 10 20 30 40", environment: ["DAMASK_DEBUG": ""])
        #expect(plain == ["10,20,30,40"])
        let flashing = try commits(after: "mark 10 20 30 40", environment: ["DAMASK_DEBUG": "damage"])
        #expect(flashing == ["10,20,30,40", "10,20,30,40"])
    }
}
