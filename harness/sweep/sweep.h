#ifndef ANIMBENCH_SWEEP_H
#define ANIMBENCH_SWEEP_H

#include <stdbool.h>

#include "generators/study_clips.h"

typedef struct sweep_options {
    bool force;      /* measure every point again */
    bool keep_going; /* measure every point even when some fail; exit 0 */
    int shard_index, shard_count; /* --shard i/n: this run's part, 1 <= i <= n; 0 and 0: all */
    bool print_output;            /* print the output's path (a shard's own) and do nothing else */
} sweep_options;

/* A shard's file: OUTPUT with ".shard-I-of-N" before its ".json" (or at
 * its end), beside the output. */
void sweep_shard_path(const char *output, int index, int count, char *out, size_t n);

typedef struct sweep_stats {
    int points;       /* distinct points the definition names */
    int on_disk;      /* stored for this code version (output or journal): reused */
    int measured;     /* measured by this run */
    int recovered;    /* points read back from a journal a killed run left */
    int kept_foreign; /* points of other definitions kept in the output */
    int dropped;      /* this definition's stored points it no longer names: replaced */
    int failed;       /* points that failed to measure or decode in this run */
    int undecodable;  /* this definition's points in the output whose stream does not decode */
} sweep_stats;

/* Runs a sweep definition; argc/argv are recorded in the results' context.
 * Returns 0; 2 for a bad definition; 1 after printing what went wrong
 * (a point that fails to measure or decode, unless keep_going). */
int sweep_run(const char *path, const sweep_options *opt, int argc, char **argv, sweep_stats *stats);

/* The clips a sweep definition names, each with its own unit and up axis (for bench --clips-from):
 * *names and *params are the caller's to free (each name, then both arrays).  0, or -1 after a
 * message on stderr. */
int sweep_definition_clips(const char *path, char ***names, clip_params **params, int *count);

#endif
