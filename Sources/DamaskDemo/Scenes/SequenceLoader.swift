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

    /// Problems reading a sequence.
    enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        case empty(String)

        var description: String {
            switch self {
            case .unreadable(let path): return "cannot read the sequence file '\(path)'"
            case .empty(let path): return "'\(path)' holds no nucleotides (A, C, G, T, N)"
            }
        }
    }

    /// The sequence in the FASTA file at `path` (or the sample when `nil`): header (`>`)
    /// and comment (`;`) lines skipped, letters upper-cased, anything but A, C, G, T and N
    /// dropped.
    static func load(path: String?) throws -> String {
        guard let path else { return sample }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure.unreadable(path) }
        let text = String(decoding: data, as: UTF8.self)
        var bases = ""
        for line in text.split(whereSeparator: \.isNewline) {
            guard let first = line.first, first != ">", first != ";" else { continue }
            for character in line.uppercased() where "ACGTN".contains(character) {
                bases.append(character)
            }
        }
        guard !bases.isEmpty else { throw Failure.empty(path) }
        return bases
    }
}
