/// The application-defined commands a parser accepts and a player runs.
public struct ScriptCommandRegistry: Sendable {
    private var definitions: [String: ScriptCommandDefinition] = [:]

    /// The names of the built-in commands, which cannot be registered.
    public static let builtinNames: Set<String> = [
        "size", "scale", "layout", "move", "press", "release", "click", "drag", "scroll", "key",
        "keydown", "keyup", "type", "touch", "wait", "screenshot", "expect", "ime", "wheel", "touchpad",
    ]

    /// Creates a registry holding `definitions`.
    public init(_ definitions: [ScriptCommandDefinition] = []) {
        for definition in definitions { register(definition) }
    }

    /// Adds (or replaces) a command. Registering a built-in name, or a name that is empty or
    /// contains spaces, `#` or quotes, is a programming error and traps.
    public mutating func register(_ definition: ScriptCommandDefinition) {
        precondition(
            !Self.builtinNames.contains(definition.name), "'\(definition.name)' is built in")
        precondition(
            !definition.name.isEmpty
                && !definition.name.unicodeScalars.contains(where: {
                    ScriptLexer.isSpace($0) || $0 == "#" || $0 == "\"" || $0 == "\n"
                }),
            "bad command name '\(definition.name)'")
        definitions[definition.name] = definition
    }

    /// The command registered as `name`, if any.
    public func definition(named name: String) -> ScriptCommandDefinition? {
        definitions[name]
    }

    /// The registered names, sorted.
    public var names: [String] { definitions.keys.sorted() }
}
