import DamaskGraphics
import DamaskViews
import Foundation

/// One command of an input script, parsed.
///
/// Coordinates, sizes and rectangles are logical window points from the top-left of the
/// content area; the player converts them to buffer pixels (× scale) where it compares pixels
/// or damage.
public enum ScriptCommand: Equatable, Sendable {
    /// `size WxH`: resize the window.
    case size(width: Int, height: Int)
    /// `scale S`: the output scale (offscreen surfaces only).
    case scale(Double)
    /// `layout NAME[:VARIANT]`: the keyboard layout for the following keyboard commands.
    case layout(KeyboardLayout)
    /// `move X Y`: the pointer moves to a point.
    case move(CGPoint)
    /// `press [BUTTON]`: a button goes down where the pointer is.
    case press(ScriptButton)
    /// `release [BUTTON]`: a button goes up where the pointer is.
    case release(ScriptButton)
    /// `click X Y [BUTTON] [double|triple]`: move, then press and release `count` times
    /// (1…3), the presses carrying click counts 1, 2, 3.
    case click(CGPoint, button: ScriptButton, count: Int)
    /// `drag X1 Y1 X2 Y2 [steps N]`: move, press, N moves along the line, release.
    case drag(from: CGPoint, to: CGPoint, steps: Int)
    /// `scroll DX DY`: wheel steps where the pointer is; positive DY scrolls down.
    case scroll(dx: Int, dy: Int)
    /// `wheel DX DY`: a high-resolution wheel where the pointer is, in 120ths of a detent
    /// (`wl_pointer.axis_value120`); positive DY scrolls down.
    case wheel(dx: Int, dy: Int)
    /// `touchpad DX DY`: two fingers on a touchpad scroll DX, DY points where the pointer is.
    case touchpadScroll(dx: Double, dy: Double)
    /// `touchpad end`: the fingers lift (`axis_stop`); a kinetic scroll may follow.
    case touchpadEnd
    /// `key CHORD`: press and release a key with modifiers, e.g. `ctrl+shift+a`.
    case key(KeyChord)
    /// `keydown KEYSYM`: press one key and keep it down.
    case keyDown(String)
    /// `keyup KEYSYM`: release one key.
    case keyUp(String)
    /// `type "TEXT"`: type text the way a person would on the current layout.
    case type(String)
    /// `touch down ID X Y`: a touch point begins.
    case touchDown(id: Int32, at: CGPoint)
    /// `touch move ID X Y`: a touch point moves.
    case touchMove(id: Int32, to: CGPoint)
    /// `touch up ID`: a touch point ends.
    case touchUp(id: Int32)
    /// `wait …`: time, frames or idleness.
    case wait(WaitCondition)
    /// `screenshot PATH`: write the presented buffer as PNG.
    case screenshot(path: String)
    /// `expect pixel X Y #rrggbb [±N]`: one pixel's colour, within a tolerance per channel.
    case expectPixel(CGPoint, color: PixelColor, tolerance: Int)
    /// `expect image PATH [±N]`: the whole presented buffer against a reference PNG.
    case expectImage(path: String, tolerance: Int)
    /// `expect damage within R…`: all damage since the last check lies inside the rectangles.
    case expectDamageWithin([CGRect])
    /// `expect damage exactly R…`: the damage since the last check is exactly the rectangles.
    case expectDamageExactly([CGRect])
    /// `expect damage within|exactly at scale S R…`: the damage check, with the rectangles in
    /// buffer pixels, made only when the window's scale is `scale`; at other scales the line
    /// is passed over and the damage keeps accumulating for the next check. For damage that
    /// depends on rasterizing at the scale (glyph ink), where points × scale cannot state it.
    case expectDamageAtScale(CGFloat, exactly: Bool, [CGRect])
    /// `expect no-damage`: nothing was damaged since the last check.
    case expectNoDamage
    /// `expect draws N`: the number of `draw` calls since the last check.
    case expectDraws(Int)
    /// `expect text "TEXT"`: the text of the window's first responder (a ``TextInput``).
    case expectText(String)
    /// `expect clipboard "TEXT"` / `expect primary "TEXT"`: the text the window's clipboard
    /// or primary selection holds, as a paste in this window would read it.
    case expectPasteboard(PasteboardKind, text: String)
    /// `ime preedit "TEXT" [cursor BYTES|hidden]`, `ime commit "TEXT"`,
    /// `ime delete before BYTES after BYTES`: what an input method sends, handed to the
    /// window's first responder (a ``TextInput``) as one update.
    case inputMethod(InputMethodUpdate)
    /// `ime language "TAG"`, `ime direction auto|ltr|rtl`: what an input method says about
    /// its text (zwp_text_input_v1's `language`, `text_direction`), told to the window's
    /// first responder (a ``TextInput``).
    case inputMethodSetting(InputMethodSetting)
    /// A command registered by the application (see `ScriptCommandRegistry`).
    case custom(CustomInvocation)
}
