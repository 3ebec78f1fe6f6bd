/* Where a result came from: build, machine and run (Google Benchmark's
 * "context" block is the model). */
#ifndef ANIMBENCH_PROVENANCE_H
#define ANIMBENCH_PROVENANCE_H

#include <stdbool.h>

typedef struct provenance {
    const char *version, *git_commit, *source_hash, *cflags, *compiler;
    char cpu_model[128];
    int cores;
    char os[200];
    const char *zlib_version;
    const char *acl_library; /* "ACL 2.1.0, RTM 2.2.0" or "not built: ..." */
    char date[32];
    bool optimised; /* built with optimisation: timings are meaningful */
} provenance;

void provenance_collect(provenance *p);
/* The code version results are keyed on: sources hash + commit. */
const char *provenance_code_version(void);

#endif
