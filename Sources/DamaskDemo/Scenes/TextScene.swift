import DamaskGraphics
import DamaskViews
import Foundation

/// The `text` scene: an editable text field whose blinking cursor damages only itself.
///
/// Main-actor.
final class TextScene: DemoScene {
    /// The field.
    let textField: TextFieldView
    private let hintLabel: LabelView

    init(environment: DemoEnvironment) {
        textField = TextFieldView(frame: CGRect(x: DemoStyle.margin, y: 160, width: 420, height: 40), text: "")
        hintLabel = LabelView(
            frame: CGRect(x: DemoStyle.margin, y: 214, width: 572, height: 54), font: DemoStyle.captionFont,
            color: DemoStyle.secondaryText)
        super.init(
            name: "text", sidebarTitle: "Text", title: "A text field",
            summary: "Click the field and type. Each blink of the cursor invalidates only the cursor;\n"
                + "typing invalidates from the cursor to the end of the text. Escape leaves the field.",
            environment: environment)
        addSubview(textField)
        addSubview(hintLabel)
        hintLabel.text = "Press S (outside the field) for the statistics overlay: a blink damages\n"
            + "\(Int(textField.cursorRect.width)) × \(Int(textField.cursorRect.height)) points. "
            + "The cursor stops blinking after \(TextFieldView.maximumBlinks) blinks without typing."
        textField.onEndEditing = { [weak self] in
            self?.window?.contentView.becomeFirstResponder()
        }
    }

    override func sceneWillDisappear() {
        super.sceneWillDisappear()
        textField.resignFirstResponder()
    }
}
