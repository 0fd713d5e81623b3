import DamaskViews
import Foundation

// damask-bench: measures what Damask exists for, each figure beside a baseline measured
// in the same run. See `damask-bench --help` and docs/performance.md.

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("damask-bench: \(error)\n".utf8))
    exit(2)
}
if options.showHelp {
    Console.write(BenchOptions.help)
    exit(0)
}
if let client = options.clientMode {
    do {
        try BenchClient.run(client)
    } catch {
        FileHandle.standardError.write(Data("damask-bench client: \(error)\n".utf8))
        exit(1)
    }
}

let runner = BenchRunner(options: options)
do {
    let held = try runner.run()
    if !held {
        FileHandle.standardError.write(Data("damask-bench: a target was missed (MISSES above); exit status 3\n".utf8))
        exit(3)
    }
} catch {
    FileHandle.standardError.write(Data("damask-bench: \(error)\n".utf8))
    exit(1)
}
exit(0)
