/// One change to a text's UTF-8 bytes: `removedLength` bytes at `offset` replaced by
/// `insertedLength` new ones. What ``EditableText`` reports after each edit so that a
/// ``TextLayout`` can lay out again only what changed.
public struct TextSplice: Equatable, Sendable {
    /// Where the change starts, in UTF-8 bytes from the text's start.
    public var offset: Int
    /// How many bytes were removed there.
    public var removedLength: Int
    /// How many bytes were inserted in their place.
    public var insertedLength: Int

    /// Creates a splice.
    public init(offset: Int, removedLength: Int, insertedLength: Int) {
        self.offset = offset
        self.removedLength = removedLength
        self.insertedLength = insertedLength
    }

    /// One splice doing what this one and then `next` (on its result) do: the union of
    /// the bytes they touch.
    public func followed(by next: TextSplice) -> TextSplice {
        let lower = min(offset, next.offset)
        // The end of what either touched, in the text between the two.
        let upper = max(offset + insertedLength, next.offset + next.removedLength)
        return TextSplice(
            offset: lower, removedLength: upper - (insertedLength - removedLength) - lower,
            insertedLength: upper + (next.insertedLength - next.removedLength) - lower)
    }
}
