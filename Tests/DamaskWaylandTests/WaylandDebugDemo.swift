import Foundation

/// One `damask-demo` process on a private compositor, run with `WAYLAND_DEBUG=1` so that
/// a test can read what it receives and sends: pointer `enter` (to find the window),
/// keyboard `enter`/`leave` (focus), `key` events (to wait until typed keys arrived) and its
/// requests (a `receive` on an offer: a paste was read; `set_surrounding_text` and the damage
/// sent before it: an edit was drawn), and with a damage log (each commit's damage, shown
/// when a check fails). Used by the mutter and Weston harnesses that run several demos.
///
/// Owns the process (stopped in ``stop()`` / `deinit`) and the damage log file. Use from
/// one test.
final class WaylandDebugDemo {
    let process: TestProcess
    /// The demo's `--damage-log` (one JSON line per commit); removed by ``stop()``.
    let damageLog: String
    /// The content area's top-left in the compositor's output coordinates, once located.
    var origin = (x: 0, y: 0)

    /// Starts `damask-demo` with `arguments` (and a damage log) in `environment` (a
    /// compositor's client environment), with `WAYLAND_DEBUG=1` and its stderr merged
    /// into ``process``'s lines.
    init(_ arguments: [String], environment: [String: String]) throws {
        var environment = DemoRun.environment(environment)
        environment["WAYLAND_DEBUG"] = "1"
        damageLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-debug-damage-\(UUID().uuidString).jsonl").path
        process = try TestProcess(
            DemoRun.executable, arguments + ["--damage-log", damageLog], environment: environment, mergingErrors: true)
    }

    deinit { stop() }

    /// Stops the demo (SIGTERM, then SIGKILL after 2 s) and removes its damage log. Idempotent.
    func stop() {
        if process.isRunning { process.kill(grace: 2) }
        try? FileManager.default.removeItem(atPath: damageLog)
    }

    /// The content area's top-left in output coordinates, from a pointer event the demo
    /// received while the pointer was at output point (x, y): `event` is its
    /// `wl_pointer.enter` or `.motion` line (whose last two numbers are the surface-local
    /// position), and the latest `set_window_geometry` gives the window's offset in the
    /// surface (the shadow) and its height, of which the last `contentHeight` is content
    /// (the title bar is above it).
    func contentOrigin(pointerAt x: Int, _ y: Int, event: String, contentHeight: Int) -> (x: Int, y: Int)? {
        let local = Self.numbers(in: event).suffix(2)
        let geometry = requests(containing: ".set_window_geometry(").last.map { Self.numbers(in: $0).suffix(4) }
        guard local.count == 2, let geometry, geometry.count == 4 else { return nil }
        let surfaceX = x - Int(local[local.startIndex].rounded())
        let surfaceY = y - Int(local[local.startIndex + 1].rounded())
        return (surfaceX + Int(geometry[geometry.startIndex]),
            surfaceY + Int(geometry[geometry.startIndex + 1]) + Int(geometry[geometry.startIndex + 3]) - contentHeight)
    }

    /// The content point of a pointer `enter` or `motion` line the demo received: its
    /// surface-local position (the last two numbers) less the content area's offset in the
    /// surface, from the latest `set_window_geometry` (the shadow, and the title bar above
    /// the last `contentHeight` points). Nil when the line has no position or no geometry
    /// was set yet.
    func contentPoint(ofPointerEvent line: String, contentHeight: Int) -> (x: Int, y: Int)? {
        let local = Self.numbers(in: line).suffix(2)
        let geometry = requests(containing: ".set_window_geometry(").last.map { Self.numbers(in: $0).suffix(4) }
        guard local.count == 2, let geometry, geometry.count == 4 else { return nil }
        let g = Array(geometry)
        return (Int(local[local.startIndex].rounded()) - Int(g[0]),
            Int(local[local.startIndex + 1].rounded()) - Int(g[1]) - (Int(g[3]) - contentHeight))
    }

