import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call on the main queue, so the program can close its
/// window and exit cleanly instead of dying mid-frame.
///
/// Owns its dispatch sources; keep it alive as long as the signals should be handled.
@MainActor
final class SignalMonitor {
    private var sources: [any DispatchSourceSignal] = []

    /// Starts handling `signals`; `handler` receives the signal number on the main actor.
    init(signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @MainActor (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { handler(number) } }
            source.resume()
            sources.append(source)
        }
    }
}
