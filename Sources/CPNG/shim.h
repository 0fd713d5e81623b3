#pragma once
#include <png.h>
