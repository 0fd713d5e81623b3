import Foundation

/// The C programs of `Tests/InputMethods`, built once per test process with gcc (client glue
/// from the protocol XML by wayland-scanner): the scripted input method for
/// input-method-unstable-v2, the long-lived virtual keyboard and the second text-input-v1
/// client that takes Weston's input method away from a field.
enum InputMethodPrograms {
    /// The built programs' directory, or why they could not be built.
    nonisolated(unsafe) private static var built: Result<String, CompositorError>?
    private static let buildLock = NSLock()

    /// The scripted input-method-v2 input method (`Tests/InputMethods/scripted-input-method-v2.c`).
    static func inputMethodV2() throws -> String { try directory() + "/scripted-input-method-v2" }

    /// The virtual keyboard (`Tests/InputMethods/virtual-keyboard.c`).
    static func virtualKeyboard() throws -> String { try directory() + "/virtual-keyboard" }

    /// The second text-input-v1 client (`Tests/InputMethods/text-input-thief-v1.c`).
    static func textInputThiefV1() throws -> String { try directory() + "/text-input-thief-v1" }

    private static func directory() throws -> String {
        buildLock.lock()
        defer { buildLock.unlock() }
        if let built { return try built.get() }
        let result = Result { try build() }.mapError { error in
            (error as? CompositorError) ?? CompositorError.didNotStart("\(error)")
        }
        built = result
        return try result.get()
    }

    private static func build() throws -> String {
        let root = PrivateCompositor.packageRoot.path
        let sources = root + "/Tests/InputMethods"
        let directory = try HostileCompositor.makeTemporaryDirectory(prefix: "damask-input-methods")
        let protocols = [
            ("input-method-unstable-v2", "\(root)/protocols/input-method-unstable-v2.xml"),
            ("virtual-keyboard-unstable-v1", "\(sources)/virtual-keyboard-unstable-v1.xml"),
            ("text-input-unstable-v1", "\(root)/protocols/text-input-unstable-v1.xml"),
        ]
        var command = "set -e; cd '\(directory)'; "
        for (name, xml) in protocols {
            command += "wayland-scanner client-header '\(xml)' \(name)-client-protocol.h; "
            command += "wayland-scanner private-code '\(xml)' \(name)-protocol.c; "
        }
        command += "gcc -Wall -Wextra -Werror -I. -o scripted-input-method-v2 '\(sources)/scripted-input-method-v2.c' "
            + "input-method-unstable-v2-protocol.c $(pkg-config --cflags --libs wayland-client); "
        command += "gcc -Wall -Wextra -Werror -I. -o virtual-keyboard '\(sources)/virtual-keyboard.c' "
            + "virtual-keyboard-unstable-v1-protocol.c $(pkg-config --cflags --libs wayland-client xkbcommon); "
        command += "gcc -Wall -Wextra -Werror -I. -o text-input-thief-v1 '\(sources)/text-input-thief-v1.c' "
            + "text-input-unstable-v1-protocol.c $(pkg-config --cflags --libs wayland-client)"
        let result = try TestProcess.run("/bin/sh", ["-c", command], timeout: 120)
        guard result.status == 0 else {
            throw CompositorError.didNotStart("building Tests/InputMethods: \(result.output)")
        }
        return directory
    }
}
