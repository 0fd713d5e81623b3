/// Whether text controls blink their caret: one setting for the whole process, on by default.
///
/// Off, ``TextField`` and ``TextView`` keep the caret shown and start no blink timer, so a
/// focused field costs no frame at all until the next key. Applications turn it off for
/// people who find blinking distracting (GTK's `gtk-cursor-blink`), and tests that wait for
/// a still window turn it off so as not to wait for the ``TextField/maximumBlinks`` blinks.
/// A change applies from the next key, click or focus change.
///
/// Main actor only, like the views that read it.
@MainActor
public enum CaretBlinking {
    /// True (the default): the caret blinks every ``TextField/blinkInterval`` ms while a
    /// text control is first responder, then stops after ``TextField/maximumBlinks`` blinks.
    public static var isEnabled = true
}
