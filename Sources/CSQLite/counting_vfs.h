// A VFS shim over SQLite's default (unix) VFS that counts what reaches the disk,
// and, for tests, can play a power cut or a full disk.
//
// - Counting: bytes and calls of xWrite, and xSync calls (each one fsync or
//   fdatasync), per kind of file (main database, WAL, rollback journal, other).
// - hold_unsynced: writes stay in this process's memory until the file is
//   synced (or closed). A SIGKILL then loses exactly what a power cut loses
//   when the disk keeps only what was fsynced.
// - refuse_growth: a write that would make a file longer fails with
//   SQLITE_FULL, as on a full file system; writes inside a file still work.
//
// Header only (CSQLite is a system library module): every function is static,
// and all state lives in the caller's `fairfuel_vfs`, never in globals.
#ifndef FAIRFUEL_COUNTING_VFS_H
#define FAIRFUEL_COUNTING_VFS_H

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum {
    FAIRFUEL_FILE_MAIN_DB = 0,
    FAIRFUEL_FILE_WAL = 1,
    FAIRFUEL_FILE_JOURNAL = 2,
    FAIRFUEL_FILE_OTHER = 3,
    FAIRFUEL_FILE_KINDS = 4
};

/// Counters since registration (or the last reset), per file kind.
typedef struct fairfuel_io_counters {
    sqlite3_uint64 bytes_written[FAIRFUEL_FILE_KINDS];
    sqlite3_uint64 writes[FAIRFUEL_FILE_KINDS];
    sqlite3_uint64 syncs[FAIRFUEL_FILE_KINDS];
    sqlite3_uint64 truncates;
    /// Writes refused with SQLITE_FULL by refuse_growth.
    sqlite3_uint64 refused_writes;
} fairfuel_io_counters;

typedef struct fairfuel_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    fairfuel_io_counters counters;
    int hold_unsynced;
    int refuse_growth;
} fairfuel_vfs;

typedef struct fairfuel_pending_write {
    struct fairfuel_pending_write *next;
    sqlite3_int64 offset;
    int amount;
    unsigned char *data;
} fairfuel_pending_write;

typedef struct fairfuel_file {
    sqlite3_file base;
    fairfuel_vfs *vfs;
    sqlite3_file *real;
    int kind;
    fairfuel_pending_write *head;
    fairfuel_pending_write *tail;
    /// End of the furthest pending write (0 when none).
    sqlite3_int64 pending_end;
} fairfuel_file;

static inline void fairfuel_count(sqlite3_uint64 *counter, sqlite3_uint64 amount) {
    __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED);
}

