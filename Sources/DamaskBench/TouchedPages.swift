import Foundation

/// The memory pages a stretch of code touches, per mapping of the process, read from the
/// kernel's page-table accessed bits: `/proc/self/clear_refs` clears them (and flushes the
/// TLB), the code runs, and `/proc/self/smaps` reports each mapping's `Referenced` pages.
///
/// A cold frame pays a TLB miss (a two-dimensional page walk in a virtual machine) for every
/// page it touches and a cache miss for every line, and this machine's guest has no
/// hardware performance counters (`perf stat -e iTLB-load-misses` reads "not supported"),
/// so the pages are the countable part of what a frame fetches. The count includes the
/// pages the measurement itself touches after clearing (returning from `write`, calling
/// `read`); ``Count/overhead`` measures them with an empty body, to subtract.
///
/// Main-actor isolated (it measures main-actor frames). Owns the file descriptors it opens
/// (closed before returning) and a read buffer allocated once and touched before use.
@MainActor final class TouchedPages {
    /// Pages touched, by kind of mapping.
    struct Count: Sendable {
        /// Per mapping kind (`code: damask-bench`, `code: libswiftCore.so`, `heap`, …): pages.
        var byKind: [String: Int] = [:]
        /// Every page touched.
        var total: Int { byKind.values.reduce(0, +) }
    }

    /// Where `smaps` is read into; large enough for any process of this bench (about 300 KiB
    /// here) and under 8 MiB, so that its pages count as malloc's, not as a bitmap's.
    private let buffer: UnsafeMutableRawPointer
    private let capacity = 4 << 20
    /// The pages an empty body touches (the measurement's own), per kind.
    private(set) var overhead = Count()

    /// Allocates and touches the read buffer, and measures the overhead; `nil` when the
    /// kernel does not offer `clear_refs` (no procfs, or not permitted).
    init?() {
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 4096)
        memset(buffer, 0, capacity)
        guard let empty = measure({}) else {
            buffer.deallocate()
            return nil
        }
        overhead = empty
    }

    isolated deinit {
        buffer.deallocate()
    }

    /// Runs `body` once and returns the pages touched meanwhile (including ``overhead``);
    /// `nil` when `clear_refs` or `smaps` cannot be used.
    func measure(_ body: () -> Void) -> Count? {
        let clear = open("/proc/self/clear_refs", O_WRONLY)
        guard clear >= 0 else { return nil }
        defer { close(clear) }
        let smaps = open("/proc/self/smaps", O_RDONLY)
        guard smaps >= 0 else { return nil }
        defer { close(smaps) }
        var one: UInt8 = 0x31  // "1": clear the accessed bits of every page of the process
        guard write(clear, &one, 1) == 1 else { return nil }
        body()
        var length = 0
        while length < capacity {
            let got = read(smaps, buffer + length, capacity - length)
            if got <= 0 { break }
            length += got
        }
        let text = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
        return Self.parse(text)
    }

    /// Sums each mapping's `Referenced:` kilobytes by kind, in pages of 4 KiB.
    private static func parse(_ smaps: String) -> Count {
        var count = Count()
        var kind = "anonymous"
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                kind = Self.kind(ofMappingLine: line)
            } else if line.hasPrefix("Referenced:") {
                let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                if kilobytes > 0 { count.byKind[kind, default: 0] += kilobytes / 4 }
            }
        }
        return count
    }

    /// The kind of a mapping from its `smaps` header line (`start-end perms offset dev inode
    /// path`): code or data of a named file, the heap, the stack, or anonymous memory (large
    /// anonymous mappings are the bitmaps: window-sized stores and buffers).
    private static func kind(ofMappingLine line: Substring) -> String {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        let permissions = fields.count > 1 ? fields[1] : ""
        let path = fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
        if path == "[heap]" { return "heap" }
        if path.hasPrefix("[stack") { return "stack" }
        if path.hasPrefix("[") { return "kernel (\(path))" }
        if path.isEmpty {
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            let size = bounds.count == 2 ? bounds[1] - bounds[0] : 0
            return size >= 8 << 20 ? "bitmaps (anonymous ≥ 8 MiB)" : "anonymous < 8 MiB (malloc arenas)"
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return permissions.contains("x") ? "code: \(name)" : "data: \(name)"
    }
}
