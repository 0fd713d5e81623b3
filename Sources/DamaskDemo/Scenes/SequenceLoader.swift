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

        var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read the sequence file '\(path)': \(reason)"
            case .empty(let path): return "'\(path)' holds no nucleotides (A, C, G, T, N)"
            case .tooLarge(let path):
                return "the sequence file '\(path)' is larger than \(maximumFileBytes >> 20) MiB "
                    + "or holds more than \(maximumBases) bases, the limit of the chromosome scene"
            }
        }
    }

    /// The sequence in the FASTA file at `path` (or the sample when `nil`): header (`>`)
    /// and comment (`;`) lines skipped, letters upper-cased, anything but A, C, G, T and N
    /// dropped. The file is read in 64 KiB pieces, never whole, and only a regular file is
    /// read (a FIFO or `/dev/zero` would never end).
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
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    atLineStart = true
                    skippingLine = false
                    continue
                }
                if atLineStart {
                    atLineStart = false
                    skippingLine = byte == UInt8(ascii: ">") || byte == UInt8(ascii: ";")
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
