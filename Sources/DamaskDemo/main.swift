import DamaskWayland
import Foundation

// damask-demo: the Damask demo application. See `damask-demo --help`.

// A closed stdout or stderr pipe must end in an error return from write(2), not a signal.
signal(SIGPIPE, SIG_IGN)

let options: DemoOptions
do {
    options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    DemoApplication.fail(with: "\(error)", status: (error as? DemoError)?.exitStatus ?? 2)
}
if options.showHelp {
    print(DemoOptions.help)
    print()
    print(TextScene.fontReport)
    exit(0)
}

let application = DemoApplication(options: options)
do {
    try application.start()
} catch let error as WaylandError {
    DemoApplication.fail(with: error.description, status: error.exitStatus)
} catch let error as DemoError {
    DemoApplication.fail(with: error.description, status: error.exitStatus)
} catch {
    DemoApplication.fail(with: "\(error)", status: 1)
}
MainLoop.shared.run()
