/* Reading files: one implementation for the BVH importer, results files
 * and the tests.  Only regular files are read (a link to /dev/zero or a
 * folder is refused by its type), and a size limit is checked on the file's
 * size before anything is allocated. */
#ifndef ANIMBENCH_TEXT_FILE_H
#define ANIMBENCH_TEXT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Opens a regular file of at most max_bytes for reading; sets *size.  NULL
 * with "PATH: why" in err otherwise; *error_number is errno (ENOENT when it
 * does not exist, EFBIG when too large, EINVAL when not a regular file). */
FILE *open_regular_file(const char *path, unsigned long long max_bytes, unsigned long long *size,
                        int *error_number, char *err, size_t err_size);

/* The whole contents of such a file, NUL-terminated (free with free()). */
char *read_whole_file(const char *path, unsigned long long max_bytes, size_t *size, int *error_number, char *err,
                      size_t err_size);

/* True when s[0..n) is valid UTF-8 without control characters: what may
 * stand in a name that results files (JSON, TSV) carry. */
int utf8_printable(const char *s, size_t n);
/* The same text with every byte that breaks that rule replaced by '_'. */
void utf8_printable_copy(const char *in, char *out, size_t n);

#endif
