import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskDemo

/// The committed fuzz corpora (`Tests/Fuzz/Corpus/TARGET`, seeds and every input a fuzzer
/// run found) replayed through their targets in the plain build: each finding stays a
/// regression test, and the sanitizer passes replay them instrumented.
@Suite("Fuzz corpora replayed", .serialized, .timeLimit(.minutes(5)))
struct FuzzCorpusTests {
    static let corpus = PrivateCompositor.packageRoot.appendingPathComponent("Tests/Fuzz/Corpus").path
    static let replayer = PrivateCompositor.productsDirectory.appendingPathComponent("damask-fuzz").path

    /// The files of one target's corpus.
    static func inputs(_ target: String) throws -> [String] {
        let directory = corpus + "/" + target
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { directory + "/" + $0 }
    }

    @Test("Every input of each damask-fuzz target's corpus replays without a failed check", arguments: ["script", "png", "wire", "keymap", "text"])
    func corpusReplays(target: String) throws {
        let inputs = try Self.inputs(target)
        #expect(inputs.count >= 4, "a corpus of \(inputs.count) inputs for \(target)")
        let result = try PrivateCompositor.run(Self.replayer, [target, Self.corpus + "/" + target], timeout: 300)
        #expect(result.status == 0, "damask-fuzz \(target): \(result.output)")
        #expect(result.output.contains("damask-fuzz: \(target): \(inputs.count) inputs replayed"), "\(result.output)")
    }

    @Test("Every input of the FASTA corpus loads to bases A, C, G, T, N only, or fails naming the file")
    func fastaCorpusReplays() throws {
        let inputs = try Self.inputs("fasta")
        #expect(inputs.count >= 4)
        var loaded = 0
        for path in inputs {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
            do {
                let bases = try SequenceLoader.load(path: path)
                #expect(!bases.isEmpty, "\(path)")
                #expect(bases.utf8.allSatisfy { "ACGTN".utf8.contains($0) }, "\(path)")
                #expect(bases.utf8.count <= size, "\(path)")
                loaded += 1
            } catch {
                #expect("\(error)".contains(path), "\(error)")
            }
        }
        #expect(loaded >= 2, "the seeds with bases load")
    }
}
