/// What a failed check found: the expected and actual values as text, and for images the
/// PNGs written to show the difference.
struct Mismatch {
    var expected: String
    var actual: String
    var actualImagePath: String?
    var differenceImagePath: String?
}
