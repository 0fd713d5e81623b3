import DamaskTestSupport
import Foundation
import Testing

/// damask-demo seen from outside by an assistive technology: a private session bus with
/// at-spi2-core's accessibility bus and registry, a headless Weston, and a walker written
/// with python3-pyatspi (docs/accessibility.md). The same walker reads a GTK 4 window of
/// similar content in the same run, as a reference.
@Suite("damask-demo on the AT-SPI accessibility bus", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoAccessibilityTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")

    /// One JSON object the walker printed.
    typealias Record = [String: Any]

    /// Runs the walker in `mode` on the application called `name`; returns its records.
    static func walk(_ mode: String, _ name: String, session: AccessibilityBusSession, in directory: URL) throws -> [Record] {
        let script = try DemoAccessibilityScripts.write(DemoAccessibilityScripts.walker, named: "walker.py", in: directory)
        let walker = try TestProcess(
            AccessibilityBusSession.python, [script, mode, name],
            environment: session.environment(ProcessInfo.processInfo.environment))
        let status = walker.waitForExit(timeout: 300)
        #expect(status == 0, "the walker failed:\n\(walker.transcript)")
        return walker.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? Record
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("damask-a11y-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The nodes of a tree the walker printed, as (role, name, states, record).
    static func nodes(_ tree: Any?) -> [(role: String, name: String, states: Set<String>, record: Record)] {
        ((tree as? [Record]) ?? []).map { node in
            (node["role"] as? String ?? "", node["name"] as? String ?? "", Set(node["states"] as? [String] ?? []), node)
        }
    }

    /// What each scene must show an assistive technology: (role, name) pairs.
    static let expectedNodes: [String: [(String, String)]] = [
        "Progress": [("progress bar", "Progress"), ("push button", "Animate"), ("push button", "+ 5%")],
        "Chromosome": [("image", "Chromosome blocks"), ("push button", "Reload"), ("push button", "displayNow()")],
        "Paths": [("push button", "Rotate →"), ("push button", "Reset")],
        "Layers": [("push button", "Next contentsScale"), ("push button", "blueLayer.display()")],
        "Canvas": [("canvas", "Drawing canvas"), ("push button", "Clear")],
        "Content mode": [("push button", "Larger"), ("push button", "Smaller")],
        "Text": [("entry", "Text field")],
        "Motion": [
            ("animation", "Sliding tile"), ("animation", "Fading tile"), ("animation", "Rotating tile"),
            ("animation", "Scaling tile"), ("push button", "Animate"),
        ],
        "Controls": [
            ("push button", "Click me"), ("push button", "Disabled"), ("toggle button", "Turn the activity indicator"),
            ("entry", "Your name"), ("entry", "Password"), ("slider", "Amount"), ("progress bar", "Progress"),
        ],
    ]

    @Test("A pyatspi walker finds the demo, presses every sidebar row, reads every scene's roles, names and states, edits the text field and sees focus and text events; GTK 4 is walked in the same run")
    func walkTheDemoAndAGTKReference() throws {
        let session = try AccessibilityBusSession()
        defer { session.stop() }
        try session.setAccessibilityEnabled(true)
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try ClientProcess(Self.demo, ["--scene", "progress"], environment: session.environment(weston.clientEnvironment))
        defer { withExtendedLifetime(demo) {} }

        let records = try Self.walk("damask", "damask-demo", session: session, in: directory)
        let errors = records.filter { $0["kind"] as? String == "error" }
        #expect(errors.isEmpty, "\(errors)")
        let app = try #require(records.first { $0["kind"] as? String == "app" }, "the demo was not found:\n\(demo.standardError)")
        #expect(app["name"] as? String == "damask-demo")
        #expect(app["children"] as? Int == 1, "one window")
        let whole = Self.nodes(app["tree"])
        #expect(whole.first?.role == "application")
        #expect(whole.dropFirst().first.map { [$0.role, $0.name] } == ["frame", "Damask"], "the window, named by its title")
        for name in ["Minimize", "Maximize", "Close"] {
            #expect(whole.contains { $0.role == "push button" && $0.name == name }, "the title bar's \(name) button")
        }

        // Every scene, reached by pressing its row.
        let scenes = records.filter { $0["kind"] as? String == "scene" }
        #expect(scenes.map { $0["row"] as? String ?? "" } == [
            "Progress", "Chromosome", "Paths", "Layers", "Canvas", "Content mode", "Text", "Motion", "Controls",
        ])
        for scene in scenes {
            let row = scene["row"] as? String ?? ""
            #expect(scene["switched"] as? Bool == true, "pressing \(row) showed its scene")
            #expect(scene["rowSelected"] as? Bool == true, "the \(row) row is selected afterwards")
            let tree = Self.nodes(scene["tree"])
            #expect(tree.first?.role == "landmark", "\(row): the scene is a landmark")
            #expect(tree.dropFirst().first?.role == "heading", "\(row): its title is a heading")
            #expect(tree.first?.name == tree.dropFirst().first?.name, "\(row): the landmark is named by its title")
            for (role, name) in Self.expectedNodes[row] ?? [] {
                #expect(tree.contains { $0.role == role && $0.name == name }, "\(row): no \(role) named \(name)")
            }
            for node in tree {
                // The controls scene's "Disabled" buttons are disabled on purpose: shown, not enabled.
                let disabled = row == "Controls" && node.name == "Disabled"
                #expect(node.states.isSuperset(of: ["showing", "visible"]), "\(row): \(node.role) \(node.name)")
                #expect(node.states.isSuperset(of: ["enabled", "sensitive"]) != disabled, "\(row): \(node.role) \(node.name)")
                #expect(!node.name.isEmpty || node.role == "panel", "\(row): an unnamed \(node.role)")
                if node.role == "push button" {
                    #expect(node.record["actions"] as? [String] == ["press"], "\(row): \(node.name)'s actions")
                }
            }
            let sceneEvents = scene["events"] as? [String] ?? []
            if row != "Progress" {  // the first row pressed is the scene shown already
                #expect(sceneEvents.contains("object:children-changed:add"), "\(row): the new scene was announced")
                #expect(sceneEvents.contains("object:children-changed:remove"), "\(row): the old scene's removal was announced")
                #expect(sceneEvents.contains { $0.hasPrefix("object:state-changed:selected") }, "\(row): the row's selection was announced")
            }
            if row == "Progress" {
                #expect(sceneEvents.contains("object:property-change:accessible-value"), "+ 5% changed the bar's value: \(sceneEvents)")
            }
            if row == "Controls" {
                // The switch: a toggle button, off and checkable; pressed, it is checked and says so.
                let toggles = tree.filter { $0.role == "toggle button" }
                #expect(toggles.count == 2, "one switch per appearance panel: \(toggles.map(\.name))")
                for toggle in toggles {
                    #expect(toggle.states.contains("checkable") && !toggle.states.contains("checked"), "\(toggle.states)")
                    #expect(toggle.record["actions"] as? [String] == ["press"])
                }
                let after = scene["triggered"] as? Record
                let afterStates = Set(after?["states"] as? [String] ?? [])
                #expect(afterStates.isSuperset(of: ["checkable", "checked"]), "pressed, the switch is checked: \(afterStates)")
                #expect(sceneEvents.contains("object:state-changed:checked:1"), "the check was announced: \(sceneEvents)")
                for slider in tree.filter({ $0.role == "slider" }) {
                    let value = slider.record["value"] as? Double ?? -1
                    #expect(abs(value - 0.4) < 1e-6 && slider.record["max"] as? Double == 1, "slider value: \(slider.record)")
                }
                // The determinate bars have a value; the activity indicators ("Loading") are
                // indeterminate progress bars without one.
                let bars = tree.filter { $0.role == "progress bar" && $0.name == "Progress" }
                #expect(bars.count == 2)
                for bar in bars {
                    #expect(bar.record["max"] as? Double == 100, "progress value: \(bar.record)")
                }
            }
            if row == "Content mode" {
                #expect(sceneEvents.contains("object:bounds-changed"), "Larger moved or resized elements: \(sceneEvents)")
            }
            if row == "Progress", let bar = tree.first(where: { $0.role == "progress bar" }) {
                let value = bar.record["value"] as? Double ?? -1
                #expect((0...100).contains(value) && bar.record["max"] as? Double == 100, "progress value \(value)")
                #expect(bar.states.contains("horizontal"))
            }
            if row == "Text", let entry = tree.first(where: { $0.role == "entry" }) {
                #expect(entry.states.isSuperset(of: ["editable", "focusable", "single line"]))
            }
            if row == "Chromosome", let spinner = tree.first(where: { $0.name == "Loading" }) {
                #expect(spinner.states.contains("busy"), "the spinner, while shown, is busy")
            }
        }

        // The text field, read and edited through Text and EditableText.
        let text = try #require(records.first { $0["kind"] as? String == "text" })
        #expect(text["grabbed"] as? Bool == true)
        #expect(text["afterInsert"] as? String == "héllo wörld")
        #expect(text["afterDelete"] as? String == "wörld")
        #expect(text["characterCount"] as? Int == 5)
        #expect(text["caret"] as? Int == 2)
        #expect((text["states"] as? [String] ?? []).contains("focused"))
        let events = (text["events"] as? [Record] ?? []).map { ($0["type"] as? String ?? "", $0) }
        #expect(events.contains { $0.0 == "object:state-changed:focused" && $0.1["detail1"] as? Int == 1 && $0.1["role"] as? String == "entry" })
        #expect(events.contains { $0.0 == "focus:" && $0.1["source"] as? String == "Text field" })
        #expect(events.contains { $0.0 == "object:text-changed:insert" && $0.1["any"] as? String == "héllo wörld" })
        #expect(events.contains { $0.0 == "object:text-changed:delete" && $0.1["any"] as? String == "héllo " })
        #expect(events.contains { $0.0 == "object:text-caret-moved" && $0.1["detail1"] as? Int == 2 })

        // The reference: GTK 4, on the same buses and compositor.
        let gtkScript = try DemoAccessibilityScripts.write(DemoAccessibilityScripts.gtkReference, named: "gtk.py", in: directory)
        var gtkEnvironment = session.environment(weston.clientEnvironment)
        gtkEnvironment["GDK_BACKEND"] = "wayland"
        let gtk = try TestProcess(AccessibilityBusSession.python, [gtkScript], environment: gtkEnvironment)
        defer { gtk.kill() }
        #expect(gtk.waitForLine(from: 0, timeout: 60, where: { $0 == "ready" }) != nil, "GTK 4 did not start:\n\(gtk.transcript)")
        let gtkRecords = try Self.walk("gtk", "gtk4-reference", session: session, in: directory)
        let gtkTree = Self.nodes(gtkRecords.first { $0["kind"] as? String == "gtk" }?["tree"])
        let gtkRoles = Set(gtkTree.map(\.role))
        // The roles both toolkits give the same controls (docs/accessibility.md lists where they differ).
        for role in ["application", "frame", "list", "list item", "progress bar", "push button", "label"] {
            #expect(gtkRoles.contains(role), "GTK 4 has a \(role)")
            let damaskRoles = Set(scenes.flatMap { Self.nodes($0["tree"]).map(\.role) } + ["application", "frame", "list", "list item"])
            #expect(damaskRoles.contains(role), "Damask has a \(role)")
        }
        let gtkBar = try #require(gtkTree.first { $0.role == "progress bar" })
        #expect(gtkBar.record["value"] as? Double == 0.25, "GTK's progress runs 0…1 (Damask's 0…100)")
        #expect(gtkTree.contains { $0.role == "push button" && $0.record["actions"] as? [String] == ["click"] }, "GTK calls a button's action click")
        #expect(gtkTree.contains { $0.role == "text" && $0.states.contains("editable") }, "GTK's entry is a text")
        // A text view is a multi-line text in both (docs/accessibility.md).
        let gtkTextView = gtkTree.first { $0.role == "text" && $0.record["text"] as? String == "Notes in a text view" }
        #expect(gtkTextView?.states.isSuperset(of: ["multi line", "editable"]) == true, "GTK's text view: \(String(describing: gtkTextView?.states))")
        let notes = scenes.flatMap { Self.nodes($0["tree"]) }.first { $0.name == "Notes" }
        #expect(notes?.role == "text" && notes?.states.isSuperset(of: ["multi line", "editable"]) == true, "Damask's notes: \(String(describing: notes))")
        #expect(gtkTree.contains { $0.role == "list item" && $0.name.isEmpty }, "GTK's rows are unnamed, their label child has the name")
    }

    /// Waits up to `timeout` seconds for `condition`, checking every 0.2 s (a state another
    /// process reaches, which sends no event to wait for).
    static func eventually(timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(200_000)
        }
        return try condition()
    }

    /// Waits until the process's context switches stop changing over a 1.5 s step (up to
    /// 60 s), then returns how many it makes in the next `seconds`; nil if it never settles.
    ///
    /// The count sums the threads alive when it is read, so a thread that starts or ends
    /// inside the window (a thread pool retiring a worker some seconds after a one-off job,
    /// such as the `gsettings get` the colour-scheme fallback runs at start) would make the
    /// difference meaningless, even negative: such a window is measured again, up to three
    /// times. A program that keeps starting or ending threads never gives a clean window,
    /// which fails the check (nil is not 0).
    static func idleWakeUps(_ client: ClientProcess, seconds: UInt32) -> Int? {
        for _ in 0..<3 {
            var last = client.contextSwitches()
            var settled = false
            for _ in 0..<40 {
                usleep(1_500_000)
                let now = client.contextSwitches()
                if now == last {
                    settled = true
                    break
                }
                last = now
            }
            guard settled else { return nil }
            let threads = client.threadIDs()
            let before = client.contextSwitches()
            sleep(seconds)  // the observation window is the behaviour under test
            let after = client.contextSwitches()
            if client.threadIDs() == threads, !threads.isEmpty { return after - before }
        }
        return nil
    }

    @Test("With no assistive technology the demo follows org.a11y.Status on the session bus only, opens no accessibility-bus connection and wakes up 0 times; IsEnabled connects it, and disabling disconnects")
    func costsNothingWithoutAnAssistiveTechnology() throws {
        let session = try AccessibilityBusSession()
        defer { session.stop() }
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let demo = try ClientProcess(Self.demo, ["--scene", "progress"], environment: session.environment(weston.clientEnvironment))
        defer { withExtendedLifetime(demo) {} }

        #expect(try Self.eventually { try session.sessionBusProcessIDs().contains(demo.pid) }, "the demo follows the status on the session bus")
        let wakeUps = Self.idleWakeUps(demo, seconds: 5)
        #expect(wakeUps == 0, "idle wake-ups over 5 s without an AT: \(wakeUps.map(String.init) ?? "never settled")")
        #expect(try !session.accessibilityBusProcessIDs().contains(demo.pid), "no accessibility-bus connection without an AT")

        try session.setAccessibilityEnabled(true)
        #expect(try Self.eventually { try session.accessibilityBusProcessIDs().contains(demo.pid) }, "IsEnabled connects it")
        let connectedWakeUps = Self.idleWakeUps(demo, seconds: 5)
        #expect(connectedWakeUps == 0, "idle wake-ups over 5 s, connected, nobody asking: \(connectedWakeUps.map(String.init) ?? "never settled")")

        try session.setAccessibilityEnabled(false)
        #expect(try Self.eventually { try !session.accessibilityBusProcessIDs().contains(demo.pid) }, "turning it off disconnects")
        #expect(demo.process.isRunning, "the demo still runs:\n\(demo.standardError)")
    }
}
