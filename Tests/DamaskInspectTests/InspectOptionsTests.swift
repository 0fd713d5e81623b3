import DamaskInspect
import Testing

/// The command line of damask-inspect as a user types it.
@Suite("damask-inspect's command line", .timeLimit(.minutes(5)))
struct InspectOptionsTests {
    @Test("--log=FILE, --evidence=DIR and --fail-over=RATIO mean what the option and its value as two words mean")
    func optionsTakeTheirValueAfterAnEqualsSign() throws {
        let joined = try InspectOptions(arguments: ["--log=/tmp/a=b.jsonl", "--evidence=shots", "--fail-over=2.5", "--", "foot", "--log=x"])
        let apart = try InspectOptions(arguments: ["--log", "/tmp/a=b.jsonl", "--evidence", "shots", "--fail-over", "2.5", "--", "foot", "--log=x"])
        #expect(joined == apart)
        #expect(joined.logPath == "/tmp/a=b.jsonl")
        #expect(joined.command == ["foot", "--log=x"])
    }

    /// The usage error parsing `arguments` throws, as the tool prints it (nil: none).
    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try InspectOptions(arguments: arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("An empty value (--log= or --log '') is a usage error naming the option; an unknown --name=value names the whole argument")
    func emptyValuesAndUnknownOptionsAreUsageErrors() {
        #expect(Self.usageError(["--log=", "--", "true"]) == "usage: --log needs a value")
        #expect(Self.usageError(["--evidence", "", "--", "true"]) == "usage: --evidence needs a value")
        #expect(Self.usageError(["--fail-over="]) == "usage: --fail-over needs a value")
        #expect(Self.usageError(["--lag=x", "--", "true"]) == "usage: unknown option '--lag=x'")
    }
}
