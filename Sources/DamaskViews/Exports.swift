// What a `draw(_:)` needs comes with `import DamaskViews`, as `import UIKit` brings Core
// Graphics and Foundation: the graphics context, colours, paths, fonts and bitmaps of
// DamaskGraphics, and Foundation's CGRect, CGPoint and CGSize.
@_exported import DamaskGraphics
@_exported import Foundation
