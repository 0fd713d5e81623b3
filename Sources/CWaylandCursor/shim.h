#pragma once
#include <wayland-cursor.h>
