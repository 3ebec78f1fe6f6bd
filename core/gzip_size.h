/* Size of a buffer after gzip (zlib deflate, level 6, window 15, memLevel 8,
 * default strategy, gzip wrapper): what Node's zlib.gzipSync({level: 6})
 * asks for.  Node bundles a fork of zlib whose matches differ, so sizes can
 * differ from the study's by a few bytes; see README. */
#ifndef ANIMBENCH_GZIP_SIZE_H
#define ANIMBENCH_GZIP_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Returns the compressed size, or 0 when zlib fails (out of memory). */
size_t gzip_size(const uint8_t *data, size_t size);
const char *gzip_zlib_version(void);

#endif
