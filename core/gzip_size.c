#include "core/gzip_size.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

size_t gzip_size(const uint8_t *data, size_t size)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    const uLong bound = deflateBound(&zs, (uLong)size);
    uint8_t *out = malloc(bound);
    if (!out) {
        deflateEnd(&zs);
        return 0;
    }
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)size;
    zs.next_out = out;
    zs.avail_out = (uInt)bound;
    const int rc = deflate(&zs, Z_FINISH);
    const size_t produced = rc == Z_STREAM_END ? (size_t)zs.total_out : 0;
    deflateEnd(&zs);
    free(out);
    return produced;
}

const char *gzip_zlib_version(void)
{
    return zlibVersion();
}
