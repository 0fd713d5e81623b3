import DamaskGraphics
import Foundation

/// A file the program writes (a damage log, a recording, a screenshot), checked and written
/// so that nothing the user did not name is destroyed.
///
/// - A path that is one of the program's inputs (the script being played, a reference
///   image, the sequence) is refused: writing it would destroy the input.
/// - A symbolic link is refused, never followed (a planted link would redirect the write).
/// - A FIFO or character device (`/dev/null`, a terminal) is written in place, as the user
///   asked; a directory, socket or block device is refused with the reason.
/// - A regular file is replaced atomically: the bytes go to a temporary file in the same
///   directory, which is renamed over the path, so a failed write leaves the old file whole.
///   Streams (``openStream()``) are the exception: they write the path itself, so that a
///   reader sees the lines as they come.
///
/// A value type holding only the path; descriptors it opens belong to the caller.
public struct OutputFile: Sendable {
    /// Why an output file cannot be written, worded for the person who named it.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// What is at the path now.
    enum Existing: Sendable {
        case nothing
        case regular
        case stream
    }

    /// The path as given.
    public let path: String
    /// What the file is for, in messages ("the damage log").
    public let purpose: String
    let existing: Existing

    /// Checks `path` for writing `purpose`, refusing it when it is one of `inputs`, a
    /// symbolic link, or a kind of file that cannot be replaced.
    ///
    /// - Throws: ``Failure`` naming the purpose, the path and the reason.
    public init(path: String, purpose: String, inputs: [String] = []) throws(Failure) {
        self.path = path
        self.purpose = purpose
        guard !path.isEmpty else { throw Failure(description: "cannot write \(purpose): the path is empty") }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw Self.failure(purpose, path, errno) }
            existing = .nothing
            return
        }
        for input in inputs {
            var inputStatus = stat()
            if stat(input, &inputStatus) == 0, inputStatus.st_dev == status.st_dev, inputStatus.st_ino == status.st_ino {
                throw Failure(description: "cannot write \(purpose) to '\(path)': it is the input '\(input)', which would be destroyed")
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            existing = .regular
        case S_IFIFO, S_IFCHR:
            existing = .stream
        case S_IFLNK:
            throw Failure(description: "cannot write \(purpose) to '\(path)': it is a symbolic link (give the path it points to)")
        case S_IFDIR:
            throw Failure(description: "cannot write \(purpose) to '\(path)': it is a directory")
        default:
            throw Failure(description: "cannot write \(purpose) to '\(path)': it is not a regular file, a FIFO or a character device")
        }
    }

    /// Writes `bytes` as the whole file: through a temporary file renamed over a regular
    /// file (or a new one), directly into a FIFO or device.
    ///
    /// - Throws: ``Failure`` with the system's reason; the old file is then untouched and
    ///   no temporary file is left behind.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        if existing == .stream {
            let descriptor = try openStream()
            defer { close(descriptor) }
            let failure = FileDescriptorWriter.write(bytes, to: descriptor)
            guard failure == 0 else { throw Self.failure(purpose, path, failure) }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Self.failure(purpose, path, errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = FileDescriptorWriter.write(bytes, to: descriptor)
        if failure == 0, fchmod(descriptor, 0o644 & ~Self.umask) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw Self.failure(purpose, path, failure)
        }
    }

    /// Opens the path for writing as a stream: a FIFO or device in place, a regular file
    /// truncated (created if missing), never through a symbolic link. Returns the
    /// descriptor, owned by the caller.
    ///
    /// - Throws: ``Failure`` with the reason (a FIFO without a reader says so rather than
    ///   waiting for one).
    public func openStream() throws(Failure) -> Int32 {
        let flags: Int32 =
            existing == .stream
            ? O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
            : O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            if errno == ENXIO {
                throw Failure(description: "cannot write \(purpose) to '\(path)': no program is reading the FIFO")
            }
            throw Self.failure(purpose, path, errno)
        }
        if existing == .stream {
            // Opened without waiting for a reader; from now on writes may block as usual.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        return descriptor
    }

    /// The failure for `code` (an errno), with the system's reason.
    static func failure(_ purpose: String, _ path: String, _ code: Int32) -> Failure {
        Failure(description: "cannot write \(purpose) to '\(path)': \(String(cString: strerror(code)))")
    }

    /// The process's file creation mask, from `/proc/self/status` (reading it with
    /// `umask(2)` would change it for every thread for a moment); 022 when unknown.
    private static var umask: mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = line.split(separator: "\t").last.flatMap({ mode_t($0.trimmingCharacters(in: .whitespaces), radix: 8) })
        else { return 0o022 }
        return value
    }
}
