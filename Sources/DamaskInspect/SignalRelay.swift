import Dispatch
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into a readable pipe, so the poll loop notices them between
/// messages instead of being interrupted mid-forward.
///
/// Owns both ends of the pipe and its dispatch sources; keep it alive while signals matter.
final class SignalRelay {
    /// Readable when a signal arrived.
    let readEnd: Int32
    private let writeEnd: Int32
    private var sources: [any DispatchSourceSignal] = []

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        let target = writeEnd
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(target, &byte, 1)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        close(readEnd)
        close(writeEnd)
    }

    /// Empties the pipe; returns the signals that had arrived, oldest first.
    func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 16)
        var signals: [Int32] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            signals += buffer[..<count].map { Int32($0) }
        }
        return signals
    }
}