static inline int fairfuel_flag(const int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

/// Writes the held writes to the real file, in order, and forgets them.
static inline int fairfuel_flush_pending(fairfuel_file *file) {
    int rc = SQLITE_OK;
    fairfuel_pending_write *write = file->head;
    while (write) {
        fairfuel_pending_write *next = write->next;
        if (rc == SQLITE_OK) rc = file->real->pMethods->xWrite(file->real, write->data, write->amount, write->offset);
        sqlite3_free(write);
        write = next;
    }
    file->head = file->tail = NULL;
    file->pending_end = 0;
    return rc;
}

static inline int fairfuel_file_size(fairfuel_file *file, sqlite3_int64 *size) {
    int rc = file->real->pMethods->xFileSize(file->real, size);
    if (rc == SQLITE_OK && file->pending_end > *size) *size = file->pending_end;
    return rc;
}

static inline int fairfuel_close(sqlite3_file *f) {
    fairfuel_file *file = (fairfuel_file *)f;
    int rc = fairfuel_flush_pending(file);
    int closed = file->real->pMethods->xClose(file->real);
    return rc == SQLITE_OK ? closed : rc;
}

static inline int fairfuel_read(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    fairfuel_file *file = (fairfuel_file *)f;
    int rc = file->real->pMethods->xRead(file->real, buffer, amount, offset);
    if (file->head == NULL) return rc;
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    for (fairfuel_pending_write *write = file->head; write; write = write->next) {
        sqlite3_int64 start = offset > write->offset ? offset : write->offset;
        sqlite3_int64 end = offset + amount < write->offset + write->amount ? offset + amount : write->offset + write->amount;
        if (start < end) memcpy((unsigned char *)buffer + (start - offset), write->data + (start - write->offset), (size_t)(end - start));
    }
    sqlite3_int64 size = 0;
    int sized = fairfuel_file_size(file, &size);
    if (sized != SQLITE_OK) return sized;
    return offset + amount <= size ? SQLITE_OK : SQLITE_IOERR_SHORT_READ;
}

static inline int fairfuel_write(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    fairfuel_file *file = (fairfuel_file *)f;
    fairfuel_vfs *vfs = file->vfs;
    if (fairfuel_flag(&vfs->refuse_growth)) {
        sqlite3_int64 size = 0;
        int rc = fairfuel_file_size(file, &size);
        if (rc != SQLITE_OK) return rc;
        if (offset + amount > size) {
            fairfuel_count(&vfs->counters.refused_writes, 1);
            return SQLITE_FULL;
        }
    }
    fairfuel_count(&vfs->counters.bytes_written[file->kind], (sqlite3_uint64)amount);
    fairfuel_count(&vfs->counters.writes[file->kind], 1);
    if (!fairfuel_flag(&vfs->hold_unsynced)) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    fairfuel_pending_write *write = (fairfuel_pending_write *)sqlite3_malloc64(sizeof(fairfuel_pending_write) + (sqlite3_uint64)amount);
    if (write == NULL) return SQLITE_NOMEM;
    write->next = NULL;
    write->offset = offset;
    write->amount = amount;
    write->data = (unsigned char *)(write + 1);
    memcpy(write->data, data, (size_t)amount);
    if (file->tail) file->tail->next = write; else file->head = write;
    file->tail = write;
    if (offset + amount > file->pending_end) file->pending_end = offset + amount;
    return SQLITE_OK;
}

static inline int fairfuel_truncate(sqlite3_file *f, sqlite3_int64 size) {
    fairfuel_file *file = (fairfuel_file *)f;
    int rc = fairfuel_flush_pending(file);
    if (rc != SQLITE_OK) return rc;
    fairfuel_count(&file->vfs->counters.truncates, 1);
    return file->real->pMethods->xTruncate(file->real, size);
}

static inline int fairfuel_sync(sqlite3_file *f, int flags) {
    fairfuel_file *file = (fairfuel_file *)f;
    int rc = fairfuel_flush_pending(file);
    if (rc != SQLITE_OK) return rc;
    fairfuel_count(&file->vfs->counters.syncs[file->kind], 1);
    return file->real->pMethods->xSync(file->real, flags);
}

static inline int fairfuel_size(sqlite3_file *f, sqlite3_int64 *size) {
    return fairfuel_file_size((fairfuel_file *)f, size);
}

static inline int fairfuel_lock(sqlite3_file *f, int level) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xLock(file->real, level);
}

static inline int fairfuel_unlock(sqlite3_file *f, int level) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xUnlock(file->real, level);
}

static inline int fairfuel_check_reserved(sqlite3_file *f, int *out) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static inline int fairfuel_file_control(sqlite3_file *f, int op, void *argument) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static inline int fairfuel_sector_size(sqlite3_file *f) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xSectorSize(file->real);
}

static inline int fairfuel_device_characteristics(sqlite3_file *f) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static inline int fairfuel_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static inline int fairfuel_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static inline void fairfuel_shm_barrier(sqlite3_file *f) {
    fairfuel_file *file = (fairfuel_file *)f;
    file->real->pMethods->xShmBarrier(file->real);
}

static inline int fairfuel_shm_unmap(sqlite3_file *f, int deleteFlag) {
    fairfuel_file *file = (fairfuel_file *)f;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

// Version 2: no xFetch, so SQLite never reads through a memory map that would bypass held writes.
static const sqlite3_io_methods fairfuel_io_methods = {
    2,
    fairfuel_close, fairfuel_read, fairfuel_write, fairfuel_truncate, fairfuel_sync, fairfuel_size,
    fairfuel_lock, fairfuel_unlock, fairfuel_check_reserved, fairfuel_file_control, fairfuel_sector_size,
    fairfuel_device_characteristics, fairfuel_shm_map, fairfuel_shm_lock, fairfuel_shm_barrier, fairfuel_shm_unmap,
    0, 0
};

static inline int fairfuel_open(sqlite3_vfs *v, sqlite3_filename name, sqlite3_file *f, int flags, int *outFlags) {
    fairfuel_vfs *vfs = (fairfuel_vfs *)v;
    fairfuel_file *file = (fairfuel_file *)f;
    memset(file, 0, sizeof(*file));
    file->vfs = vfs;
    file->real = (sqlite3_file *)&file[1];
    if (flags & SQLITE_OPEN_MAIN_DB) file->kind = FAIRFUEL_FILE_MAIN_DB;
    else if (flags & SQLITE_OPEN_WAL) file->kind = FAIRFUEL_FILE_WAL;
    else if (flags & SQLITE_OPEN_MAIN_JOURNAL) file->kind = FAIRFUEL_FILE_JOURNAL;
    else file->kind = FAIRFUEL_FILE_OTHER;
    int rc = vfs->real->xOpen(vfs->real, name, file->real, flags, outFlags);
    file->base.pMethods = file->real->pMethods ? &fairfuel_io_methods : NULL;
    return rc;
}

static inline int fairfuel_delete(sqlite3_vfs *v, const char *name, int syncDirectory) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xDelete(real, name, syncDirectory);
}

