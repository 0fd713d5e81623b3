#include "CDamaskShims.h"
