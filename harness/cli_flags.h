/* Command-line flags shared by several commands. */
#ifndef ANIMBENCH_CLI_FLAGS_H
#define ANIMBENCH_CLI_FLAGS_H

#include <stddef.h>

#include "../generators/study_clips.h"

/* A finite number and nothing else; returns 0 or -1. */
int cli_number(const char *text, double *out);

/* The flags of a clip's parameters: --fps, --walk-seconds, --jump-seconds,
 * --seed, --unit-m, --up y|z.  Returns 1 when flag is one of them and its
 * value was stored, 0 when it is not one of them, -1 with a message in err
 * when the value is out of range. */
int cli_clip_flag(const char *flag, const char *value, clip_params *p, char *err, size_t err_size);

#define CLI_CLIP_FLAGS_USAGE "[--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N] [--unit-m X] [--up y|z]"

#endif
