"""A GTK 4 window with one entry, for Damask's input-method tests under sway.

GTK 4 speaks text-input-unstable-v3, so this checks the test harness (sway, the scripted
input method, Fcitx 5, the virtual keyboard) against a toolkit that already works. It
prints one line per change on stdout: "text TEXT" when the entry's text changes and
"preedit TEXT" when its preedit does (newlines as \\n). Run with Debian's /usr/bin/python3
(python3-gi, gir1.2-gtk-4.0) and GDK_BACKEND=wayland.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402


def say(kind, text):
    print(kind, text.replace("\\", "\\\\").replace("\n", "\\n"), flush=True)


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="gtk4-entry")
    entry = Gtk.Entry()
    entry.connect("changed", lambda e: say("text", e.get_text()))
    entry.get_delegate().connect("preedit-changed", lambda _, preedit: say("preedit", preedit))
    window.set_child(entry)
    window.present()
    print("shown", flush=True)


app = Gtk.Application(application_id="org.damask.GtkEntry")
app.connect("activate", activate)
sys.exit(app.run([]))
