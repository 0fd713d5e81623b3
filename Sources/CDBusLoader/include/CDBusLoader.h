#pragma once
// CDBusLoader has no API of its own: it defines libdbus-1's `dbus_*` functions that
// DamaskAccessibility calls (declared by CDBus's <dbus/dbus.h>) and opens the library on the
// first call; see loader.c.
