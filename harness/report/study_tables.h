/* `animbench tables`: every table of the study (seeds/000), in its layout
 * and order, computed by our code from the study's settings. */
#ifndef ANIMBENCH_STUDY_TABLES_H
#define ANIMBENCH_STUDY_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "generators/study_clips.h"

#define SWEEP_MAX 64

typedef struct study_settings {
    clip_params clips;
    double tol_mm;  /* 1 */
    double lever_m; /* 0.35 */
    double sweep_mm[SWEEP_MAX];
    int sweep_count; /* 0.1 0.25 0.5 1 2 5 10 20 50 */
    bool timings;    /* the two decode-cost tables */
    int timing_runs; /* 9, as the study */
    int pin_cpu;     /* -1: the timed thread is not pinned */
} study_settings;

void study_settings_default(study_settings *s);

/* Parses the flags of `animbench tables` (argv holds flags only).  Returns 0,
 * or -1 with a message naming the flag, the value and what was expected. */
int study_settings_parse(study_settings *s, int argc, char **argv, char *err, size_t err_size);

/* Returns 0, or -1 with a message in err. */
int study_tables_print(FILE *out, const study_settings *s, char *err, size_t err_size);

#endif
