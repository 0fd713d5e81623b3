import Foundation
import Testing

@testable import DamaskViews

/// Wrapping millisecond timestamps (frame callbacks count from an arbitrary start and wrap
/// after 49.7 days). Written for the mutant of scripts/mutants.txt that compared them as
/// plain integers, which no test caught: no test crossed the wrap.
@Suite("Frame timestamps across the wrap", .timeLimit(.minutes(5)))
struct FrameTimestampTests {
    @Test("A timestamp just before the wrap precedes one just after it, and not the other way round")
    func precedesAcrossTheWrap() {
        #expect(timestamp(0xFFFF_FFF0, precedes: 0x10))
        #expect(!timestamp(0x10, precedes: 0xFFFF_FFF0))
        #expect(timestamp(5, precedes: 6) && !timestamp(6, precedes: 5) && !timestamp(7, precedes: 7))
    }

    @Test("The milliseconds between two frames across the wrap are the small difference; a step back is 0")
    func millisecondsAcrossTheWrap() {
        #expect(milliseconds(from: 0xFFFF_FFF0, to: 0x10) == 0x20)
        #expect(milliseconds(from: 0x10, to: 0xFFFF_FFF0) == 0, "a step back is no time, not 49 days")
        #expect(milliseconds(from: 100, to: 116) == 16)
    }
}
