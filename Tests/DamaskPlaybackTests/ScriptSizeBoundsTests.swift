import DamaskPlayback
import Testing

/// The bounds of `size WIDTHxHEIGHT`, at their edges. Written for the mutant of
/// scripts/mutants.txt that accepted 16,385 pixels a side, which no test caught (the error
/// tests stopped at 0).
@Suite("Script size bounds", .timeLimit(.minutes(5)))
struct ScriptSizeBoundsTests {
    @Test("size accepts 1 and 16384 a side and refuses 0 and 16385, naming the range")
    func sizeBoundsAtTheEdges() {
        let parser = ScriptParser()
        for text in ["size 1x1", "size 16384x16384", "size 16384x1"] {
            #expect((try? parser.parse(text, file: "s.damask")) != nil, "\(text)")
        }
        for text in ["size 16385x100", "size 100x16385", "size 0x5"] {
            var message = ""
            do { _ = try parser.parse(text, file: "s.damask") } catch { message = "\(error)" }
            #expect(message.contains("out of range 1…16384 per side"), "\(text): \(message)")
        }
    }
}
