/// An XKB layout name with an optional variant, written `layout` or `layout:variant`.
///
/// Examples: `us` (the default), `de`, `us:intl`, `fr:bepo`.
public struct KeyboardLayout: Hashable, Sendable, CustomStringConvertible {
    /// The XKB layout name, e.g. `de`.
    public var layout: String
    /// The XKB variant name, e.g. `intl`; empty for the layout's basic variant.
    public var variant: String

    /// Creates a layout from its parts.
    public init(layout: String, variant: String = "") {
        self.layout = layout
        self.variant = variant
    }

    /// Parses `layout` or `layout:variant`; nil if a part is empty or has characters other
    /// than ASCII letters, digits, `_` and `-`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        func isName(_ part: Substring) -> Bool {
            !part.isEmpty && part.count <= 64
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_"
                            || $0 == "-")
                }
        }
        guard parts.allSatisfy(isName) else { return nil }
        self.layout = String(parts[0])
        self.variant = parts.count == 2 ? String(parts[1]) : ""
    }

    /// The US QWERTY layout, the default.
    public static let us = KeyboardLayout(layout: "us")

    /// `layout` or `layout:variant`.
    public var description: String { variant.isEmpty ? layout : "\(layout):\(variant)" }
}
