#ifndef FAIRFUEL_POSIX_SHIMS_H
#define FAIRFUEL_POSIX_SHIMS_H
#include <stddef.h>
// Linux signalfd, which Swift's Glibc module leaves out (SignalWatcher uses it).
#include <sys/signalfd.h>

/// Opens a pseudo-terminal controller (posix_openpt + grantpt + unlockpt) and
/// writes the device path into `path`. Returns the descriptor, or -1 with errno.
int fairfuel_open_pty(char *path, size_t path_size);

/// The peer's credentials of a connected Unix socket (SO_PEERCRED, whose struct ucred
/// needs _GNU_SOURCE). Returns 0, or -1 with errno.
int fairfuel_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid);

#endif
