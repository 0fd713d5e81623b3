import Foundation

extension Process {
    /// Kills the process (SIGKILL) if it is still running `timeout` seconds from now, so
    /// that reading its output to the end, and waiting for it, end by then. Call right after
    /// `run()`, for a helper program a test starts (a scanner, a reference renderer): one
    /// that hangs then fails the test instead of hanging the run.
    public func killIfRunning(after timeout: TimeInterval) {
        let process = self
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Waits for the process to end, at most `timeout` seconds; on the deadline it is killed
    /// (SIGKILL) and reaped. Returns whether it ended by itself.
    public func waitUntilExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(2_000) }
        let endedByItself = !isRunning
        if !endedByItself { kill(processIdentifier, SIGKILL) }
        waitUntilExit()  // reaps it (at once when it has ended) so terminationStatus can be read
        return endedByItself
    }
}
