/* Compares our `tables` output with an expected text (the published study
 * output, or the study's script run with other constants) line by line and
 * field by field.  Fields that depend on gzip or on a clock are left out
 * (the study's Node bundles a different zlib; see README); every other field
 * must be identical. */
#ifndef ANIMBENCH_TABLE_COMPARE_H
#define ANIMBENCH_TABLE_COMPARE_H

#include <stddef.h>

typedef struct compare_report {
    int lines_compared;
    int mismatches;
    char first_mismatch[1024];
    int gzip_fields;      /* gzip figures seen on both sides */
    int gzip_equal;       /* of which identical */
    long gzip_abs_diff;   /* sum of |ours - theirs| bytes */
} compare_report;

/* Returns 0 when every deterministic field matches. */
int compare_tables(const char *expected, const char *actual, compare_report *r);

/* Reads a whole file; NULL when it cannot be read.  Free with free(). */
char *read_text_file(const char *path);

#endif
