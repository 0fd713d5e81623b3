import DamaskControls
import DamaskWayland
import Foundation

// damask-notes: a small notes application written against Damask's public API only
// (DamaskControls, DamaskViews, DamaskWayland, DamaskPlayback). See `damask-notes --help`.

signal(SIGPIPE, SIG_IGN)

let options: NotesOptions
do {
    options = try NotesOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    NotesApplication.fail(with: "\(error)", status: 2)
}
if options.showHelp {
    print(NotesOptions.help)
    exit(0)
}
CaretBlinking.isEnabled = options.caretBlinks
let application = NotesApplication(options: options)
do {
    try application.start()
} catch let error as NotesError {
    NotesApplication.fail(with: error.description, status: 2)
} catch let error as WaylandError {
    NotesApplication.fail(with: error.description, status: error.exitStatus)
} catch {
    NotesApplication.fail(with: "\(error)", status: 1)
}
MainLoop.shared.run()