static inline int fairfuel_access(sqlite3_vfs *v, const char *name, int flags, int *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xAccess(real, name, flags, out);
}

static inline int fairfuel_full_pathname(sqlite3_vfs *v, const char *name, int size, char *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xFullPathname(real, name, size, out);
}

static inline void *fairfuel_dl_open(sqlite3_vfs *v, const char *name) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xDlOpen(real, name);
}

static inline void fairfuel_dl_error(sqlite3_vfs *v, int size, char *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    real->xDlError(real, size, out);
}

static inline void (*fairfuel_dl_sym(sqlite3_vfs *v, void *handle, const char *symbol))(void) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xDlSym(real, handle, symbol);
}

static inline void fairfuel_dl_close(sqlite3_vfs *v, void *handle) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    real->xDlClose(real, handle);
}

static inline int fairfuel_randomness(sqlite3_vfs *v, int size, char *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xRandomness(real, size, out);
}

static inline int fairfuel_sleep(sqlite3_vfs *v, int microseconds) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xSleep(real, microseconds);
}

static inline int fairfuel_current_time(sqlite3_vfs *v, double *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xCurrentTime(real, out);
}

static inline int fairfuel_last_error(sqlite3_vfs *v, int size, char *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xGetLastError ? real->xGetLastError(real, size, out) : 0;
}

static inline int fairfuel_current_time_int64(sqlite3_vfs *v, sqlite3_int64 *out) {
    sqlite3_vfs *real = ((fairfuel_vfs *)v)->real;
    return real->xCurrentTimeInt64(real, out);
}

/// Registers `vfs` (caller-owned, never freed) under `name`, wrapping the default VFS.
static inline int fairfuel_vfs_register(fairfuel_vfs *vfs, const char *name) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL || real->iVersion < 2) return SQLITE_ERROR;
    char *ownedName = sqlite3_mprintf("%s", name);
    if (ownedName == NULL) return SQLITE_NOMEM;
    memset(vfs, 0, sizeof(*vfs));
    vfs->real = real;
    vfs->base.iVersion = 2;
    vfs->base.szOsFile = (int)sizeof(fairfuel_file) + real->szOsFile;
    vfs->base.mxPathname = real->mxPathname;
    vfs->base.zName = ownedName;
    vfs->base.xOpen = fairfuel_open;
    vfs->base.xDelete = fairfuel_delete;
    vfs->base.xAccess = fairfuel_access;
    vfs->base.xFullPathname = fairfuel_full_pathname;
    vfs->base.xDlOpen = fairfuel_dl_open;
    vfs->base.xDlError = fairfuel_dl_error;
    vfs->base.xDlSym = fairfuel_dl_sym;
    vfs->base.xDlClose = fairfuel_dl_close;
    vfs->base.xRandomness = fairfuel_randomness;
    vfs->base.xSleep = fairfuel_sleep;
    vfs->base.xCurrentTime = fairfuel_current_time;
    vfs->base.xGetLastError = fairfuel_last_error;
    vfs->base.xCurrentTimeInt64 = fairfuel_current_time_int64;
    return sqlite3_vfs_register(&vfs->base, 0);
}

/// A consistent-enough copy of the counters (each field is read atomically).
static inline void fairfuel_vfs_read_counters(fairfuel_vfs *vfs, fairfuel_io_counters *out) {
    sqlite3_uint64 *from = (sqlite3_uint64 *)&vfs->counters;
    sqlite3_uint64 *to = (sqlite3_uint64 *)out;
    for (size_t i = 0; i < sizeof(fairfuel_io_counters) / sizeof(sqlite3_uint64); i++) {
        to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
    }
}

static inline void fairfuel_vfs_reset_counters(fairfuel_vfs *vfs) {
    sqlite3_uint64 *counters = (sqlite3_uint64 *)&vfs->counters;
    for (size_t i = 0; i < sizeof(fairfuel_io_counters) / sizeof(sqlite3_uint64); i++) {
        __atomic_store_n(&counters[i], 0, __ATOMIC_RELAXED);
    }
}

static inline void fairfuel_vfs_set_hold_unsynced(fairfuel_vfs *vfs, int on) {
    __atomic_store_n(&vfs->hold_unsynced, on, __ATOMIC_RELAXED);
}

static inline void fairfuel_vfs_set_refuse_growth(fairfuel_vfs *vfs, int on) {
    __atomic_store_n(&vfs->refuse_growth, on, __ATOMIC_RELAXED);
}

#endif
