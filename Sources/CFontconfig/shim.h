#pragma once
#include <fontconfig/fontconfig.h>
