#pragma once
// cairo, for damask-bench's baseline figures only: no library target depends on it.
#include <cairo.h>
