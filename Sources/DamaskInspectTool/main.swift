import DamaskInspect
import Foundation

// damask-inspect: see InspectOptions.help and docs/inspect.md.
let options: InspectOptions
do {
    options = try InspectOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    DescriptorOutput.standardError("damask-inspect: \(error)\n\(InspectOptions.help)\n")
    exit(2)
}
if options.showHelp {
    print(InspectOptions.help)
    exit(0)
}
exit(InspectProxy(options: options).run())
