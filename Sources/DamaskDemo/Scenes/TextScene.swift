import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `text` scene: an editable text field whose blinking cursor damages only itself, and
/// one sentence from each seed document in its own language (Korean, Chinese, Bengali,
/// Indonesian) plus Arabic and Hebrew lines, each labelled with the fonts fontconfig chose
/// for it.
///
/// Main-actor.
final class TextScene: DemoScene {
    /// The field.
    let textField: TextField
    private let hintLabel: Label
    /// Per language: the caption naming it and its fonts, and the sentence.
    private(set) var languageLabels: [(caption: Label, sentence: Label)] = []

    /// The sentences shown, by language (the first four from the seed documents).
    static let sentences: [(language: String, text: String)] = [
        ("Korean", "UIView를 강제로 다시 그리는 가장 강력한 방법은 무엇입니까?"),
        ("Chinese", "我們也可以直接用Core Graphics直接繪制寄宿圖。"),
        ("Bengali", "setNeedsDisplay() একটি UIView মেথড যা সিস্টেমকে সংকেত দেয়।"),
        ("Indonesian", "Sistem secara otomatis memanggil draw(_:) dalam skenario tertentu."),
        ("Arabic", "مرحبا بالعالم: يرسم Damask النص من اليمين إلى اليسار منذ 2026."),
        ("Hebrew", "שלום עולם: Damask מצייר 6 שפות בשורה אחת."),
    ]
    /// The sentences' font.
    static let sentenceFont = Font.system(size: 15)

    /// The Debian package `scripts/setup` installs for a language's script.
    static let fontPackages = [
        "Korean": "fonts-nanum", "Chinese": "fonts-wqy-microhei", "Bengali": "fonts-lohit-beng-bengali",
        "Emoji": "fonts-noto-color-emoji",
    ]

    /// What `--help` reports fonts for: the scene's sentences, and emoji (skin tone, flag,
    /// ZWJ family), which the field takes when pasted.
    static let reportedSamples = sentences + [("Emoji", "👍🏽 🇰🇷 👨\u{200D}👩\u{200D}👧")]

    /// What `--help` prints about fonts: per language of the text scene (and emoji), the
    /// faces fontconfig chose on this machine, and for a script no installed font has,
    /// that it is drawn as boxes and which package provides one.
    static var fontReport: String {
        var lines = ["Fonts (fontconfig on this machine; the text scene's sentences, sans-serif):"]
        for (language, text) in reportedSamples {
            let faces = sentenceFont.faceNames(for: text)
            let missing = sentenceFont.missingCharacterCount(in: text)
            var line = "  \(language): \(faces.joined(separator: ", "))"
            if missing > 0 {
                let package = fontPackages[language] ?? "fonts-dejavu-core"
                line += " — \(missing) characters have no font and are drawn as boxes (install \(package))"
            }
            lines.append(line)
        }
        lines.append(
            "  Other scripts: the first installed font that has them (fontconfig's order); a character no font has is a box"
                + " (e.g. Thai: install fonts-thai-tlwg; Devanagari: fonts-lohit-deva)")
        return lines.joined(separator: "\n")
    }

    init(environment: DemoEnvironment) {
        textField = TextField(frame: CGRect(x: DemoStyle.margin, y: 160, width: 420, height: 40), text: "")
        hintLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 214, width: 572, height: 54), font: DemoStyle.captionFont,
            role: .secondaryText)
        super.init(
            name: "text", sidebarTitle: "Text", title: "Text: a field and six languages",
            summary: "Click the field and type (any xkb layout: Russian, Greek, Arabic, Hebrew…). A blink\n"
                + "invalidates only the cursor; typing, from the cursor on. Escape leaves the field.",
            environment: environment)
        textField.accessibilityLabel = "Text field"
        addSubview(textField)
        addSubview(hintLabel)
        hintLabel.text = "Press S (outside the field) for the statistics overlay: a blink damages\n"
            + "\(Int(textField.cursorRect.width)) × \(Int(textField.cursorRect.height)) points. "
            + "The cursor stops blinking after \(TextField.maximumBlinks) blinks without typing."
        var top: CGFloat = 280
        for (language, text) in Self.sentences {
            let fonts = Self.sentenceFont.faceNames(for: text).joined(separator: ", ")
            let caption = Label.scene(
                frame: CGRect(x: DemoStyle.margin, y: top, width: 572, height: 16),
                text: "\(language) — \(fonts)", font: DemoStyle.captionFont, role: .secondaryText)
            let sentence = Label.scene(
                frame: CGRect(x: DemoStyle.margin, y: top + 16, width: 572, height: 24), text: text,
                font: Self.sentenceFont)
            addSubview(caption)
            addSubview(sentence)
            languageLabels.append((caption, sentence))
            top += 44
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        // The field keeps its 420 points where the scene has room, and narrows with a narrow
        // window so that its right border and the caret stay in view.
        let width = max(60, min(420, bounds.width - 2 * DemoStyle.margin))
        if textField.frame.width != width { textField.frame.size.width = width }
    }

    override func sceneWillDisappear() {
        super.sceneWillDisappear()
        textField.resignFirstResponder()
    }
}
