/* Reading a whole file into memory, NUL-terminated: one implementation for
 * the BVH importer, results files and the tests. */
#ifndef ANIMBENCH_TEXT_FILE_H
#define ANIMBENCH_TEXT_FILE_H

#include <stddef.h>

/* Returns the contents (free with free()) and sets *size; NULL on failure
 * with *error_number set to errno (ENOMEM when out of memory). */
char *read_whole_file(const char *path, size_t *size, int *error_number);

#endif
