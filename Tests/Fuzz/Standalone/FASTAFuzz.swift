import Foundation

/// The libFuzzer target of the demo's FASTA loader (`Sources/DamaskDemo/Scenes/
/// SequenceLoader.swift`, compiled with this file alone by `scripts/fuzz fasta`: the loader
/// lives in an executable target, which no other target can import).
///
/// The input is written to a private file (the loader reads paths) and loaded; what loads
/// must hold only A, C, G, T and N, no more than the input's letters.
nonisolated(unsafe) private var inputPath = ""  // set once in LLVMFuzzerInitialize, read on the same thread

@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    inputPath = NSTemporaryDirectory() + "/damask-fuzz-fasta-\(getpid()).fa"
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    guard FileManager.default.createFile(atPath: inputPath, contents: data) else { fatalError("cannot write \(inputPath)") }
    defer { unlink(inputPath) }
    do {
        let sequence = try SequenceLoader.load(path: inputPath)
        guard sequence.utf8.allSatisfy({ "ACGTN".utf8.contains($0) }) else { fatalError("a base outside ACGTN") }
        guard sequence.utf8.count <= count else { fatalError("\(sequence.utf8.count) bases from \(count) bytes") }
        guard !sequence.isEmpty else { fatalError("an empty sequence loaded without an error") }
    } catch {
        guard "\(error)".contains(inputPath) else { fatalError("an error that does not name the file: \(error)") }
    }
    return 0
}
