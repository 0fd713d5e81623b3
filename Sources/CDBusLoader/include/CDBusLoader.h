#pragma once
#include <stdbool.h>

/// Whether libdbus-1 is loaded, or can be now (it is opened on the first call of any
/// `dbus_*` function; see loader.c). Never loads it when nothing asked for D-Bus yet
/// unless `load` is true.
bool damask_dbus_library_available(bool load);
