#include "shims.h"
int fairfuel_shim(void) { return 0; }
