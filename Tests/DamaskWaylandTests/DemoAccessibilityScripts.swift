import Foundation

/// The programs the accessibility tests run from outside the application: a walker of the
/// AT-SPI tree written with python3-pyatspi (what Orca and Accerciser are built on), and a
/// GTK 4 window of content like the demo's, walked the same way as a reference.
enum DemoAccessibilityScripts {
    /// What every walker starts with: pyatspi and GLib, `pump(seconds, until)` (runs GLib's
    /// loop so events arrive), `find_app(name)`, `states(a)`, `find(a, pred)` (depth first)
    /// and `emit(kind, **values)` (one JSON line).
    static let library = #"""
import json, sys, time
import pyatspi
from gi.repository import GLib

def pump(seconds, until=None):
    deadline = time.monotonic() + seconds
    ctx = GLib.MainContext.default()
    while time.monotonic() < deadline:
        while ctx.pending():
            ctx.iteration(False)
        if until and until():
            return True
        time.sleep(0.02)
    return bool(until and until())

def find_app(name, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        desk = pyatspi.Registry.getDesktop(0)
        for app in desk:
            if app is not None and app.name == name:
                return app
        pump(0.1)
    return None

def states(a):
    return sorted(pyatspi.stateToString(s) for s in a.getState().getStates())

def find(a, pred):
    if pred(a):
        return a
    for i in range(a.childCount):
        c = a.getChildAtIndex(i)
        if c is not None:
            r = find(c, pred)
            if r is not None:
                return r
    return None

def emit(kind, **values):
    values["kind"] = kind
    print(json.dumps(values), flush=True)

"""#

    /// `walker.py damask NAME`: finds the application, presses every row of its "Scenes"
    /// list in turn and prints each scene's subtree (one JSON object per line, `kind` says
    /// which); then focuses, edits and reads the text field and prints the events seen.
    /// `walker.py gtk NAME`: prints the application's whole tree.
    static let walker = library + #"""
events = []
def on_event(e):
    try:
        src = e.source
        events.append({"type": e.type, "source": src.name if src else None,
                       "role": src.getRoleName() if src else None,
                       "detail1": e.detail1, "any": e.any_data if isinstance(e.any_data, (str, int, float)) else None})
    except Exception as ex:
        events.append({"type": e.type, "error": str(ex)})

for kind in ["focus:", "object:state-changed:focused", "object:text-changed", "object:text-caret-moved",
             "object:children-changed", "object:property-change:accessible-value", "object:bounds-changed",
             "object:state-changed:selected", "object:state-changed:checked"]:
    pyatspi.Registry.registerEventListener(on_event, kind)

def node(a):
    d = {"role": a.getRoleName(), "name": a.name, "states": states(a)}
    try:
        v = a.queryValue(); d["value"] = v.currentValue; d["max"] = v.maximumValue
    except NotImplementedError:
        pass
    try:
        act = a.queryAction(); d["actions"] = [act.getName(i) for i in range(act.nActions)]
    except NotImplementedError:
        pass
    try:
        t = a.queryText(); d["text"] = t.getText(0, -1)
    except NotImplementedError:
        pass
    try:
        c = a.queryComponent(); x, y, w, h = c.getExtents(pyatspi.WINDOW_COORDS); d["extents"] = [x, y, w, h]
    except NotImplementedError:
        pass
    return d

def walk(a, depth=0, out=None):
    out = [] if out is None else out
    d = node(a); d["depth"] = depth; out.append(d)
    for i in range(a.childCount):
        c = a.getChildAtIndex(i)
        if c is not None:
            walk(c, depth + 1, out)
    return out

def walk_damask(name):
    app = find_app(name)
    if app is None:
        emit("error", message=f"no application named {name} on the accessibility bus")
        return
    emit("app", name=app.name, children=app.childCount, tree=walk(app))
    lst = find(app, lambda a: a.getRoleName() == "list" and a.name == "Scenes")
    rows = [lst.getChildAtIndex(i) for i in range(lst.childCount)]
    for row in rows:
        title = row.name
        act = row.queryAction()
        press = [i for i in range(act.nActions) if act.getName(i) == "press"]
        act.doAction(press[0])
        ok = pump(15, lambda: find(app, lambda a: a.getRoleName() == "landmark" and
                                   any(a.getChildAtIndex(i) is not None and a.getChildAtIndex(i).getRoleName() == "heading"
                                       for i in range(a.childCount)) and row.getState().contains(pyatspi.STATE_SELECTED)) is not None)
        scene = find(app, lambda a: a.getRoleName() == "landmark")
        tree = walk(scene) if scene else []
        seen = [e["type"] for e in events]
        del events[:]
        # A value and a bounds change, made through the scene's own buttons.
        # A switch turned on: a toggle button, checked afterwards.
        trigger = {"Progress": ("push button", "+ 5%", "object:property-change:accessible-value"),
                   "Content mode": ("push button", "Larger", "object:bounds-changed"),
                   "Controls": ("toggle button", "Turn the activity indicator", "object:state-changed:checked")}.get(title)
        after = None
        if trigger and scene:
            button = find(scene, lambda a: a.getRoleName() == trigger[0] and a.name == trigger[1])
            button.queryAction().doAction(0)
            pump(15, lambda: any(e["type"].startswith(trigger[2]) for e in events))
            seen += [e["type"] + (":%d" % e["detail1"] if e["type"].startswith("object:state-changed") else "") for e in events]
            del events[:]
            after = node(button)
        emit("scene", row=title, switched=ok, tree=tree, events=seen, triggered=after,
             rowSelected=row.getState().contains(pyatspi.STATE_SELECTED))
    # Text scene: press the row again, then read and edit the field.
    text_row = [r for r in rows if r.name == "Text"][0]
    text_row.queryAction().doAction(0)
    pump(15, lambda: find(app, lambda a: a.getRoleName() == "entry") is not None)
    entry = find(app, lambda a: a.getRoleName() == "entry")
    del events[:]
    grabbed = entry.queryComponent().grabFocus()
    pump(10, lambda: any(e["type"].startswith("object:state-changed:focused") and e.get("detail1") == 1 and e.get("role") == "entry" for e in events))
    editable = entry.queryEditableText()
    inserted = editable.insertText(0, "héllo wörld", len("héllo wörld"))
    pump(10, lambda: any(e["type"].startswith("object:text-changed:insert") for e in events))
    text = entry.queryText()
    after_insert = text.getText(0, -1)
    deleted = editable.deleteText(0, 6)
    pump(10, lambda: any(e["type"].startswith("object:text-changed:delete") for e in events))
    after_delete = text.getText(0, -1)
    text.setCaretOffset(2)
    pump(10, lambda: any(e["type"].startswith("object:text-caret-moved") for e in events))
    emit("text", grabbed=grabbed, inserted=inserted, afterInsert=after_insert, deleted=deleted,
         afterDelete=after_delete, caret=text.caretOffset, characterCount=text.characterCount,
         states=states(entry), events=events[:])

def walk_gtk(name):
    app = find_app(name)
    if app is None:
        emit("error", message=f"no application named {name} on the accessibility bus")
        return
    emit("gtk", name=app.name, tree=walk(app))

if __name__ == "__main__":
    mode, name = sys.argv[1], sys.argv[2]
    (walk_damask if mode == "damask" else walk_gtk)(name)
"""#

    /// A GTK 4 window with a list of two rows, a title, a line of text, a progress bar at
    /// 25 %, a button, an entry, a text view, a spinner and a drawing area; prints "ready"
    /// once shown.
    static let gtkReference = #"""
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk, GLib
GLib.set_prgname("gtk4-reference")
app = Gtk.Application(application_id="org.damask.GtkReference")
def activate(app):
    win = Gtk.ApplicationWindow(application=app, title="GTK reference")
    box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
    rows = Gtk.ListBox()
    for title in ["Progress", "Text"]:
        rows.append(Gtk.Label(label=title))
    rows.select_row(rows.get_row_at_index(0))
    box.append(rows)
    scene = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    heading = Gtk.Label(label="Scene title")
    heading.update_property([Gtk.AccessibleProperty.LABEL], ["Scene title"])
    scene.append(heading)
    scene.append(Gtk.Label(label="A line of explanation"))
    bar = Gtk.ProgressBar(fraction=0.25)
    scene.append(bar)
    scene.append(Gtk.Button(label="Animate"))
    entry = Gtk.Entry()
    scene.append(entry)
    notes = Gtk.TextView()
    notes.get_buffer().set_text("Notes in a text view")
    scene.append(notes)
    spinner = Gtk.Spinner(spinning=True)
    scene.append(spinner)
    scene.append(Gtk.DrawingArea(content_width=100, content_height=50))
    box.append(scene)
    win.set_child(box)
    win.present()
    print("ready", flush=True)
app.connect("activate", activate)
app.run([])
"""#

    /// Writes `script` to a new file in `directory`; returns its path.
    static func write(_ script: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try script.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
