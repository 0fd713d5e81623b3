import Foundation

/// Reads a nucleotide sequence off the main actor: from a FASTA file, or the built-in
/// sample. Stateless; safe from any thread.
enum SequenceLoader {
    /// A sample of 264 bases (the start of a globin-like coding sequence).
    static let sample =
        "ATGGTGCATCTGACTCCTGAGGAGAAGTCTGCCGTTACTGCCCTGTGGGGCAAGGTGAACGTGGATGAAGTTGGTGGTGAGG"
        + "CCCTGGGCAGGCTGCTGGTGGTCTACCCTTGGACCCAGAGGTTCTTTGAGTCCTTTGGGGATCTGTCCACTCCTGATGCTGT"
        + "TATGGGCAACCCTAAGGTGAAGGCTCATGGCAAGAAAGTGCTCGGTGCCTTTAGTGATGGCCTGGCTCACCTGGACAACCTC"
        + "AAGGGCACCTTTGCCACA"

    /// The most bytes read from a sequence file (64 MiB): a larger file is refused
    /// rather than loaded whole (a chromosome would take gigabytes and minutes).
    static let maximumFileBytes = 64 << 20
    /// The most bases kept (16 million).
    static let maximumBases = 16_000_000

    /// Problems reading a sequence.
    enum Failure: Error, CustomStringConvertible {
        case unreadable(String, reason: String)
        case empty(String)
        case tooLarge(String)
        case notText(String, line: Int, column: Int, byte: UInt8)

        var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read the sequence file '\(path)': \(reason)"
            case .empty(let path): return "'\(path)' holds no nucleotides (A, C, G, T, N)"
            case .notText(let path, let line, let column, let byte):
                return "'\(path)' is not a FASTA text file: byte 0x\(String(byte, radix: 16, uppercase: true)) at line \(line), "
                    + "column \(column) (a sequence line holds ASCII letters; a binary file is not a sequence)"
            case .tooLarge(let path):
                return "the sequence file '\(path)' is larger than \(maximumFileBytes >> 20) MiB "
                    + "or holds more than \(maximumBases) bases, the limit of the chromosome scene"
            }
        }
    }

    /// The sequence in the FASTA file at `path` (or the sample when `nil`): header (`>`)
    /// and comment (`;`) lines skipped, letters upper-cased, anything but A, C, G, T and N
    /// dropped. The file is read in 64 KiB pieces, never whole, and only a regular file is
    /// read (a FIFO or `/dev/zero` would never end). A file that is not text is rejected
    /// with the place of its first offending byte: a NUL or control character anywhere
    /// (tab, CR and LF aside), or a non-ASCII byte on a sequence line (headers may be UTF-8).
    static func load(path: String?) throws -> String {
        guard let path else { return sample }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure.unreadable(path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure.unreadable(path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure.unreadable(path, reason: status.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is not a regular file")
        }
        guard Int(status.st_size) <= maximumFileBytes else { throw Failure.tooLarge(path) }
        var bases: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var atLineStart = true
        var skippingLine = false
        var total = 0
        var (line, column) = (1, 0)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.unreadable(path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            total += count
            guard total <= maximumFileBytes else { throw Failure.tooLarge(path) }
            for byte in chunk.prefix(count) {
                column += 1
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    if byte == UInt8(ascii: "\n") { (line, column) = (line + 1, 0) }
                    atLineStart = true
                    skippingLine = false
                    continue
                }
                if atLineStart {
                    atLineStart = false
                    skippingLine = byte == UInt8(ascii: ">") || byte == UInt8(ascii: ";")
                }
                let isControl = (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
                guard !isControl, skippingLine || byte < 0x80 else {
                    throw Failure.notText(path, line: line, column: column, byte: byte)
                }
                guard !skippingLine else { continue }
                let upper = byte & 0xDF  // ASCII letters to upper case
                switch upper {
                case UInt8(ascii: "A"), UInt8(ascii: "C"), UInt8(ascii: "G"), UInt8(ascii: "T"), UInt8(ascii: "N"):
                    guard bases.count < maximumBases else { throw Failure.tooLarge(path) }
                    bases.append(upper)
                default:
                    break
                }
            }
        }
        guard !bases.isEmpty else { throw Failure.empty(path) }
        return String(decoding: bases, as: UTF8.self)
    }
}
