import DamaskPlayback
import DamaskViews
import Foundation

/// `--record FILE`: turns the real input the seat delivers to the window into a script that
/// `--play` replays.
///
/// Events arrive from the surface's input observer in window coordinates; they are moved into
/// the content area's coordinates (what scripts use), and pointer, scroll and touch events
/// outside the content (on the title bar or the shadow) are left out, as is the quit key
/// (replaying it would end the replay). The script starts with `scene NAME` for the scene
/// shown when recording began and is written when the demo quits.
///
/// Owns its `ScriptRecorder`. Main-actor.
@MainActor
final class DemoRecording {
    private let output: OutputFile
    private let recorder = ScriptRecorder()
    private let firstScene: String
    private var lastTimestamp: UInt32?

    /// The content area in window points; events are recorded relative to its origin.
    var contentFrame: () -> CGRect = { .infinite }

    /// Prepares to record into `path`, checking it now (see ``OutputFile``: never an input,
    /// never through a link) so that a bad path fails at once; the file itself is written
    /// atomically when the demo quits.
    ///
    /// - Throws: `DemoError.usage` naming the path and the reason.
    init(path: String, inputs: [String], firstScene: String) throws {
        do {
            output = try OutputFile(path: path, purpose: "the recording", inputs: inputs)
        } catch {
            throw DemoError.usage(error.description)
        }
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
            throw DemoError.usage(
                "cannot write the recording to '\(path)': \(String(cString: strerror(errno)))")
        }
        self.firstScene = firstScene
    }

    /// Records `event` if it belongs to the content area.
    func observe(_ event: Event) {
        let frame = contentFrame()
        let origin = frame.origin
        func inside(_ point: CGPoint) -> Bool { frame.isInfinite || frame.contains(point) }
        func shifted(_ point: CGPoint) -> CGPoint {
            frame.isInfinite ? point : CGPoint(x: point.x - origin.x, y: point.y - origin.y)
        }
        switch event {
        case .pointer(var pointer):
            guard inside(pointer.location) || pointer.kind == .up else { return }
            pointer.location = shifted(pointer.location)
            record(.pointer(pointer), at: pointer.timestamp)
        case .scroll(var scroll):
            guard inside(scroll.location) else { return }
            scroll.location = shifted(scroll.location)
            record(.scroll(scroll), at: scroll.timestamp)
        case .touch(var touch):
            guard inside(touch.location) || touch.phase != .began else { return }
            touch.location = shifted(touch.location)
            record(.touch(touch), at: touch.timestamp)
        case .key(let key):
            let isQuit = key.modifiers.contains(.control) && (key.shortcutKeysym == 0x71 || key.shortcutKeysym == 0x51)
            guard !isQuit else { return }
            record(.key(key), at: key.timestamp)
        case .keyboardFocus:
            break
        }
    }

    /// Events without a time of their own (a pointer entering carries none on Wayland)
    /// take the time of the event before them, so they make no pause; before the first timed
    /// event they are left out (a replayed move enters the window by itself).
    private func record(_ event: Event, at timestamp: UInt32) {
        if timestamp != 0 { lastTimestamp = timestamp }
        guard let time = lastTimestamp else { return }
        recorder.record(event, at: time)
    }

    /// Writes the script (through a temporary file renamed over the path).
    ///
    /// - Throws: ``OutputFile/Failure`` with the reason.
    func write() throws {
        let header = "# Recorded by damask-demo. Replay: damask-demo --play \((output.path as NSString).lastPathComponent)\n"
        try output.write(Array((header + "scene \(firstScene)\n" + recorder.script()).utf8))
    }
}
