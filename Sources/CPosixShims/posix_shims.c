// POSIX calls that Swift's Glibc module does not expose without _XOPEN_SOURCE.
#define _XOPEN_SOURCE 600
#define _GNU_SOURCE
#include "posix_shims.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>

int fairfuel_open_pty(char *path, size_t path_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, path, path_size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
