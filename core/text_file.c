#include "text_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

FILE *open_regular_file(const char *path, unsigned long long max_bytes, unsigned long long *size,
                        int *error_number, char *err, size_t err_size)
{
    *size = 0;
    /* non-blocking, so that opening a named pipe does not wait for a writer
     * before its type can be refused */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        *error_number = errno;
        snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *error_number = errno;
        snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        *error_number = EINVAL;
        snprintf(err, err_size, "%s: not a regular file (%s)", path,
                 S_ISDIR(st.st_mode) ? "a folder" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                    : S_ISFIFO(st.st_mode)                     ? "a pipe"
                                                                                               : "a special file");
        fclose(f);
        return NULL;
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        *error_number = EFBIG;
        snprintf(err, err_size, "%s: %llu bytes, over the limit of %llu bytes for this kind of file", path,
                 (unsigned long long)st.st_size, max_bytes);
        fclose(f);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    *size = (unsigned long long)st.st_size;
    return f;
}

char *read_whole_file(const char *path, unsigned long long max_bytes, size_t *size, int *error_number, char *err,
                      size_t err_size)
{
    *size = 0;
    unsigned long long expected;
    FILE *f = open_regular_file(path, max_bytes, &expected, error_number, err, err_size);
    if (!f)
        return NULL;
    /* read one byte more than stated, so a file that grew is still caught */
    char *text = malloc((size_t)expected + 2);
    if (!text) {
        fclose(f);
        *error_number = ENOMEM;
        snprintf(err, err_size, "%s: out of memory for %llu bytes", path, expected);
        return NULL;
    }
    const size_t got = fread(text, 1, (size_t)expected + 1, f);
    const int failed = ferror(f);
    fclose(f);
    if (failed || got > expected) {
        free(text);
        *error_number = failed ? EIO : EFBIG;
        snprintf(err, err_size, "%s: %s", path, failed ? "read error" : "the file grew while being read");
        return NULL;
    }
    text[got] = '\0';
    *size = got;
    return text;
}
