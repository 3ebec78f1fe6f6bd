#include "harness/sweep/output_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int output_lock(const char *cmd, const char *output)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.lock", output);
    const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "animbench %s: cannot create the lock %s: %s\n", cmd, path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char holder[32] = "";
        const ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
        holder[n > 0 ? n : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        fprintf(stderr,
                "animbench %s: %s is being written by another sweep or merge (process %s, holding %s); wait for it "
                "to finish or write another output\n",
                cmd, output, holder[0] ? holder : "unknown", path);
        close(fd);
        return -1;
    }
    char pid[32];
    const int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
        /* the pid is only for the message above; the lock holds without it */
    }
    return fd;
}
