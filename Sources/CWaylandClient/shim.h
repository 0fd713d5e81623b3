#pragma once
#include <wayland-client.h>
