#pragma once
#include <pixman.h>
