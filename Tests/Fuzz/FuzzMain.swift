import Foundation

#if DAMASK_LIBFUZZER
/// libFuzzer's entry: which target runs comes from `DAMASK_FUZZ_TARGET` (scripts/fuzz sets
/// it), read once in `LLVMFuzzerInitialize`.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?  // written once before any input, read on the same thread

@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["DAMASK_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("damask-fuzz: DAMASK_FUZZ_TARGET '\(name)' is not one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8))
        exit(2)
    }
    selectedTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    MainActor.assumeIsolated { selectedTarget?.run(data) }
    return 0
}
#else
/// The replay of corpora without libFuzzer: `damask-fuzz TARGET FILE|DIRECTORY...` runs the
/// target on every file (a directory: every file in it) and exits 0 when none trapped. The
/// regression test `FuzzCorpusTests` runs it over the committed corpora.
@main
enum FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: damask-fuzz TARGET FILE|DIRECTORY... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))\n".utf8))
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("damask-fuzz: no such file or directory: \(path)\n".utf8))
                exit(2)
            }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("damask-fuzz: cannot read \(file)\n".utf8))
                    exit(2)
                }
                MainActor.assumeIsolated { target.run(Array(data)) }
                count += 1
            }
        }
        print("damask-fuzz: \(name): \(count) inputs replayed")
    }
}
#endif
