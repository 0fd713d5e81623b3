import DamaskViews
import Dispatch
import Foundation

/// `expect text`, `expect clipboard` and `expect primary`: checks on text rather than pixels.
///
/// A paste arrives asynchronously (on Wayland through a pipe from the client that owns the
/// selection), and so does a selection another client sets; these checks therefore look
/// again every 20 ms until the value matches or ``PlaybackOptions/timeout`` passes, and a
/// failure reports the last value seen.
extension ScriptPlayer {
    /// How often a text check looks again while it does not hold.
    static let textCheckInterval: Duration = .milliseconds(20)

    /// Checks the first responder's text (a ``TextInput``) against `expected`.
    func checkText(_ expected: String) async -> Mismatch? {
        await checkEventually(expected) { [window] in
            guard let responder = window.firstResponder else { return (nil, "no first responder") }
            guard let input = responder as? any TextInput else {
                return (nil, "the first responder (\(Swift.type(of: responder))) holds no text")
            }
            return (input.text, ScriptPrinter.quoted(input.text))
        }
    }

    /// Checks what the window's pasteboard of `kind` holds against `expected` (`""` also
    /// matches a pasteboard with no text).
    func checkPasteboard(_ kind: PasteboardKind, _ expected: String) async -> Mismatch? {
        let name = kind == .clipboard ? "clipboard" : "primary selection"
        guard let pasteboard = window.surface.pasteboard(kind) else {
            return Mismatch(
                expected: ScriptPrinter.quoted(expected), actual: "no \(name) (the compositor offers none)")
        }
        let limit = options.timeout
        return await checkEventually(expected) {
            switch await Self.read(pasteboard, within: limit) {
            case .text(let text): return (text, ScriptPrinter.quoted(text))
            case .noText: return ("", "no text on the \(name)")
            case .noAnswer: return (nil, "no answer from the \(name) within \(limit)")
            }
        }
    }

    /// Reads `value` until its text equals `expected` or the timeout passes. `value` gives
    /// the text (nil: none to compare) and how to show it in a failure.
    private func checkEventually(
        _ expected: String, _ value: () async -> (text: String?, description: String)
    ) async -> Mismatch? {
        let deadline = ContinuousClock.now + options.timeout
        while true {
            let (text, description) = await value()
            if text == expected { return nil }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                return Mismatch(expected: ScriptPrinter.quoted(expected), actual: description)
            }
            await MainQueuePause.pause(for: Self.textCheckInterval)
        }
    }

    /// Reads `pasteboard` once, giving up after `limit` (a pasteboard must answer, but a
    /// check never waits on one forever).
    private static func read(_ pasteboard: any Pasteboard, within limit: Duration) async -> PasteboardReading {
        await withCheckedContinuation { (continuation: CheckedContinuation<PasteboardReading, Never>) in
            let request = PasteboardRequest(continuation)
            pasteboard.requestString { text in request.finish(text.map(PasteboardReading.text) ?? .noText) }
            let (seconds, attoseconds) = limit.components
            let delay = Double(seconds) + Double(attoseconds) / 1e18
            DispatchQueue.main.asyncAfter(deadline: .now() + delay) {
                MainActor.assumeIsolated { request.finish(.noAnswer) }
            }
        }
    }
}

/// What one pasteboard read gave.
enum PasteboardReading: Sendable {
    case text(String)
    case noText
    case noAnswer
}

/// One pasteboard read racing its deadline: whichever finishes first resumes the waiting
/// check, the other finds nothing left to do. Main-actor (both run on the main queue).
@MainActor private final class PasteboardRequest {
    private var continuation: CheckedContinuation<PasteboardReading, Never>?

    init(_ continuation: CheckedContinuation<PasteboardReading, Never>) {
        self.continuation = continuation
    }

    func finish(_ reading: PasteboardReading) {
        continuation?.resume(returning: reading)
        continuation = nil
    }
}
