/* Where a result came from: build, machine and run (Google Benchmark's
 * "context" block is the model). */
#ifndef ANIMBENCH_PROVENANCE_H
#define ANIMBENCH_PROVENANCE_H

#include <stdbool.h>

struct codec;

typedef struct provenance {
    const char *version, *git_commit, *source_hash, *cflags, *compiler;
    char cpu_model[128];
    int cores;
    char os[200];
    const char *zlib_version;
    const char *acl_library; /* "ACL 2.1.0, RTM 2.2.0" or "not built: ..." */
    const char *ozz_library; /* "ozz-animation 0.16.0" or "not built: ..." */
    char date[32];
    bool optimised; /* built with optimisation: timings are meaningful */
} provenance;

void provenance_collect(provenance *p);
/* A hash of every source file: the context's code_version. */
const char *provenance_code_version(void);
/* The measuring code's part of a point's cache key: core/, generators/,
 * point measurement and its JSON, the codec interface. */
const char *provenance_measure_version(void);

typedef struct source_hash {
    const char *file, *hash;
} source_hash;
/* A row's part of the cache key, 16 hex digits: its name, version and the
 * hashes of its sources as listed in `files` (the build's table when NULL).
 * Returns the number of its sources missing from the table (0 when all are
 * known). */
int codec_cache_version(const struct codec *c, const source_hash *files, int file_count, char out[17]);
/* The build's table of codecs/ files and their hashes; returns its length. */
int provenance_codec_files(const source_hash **files);

#endif
