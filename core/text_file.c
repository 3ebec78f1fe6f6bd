#include "core/text_file.h"

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

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not
 * valid or is a control character. */
static size_t printable_sequence(const unsigned char *s, size_t n)
{
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 0;
    if (s[0] < 0x80)
        return 1;
    const size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
    if (len == 0 || len > n || (s[0] >= 0xf0 && len != 4))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* overlong three- and four-byte forms, surrogates, past U+10FFFF */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return len;
}

int utf8_printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        const size_t k = printable_sequence((const unsigned char *)s + i, n - i);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

void utf8_printable_copy(const char *in, char *out, size_t n)
{
    const size_t len = strlen(in);
    size_t o = 0;
    for (size_t i = 0; i < len && o + 4 < n;) {
        const size_t k = printable_sequence((const unsigned char *)in + i, len - i);
        if (k == 0) {
            out[o++] = '_';
            i++;
        } else {
            memcpy(out + o, in + i, k);
            o += k;
            i += k;
        }
    }
    out[o] = '\0';
}
