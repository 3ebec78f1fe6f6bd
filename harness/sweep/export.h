/* Flat tab-separated tables exported from a results file, for gnuplot and
 * spreadsheets.  Computed from the stored results, never during a run. */
#ifndef ANIMBENCH_EXPORT_H
#define ANIMBENCH_EXPORT_H

#include <stddef.h>

/* From RESULTS.json writes RESULTS.tsv (one row per point) and, when any
 * point holds a key histogram, RESULTS_keys.tsv (one row per frame). */
int export_tables_for(const char *results_path, char *err, size_t err_size);

#endif
