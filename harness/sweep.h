#ifndef ANIMBENCH_SWEEP_H
#define ANIMBENCH_SWEEP_H

#include <stdbool.h>

typedef struct sweep_stats {
    int points;   /* distinct points the definition names */
    int on_disk;  /* already measured by this code version: skipped */
    int measured; /* measured by this run */
} sweep_stats;

/* Runs a sweep definition; argc/argv are recorded in the results' context.
 * Returns 0, or 1 after printing what went wrong on stderr. */
int sweep_run(const char *path, bool force, int argc, char **argv, sweep_stats *stats);

#endif
