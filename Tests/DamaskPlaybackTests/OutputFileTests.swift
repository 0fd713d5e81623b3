import DamaskGraphics
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

/// Output files never destroy what the user did not name: inputs, links, devices; regular
/// files are replaced atomically and a failed write leaves the old file whole.
@Suite("Output files", .timeLimit(.minutes(5)))
struct OutputFileTests {
    func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("A path that is an input (the script) is refused and the input is untouched")
    func inputIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/play.damask"
        try "click 1 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        // The same file under another spelling is the same input.
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: directory + "/./play.damask", purpose: "the damage log", inputs: [script])
        }
        #expect(error?.description.contains("it is the input '\(script)', which would be destroyed") == true, "\(String(describing: error))")
        #expect(contents(script) == "click 1 1\n")
    }

    @Test("A symbolic link is refused, never followed; its target is untouched")
    func symbolicLinkIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/precious"
        try "keep me".write(toFile: target, atomically: true, encoding: .utf8)
        let link = directory + "/out.jsonl"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: link, purpose: "the damage log")
        }
        #expect(error?.description == "cannot write the damage log to '\(link)': it is a symbolic link (give the path it points to)")
        #expect(contents(target) == "keep me")
        // A link that appears after the check is not followed either (O_NOFOLLOW, rename).
        let plain = directory + "/later.jsonl"
        let output = try OutputFile(path: plain, purpose: "the damage log")
        try FileManager.default.createSymbolicLink(atPath: plain, withDestinationPath: target)
        #expect(throws: OutputFile.Failure.self) { _ = try output.openStream() }
        try output.write(Array("replaced\n".utf8))
        #expect(contents(target) == "keep me")
        #expect(contents(plain) == "replaced\n")
    }

    @Test("A directory is refused with the reason")
    func directoryIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: directory, purpose: "the recording")
        }
        #expect(error?.description == "cannot write the recording to '\(directory)': it is a directory")
    }

    @Test("A regular file is replaced through a temporary file: the content is whole, no temporary is left")
    func regularFileIsReplacedAtomically() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/shot.png"
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        try OutputFile(path: path, purpose: "the screenshot").write(Array("new".utf8))
        let after = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(contents(path) == "new")
        #expect(before != after, "renamed into place, not rewritten in place")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["shot.png"])
    }

    @Test("A path in a missing directory is reported with the system's reason; nothing is created")
    func missingDirectoryIsReported() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/missing/log.jsonl"
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: path, purpose: "the recording").write(Array("new".utf8))
        }
        #expect(error?.description == "cannot write the recording to '\(path)': No such file or directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("A character device is written in place: /dev/null takes the bytes, /dev/full reports ENOSPC")
    func devicesAreWrittenInPlace() throws {
        try OutputFile(path: "/dev/null", purpose: "the damage log").write(Array("x".utf8))
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: "/dev/full", purpose: "the damage log").write(Array("x".utf8))
        }
        #expect(error?.description == "cannot write the damage log to '/dev/full': No space left on device")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/null is still the device")
    }

    @Test("A FIFO without a reader is reported at once instead of waiting; with a reader it gets the bytes")
    func fifoIsWrittenInPlace() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = try OutputFile(path: fifo, purpose: "the damage log")
        let error = #expect(throws: OutputFile.Failure.self) { _ = try output.openStream() }
        #expect(error?.description == "cannot write the damage log to '\(fifo)': no program is reading the FIFO")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try output.write(Array("line\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 5 && Array(buffer.prefix(5)) == Array("line\n".utf8))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    }
}
