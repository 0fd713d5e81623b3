import Foundation

/// wl-clipboard's `wl-copy` and `wl-paste` run against a private compositor, as another
/// program a user copies in or pastes into.
///
/// `wl-copy` forks a server that keeps offering the text until another client takes the
/// selection or the compositor goes; that server keeps the standard error it inherited. Run
/// through ``TestProcess/run(_:_:environment:timeout:)`` on its pipes, it would hold them
/// open, and the run would kill the whole process group, server included, a second later.
/// Weston and mutter both keep a copy of a dead client's *clipboard* text, which hides
/// that, but nothing keeps a dead client's *primary selection*: the selection then becomes
/// empty. So ``copy(_:environment:)`` gives the server a file for its messages instead.
enum WlClipboard {
    /// Runs `wl-copy arguments`; returns once it set the selection (its foreground part
    /// exited), with its server left running. The output is what it printed by then.
    static func copy(_ arguments: [String], environment: [String: String]) throws -> TestProcess.Result {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-wl-copy-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var result = try TestProcess.run(
            "/bin/sh", ["-c", #"log=$1; shift; exec /usr/bin/wl-copy "$@" >"$log" 2>&1"#, "wl-copy", log] + arguments,
            environment: environment, timeout: 20)
        result.output += (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return result
    }

    /// Runs `wl-paste arguments` to completion.
    static func paste(_ arguments: [String], environment: [String: String]) throws -> TestProcess.Result {
        try TestProcess.run("/usr/bin/wl-paste", arguments, environment: environment, timeout: 20)
    }
}
