#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import.
static inline void (*fairfuel_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }

#include "counting_vfs.h"