    /// The commits so far, each as its damage rects [x, y, width, height] in pixels.
    var commits: [[[Int]]] {
        let text = (try? String(contentsOfFile: damageLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return object?["damage"] as? [[Int]] ?? []
        }
    }

    /// The demo's window surface (`wl_surface@N`), from its `get_xdg_surface` request.
    var windowSurface: String? {
        requests(containing: ".get_xdg_surface(").first.flatMap { line in
            line.split(separator: "(").last?.split(separator: ",").last?
                .trimmingCharacters(in: CharacterSet(charactersIn: " )"))
        }
    }

    /// Waits until the demo tells its text input that the focused field holds `text`, and
    /// says whether the frame that showed that edit damaged a rect wider than `width` pixels.
    ///
    /// The demo sends a field's changed state right after the focused surface's next commit
    /// (``TextInputSession``), so the frame that drew the edit is the window's last commit
    /// with damage before the `set_surrounding_text`. Tied to the edit, not to a count of
    /// commits: a focus repaint of the whole window that lands in the same frame as a paste
    /// draws the paste too, and passes; a caret-only frame does not, nor does the frame of a
    /// key typed before the paste.
    func waitForDrawnEdit(holding text: String, widerThan width: Int, timeout: TimeInterval = 15) -> Bool {
        let request = ".set_surrounding_text(\"\(text)\""
        guard process.waitUntil(timeout: timeout, { lines in lines.contains { Self.isRequest($0, containing: request) } }) else { return false }
        let lines = process.lines
        guard let edit = lines.firstIndex(where: { Self.isRequest($0, containing: request) }), let surface = windowSurface
        else { return false }
        // Backwards from the edit: the damage sent before the latest commit that had any.
        var damage: [[Double]] = []
        var committed = false
        for line in lines[..<edit].reversed() where Self.isRequest(line, containing: "\(surface).") {
            if line.contains("\(surface).commit()") {
                if committed && !damage.isEmpty { break }
                committed = true
            } else if committed && line.contains("\(surface).damage_buffer(") {
                damage.append(Self.numbers(in: line))
            }
        }
        return damage.contains { $0.count == 4 && $0[2] > Double(width) }
    }

    /// Waits until the demo tells its text input (v1 or v3) that the focused field holds
    /// `text`: the field's own word that an edit, such as a paste arriving through its pipe
    /// after the click or key that asked for it, is done.
    func waitForSurroundingText(_ text: String, timeout: TimeInterval = 15) -> Bool {
        let request = ".set_surrounding_text(\"\(text)\""
        return process.waitUntil(timeout: timeout) { lines in lines.contains { Self.isRequest($0, containing: request) } }
    }

    /// Whether the latest keyboard focus event the demo received is an `enter`.
    var hasKeyboardFocus: Bool {
        let focus = process.lines.last { $0.contains("wl_keyboard@") && ($0.contains(".enter(") || $0.contains(".leave(")) }
        return focus?.contains(".enter(") ?? false
    }

    /// How many key events (presses and releases) the demo has received.
    var keyEventCount: Int {
        process.lines.count { $0.contains("wl_keyboard@") && $0.contains(".key(") }
    }

    /// Whether a key the demo received from line `start` on was held past the repeat
    /// delay (its release came that much after its press, by mutter's event times): the
    /// demo then rightly repeated it. mutter under heavy load can stall between a press
    /// and its release although the injector sends them back to back.
    func keyWasHeld(since start: Int) -> Bool {
        let lines = process.lines
        let delay = lines.last { $0.contains(".repeat_info(") }.flatMap { Self.numbers(in: $0).last } ?? 500
        var pressed: [Double: Double] = [:]
        for line in lines.dropFirst(start) where line.contains("wl_keyboard@") && line.contains(".key(") {
            let fields = Self.numbers(in: line)
            guard fields.count == 4 else { continue }
            if fields[3] == 1 {
                pressed[fields[2]] = fields[1]
            } else if let down = pressed.removeValue(forKey: fields[2]), fields[1] - down >= delay {
                return true
            }
        }
        return false
    }

    /// Waits until the demo's latest `set_selection` on `device` (`wl_data_device`,
    /// `zwp_primary_selection_device_v1`) came back as a `selection` event with an offer:
    /// the compositor took the copy. (A compositor ignores a copy from a client that lost
    /// keyboard focus before the request arrived, which a test that clicks another window
    /// right after a key could otherwise race.)
    func waitForSelectionTaken(on device: String, timeout: TimeInterval = 10) -> Bool {
        process.waitUntil(timeout: timeout) { lines in
            guard let request = lines.lastIndex(where: { $0.contains(" -> \(device)@") && $0.contains(".set_selection(") })
            else { return false }
            return lines[(request + 1)...].contains {
                !$0.contains(" -> ") && $0.contains("\(device)@") && $0.contains(".selection(") && !$0.contains("(nil)")
            }
        }
    }

    /// Requests of the demo whose WAYLAND_DEBUG line contains `text`.
    func requests(containing text: String) -> [String] {
        process.lines.filter { Self.isRequest($0, containing: text) }
    }

    /// Whether a WAYLAND_DEBUG line is a request the demo sent that contains `text`.
    static func isRequest(_ line: String, containing text: String) -> Bool {
        line.contains(" -> ") && line.contains(text)
    }

    /// Events the demo received from line `start` of its log on whose WAYLAND_DEBUG line
    /// contains `text`.
    func events(containing text: String, since start: Int = 0) -> [String] {
        process.lines.dropFirst(start).filter { !$0.contains(" -> ") && $0.contains(text) }
    }

    /// Waits up to `timeout` seconds for keyboard focus.
    func waitForFocus(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasKeyboardFocus && Date() < deadline && process.isRunning { usleep(20_000) }
        return hasKeyboardFocus
    }

    /// The numbers in the argument list of a WAYLAND_DEBUG line, "(12, wl_surface@3, 4.5)" → [12, 4.5].
    static func numbers(in line: String) -> [Double] {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
    }
}
