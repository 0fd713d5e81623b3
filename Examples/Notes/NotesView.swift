import DamaskControls
import DamaskGraphics
import DamaskViews

/// The notes window's content: the list of notes on the left, the selected note's text on
/// the right, and along the bottom New, Delete and a count.
///
/// The view owns the notes (a plain array; nothing is saved) and keeps the three views in
/// step with them: typing in the text view renames the note's row (only that cell redraws),
/// selecting a row shows its note, New adds an empty note and puts the caret in it, Delete
/// removes the selected note and selects its neighbour. Tab moves keyboard focus through
/// the list, the text view and the buttons (the window's key-view loop).
///
/// Invariant (checked after every change in debug builds): the list selects a row exactly
/// when there is a note, the text view shows the selected note's text, and Delete is
/// enabled exactly when a note is selected.
final class NotesView: View, ListViewDataSource, ListViewDelegate {
    /// The notes, in list order.
    private(set) var notes: [Note]
    /// The list of titles.
    let listView = ListView()
    /// The selected note's text.
    let textView = TextView()
    /// Adds a note.
    let newButton = Button(title: "New")
    /// Removes the selected note.
    let deleteButton = Button(title: "Delete")
    /// "N notes".
    let countLabel = Label(text: "")

    /// The reuse identifier of the list's cells.
    private static let cellIdentifier = "note"
    /// The bottom bar's height and the margins around it.
    private static let barHeight: CGFloat = 48
    private static let margin: CGFloat = 8
    /// The list's share of the width.
    private static let listWidth: CGFloat = 220

    /// Creates the view showing `notes`, the first one selected.
    init(frame: CGRect, notes: [Note]) {
        self.notes = notes
        super.init(frame: frame)
        backgroundColor = Color(red: 0.93, green: 0.94, blue: 0.96)
        listView.rowHeight = 32
        listView.register(ListViewCell.self, forCellReuseIdentifier: Self.cellIdentifier)
        listView.dataSource = self
        listView.listDelegate = self
        textView.onTextChange = { [weak self] textView in self?.textDidChange(textView.text) }
        newButton.addAction(for: .primaryActionTriggered) { [weak self] _ in self?.addNote() }
        deleteButton.addAction(for: .primaryActionTriggered) { [weak self] _ in self?.deleteSelectedNote() }
        // Tab order follows the order the views are added in: list, text, New, Delete.
        for view in [listView, textView, newButton, deleteButton, countLabel] as [View] { addSubview(view) }
        listView.reloadData()
        select(notes.isEmpty ? nil : 0)
    }

    // MARK: Layout

    override func layoutSubviews() {
        super.layoutSubviews()
        let margin = Self.margin, bar = Self.barHeight
        let contentHeight = max(0, bounds.height - bar)
        listView.frame = CGRect(x: 0, y: 0, width: Self.listWidth, height: contentHeight)
        textView.frame = CGRect(
            x: Self.listWidth + margin, y: margin,
            width: max(0, bounds.width - Self.listWidth - 2 * margin), height: max(0, contentHeight - margin))
        var x = margin
        for button in [newButton, deleteButton] {
            let size = button.intrinsicContentSize
            button.frame = CGRect(x: x, y: contentHeight + (bar - size.height) / 2, width: size.width, height: size.height)
            x += size.width + margin
        }
        let labelSize = countLabel.intrinsicContentSize
        countLabel.frame = CGRect(
            x: bounds.width - margin - labelSize.width, y: contentHeight + (bar - labelSize.height) / 2,
            width: labelSize.width, height: labelSize.height)
    }

    // MARK: Editing

    /// The index of the selected note, if any.
    var selectedIndex: Int? { listView.selectedRow }

    /// Adds an empty note at the end, selects it and puts the caret in its text.
    func addNote() {
        notes.append(Note(text: ""))
        listView.reloadData()
        select(notes.count - 1)
        _ = textView.becomeFirstResponder()
    }

    /// Removes the selected note and selects the one that takes its place (or the one
    /// before it when it was the last).
    func deleteSelectedNote() {
        guard let index = selectedIndex else { return }
        notes.remove(at: index)
        listView.reloadData()
        select(notes.isEmpty ? nil : min(index, notes.count - 1))
    }

    /// Selects the note at `index` (nil: none) and shows its text.
    private func select(_ index: Int?) {
        listView.selectRow(index)
        showSelectedNote()
    }

    /// Puts the selected note's text in the text view and brings the count and Delete up
    /// to date.
    private func showSelectedNote() {
        let text = selectedIndex.map { notes[$0].text } ?? ""
        if textView.text != text { textView.text = text }
        textView.isEditable = selectedIndex != nil
        deleteButton.isEnabled = selectedIndex != nil
        let count = notes.count == 1 ? "1 note" : "\(notes.count) notes"
        if countLabel.text != count {
            countLabel.text = count
            setNeedsLayout()
        }
        assertConsistent()
    }

    /// The user changed the selected note's text: keep it, and retitle its row.
    private func textDidChange(_ text: String) {
        guard let index = selectedIndex else { return }
        notes[index].text = text
        listView.cellForRow(at: index)?.text = notes[index].title
        assertConsistent()
    }

    private func assertConsistent() {
        assert((selectedIndex != nil) == !notes.isEmpty, "a row is selected exactly when there are notes")
        assert(textView.text == (selectedIndex.map { notes[$0].text } ?? ""), "the text view shows the selected note")
        assert(deleteButton.isEnabled == (selectedIndex != nil), "Delete is enabled exactly when a note is selected")
    }

    // MARK: ListViewDataSource, ListViewDelegate

    func numberOfRows(in listView: ListView) -> Int { notes.count }

    func listView(_ listView: ListView, cellForRow row: Int) -> ListViewCell {
        let cell = listView.dequeueReusableCell(withIdentifier: Self.cellIdentifier)
        cell.text = notes[row].title
        return cell
    }

    func listView(_ listView: ListView, didSelectRow row: Int) {
        showSelectedNote()
    }
}
