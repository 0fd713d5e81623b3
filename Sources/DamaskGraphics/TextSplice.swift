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
}
