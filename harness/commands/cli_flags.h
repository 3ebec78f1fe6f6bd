/* Command-line flags shared by several commands. */
#ifndef ANIMBENCH_CLI_FLAGS_H
#define ANIMBENCH_CLI_FLAGS_H

#include <math.h>
#include <stddef.h>

#include "codecs/codec.h"
#include "generators/study_clips.h"

/* A finite number and nothing else; returns 0 or -1. */
int cli_number(const char *text, double *out);

/* The flags of a clip's parameters: --fps, --walk-seconds, --jump-seconds,
 * --seed, --unit-m, --up y|z.  Returns 1 when flag is one of them and its
 * value was stored, 0 when it is not one of them, -1 with a message in err
 * when the value is out of range. */
int cli_clip_flag(const char *flag, const char *value, clip_params *p, char *err, size_t err_size);

/* One option of a command: its flag, what its value is and where it goes.
 * Numbers are range-checked before they are stored: REAL takes lo..hi (lo
 * itself excluded when lo_open), INT an integer from lo to hi. */
typedef enum { CLI_TEXT, CLI_REAL, CLI_INT, CLI_SWITCH, CLI_MULTI } cli_kind;

/* CLI_MULTI: a flag that may be given several times (--param NAME=VALUE). */
#define CLI_MULTI_MAX 16
typedef struct cli_multi {
    const char *items[CLI_MULTI_MAX];
    int count;
} cli_multi;

/* Codec parameters given on the command line: the study's flags (--tol-mm,
 * --lever-m, --step: applied to a codec that declares them, as before) and
 * --param NAME=VALUE (an error for a codec that does not declare NAME). */
typedef struct cli_codec_params {
    double tol_mm, lever_m; /* NAN: not given */
    int step;               /* 0: not given */
    cli_multi param;
} cli_codec_params;

#define CLI_CODEC_PARAMS_INIT {NAN, NAN, 0, {{0}, 0}}
/* The options above, for a command's option table. */
#define CLI_CODEC_PARAM_OPTIONS(q)                                                                          \
    {"--tol-mm", CLI_REAL, &(q)->tol_mm, 0, INFINITY, 1}, {"--lever-m", CLI_REAL, &(q)->lever_m, 0, INFINITY, 1}, \
        {"--step", CLI_INT, &(q)->step, 1, 65536, 0}, {"--param", CLI_MULTI, &(q)->param, 0, 0, 0}
/* The codec's defaults with what was given applied; 0, or -1 with a
 * message naming the codec, parameter and range. */
int cli_codec_params_apply(const cli_codec_params *q, const codec *c, codec_params *out, char *err, size_t err_size);
typedef struct cli_option {
    const char *flag;
    cli_kind kind;
    void *target; /* const char **, double *, int * or bool * */
    double lo, hi;
    int lo_open;
} cli_option;

/* Parses a command's options (and the clip flags when clip is not NULL):
 * distinct messages for an unknown option, a missing value, a value that is
 * not a number and one out of range (saying the range).  --help or -h
 * prints usage to stdout.  Returns 0, 1 after --help, -1 after a message on
 * stderr (the caller exits 2). */
int cli_parse(const char *cmd, int argc, char **argv, const cli_option *options, int option_count,
              clip_params *clip, const char *usage);

/* cli_parse for a command that also takes one FILE (sweep, summary, table):
 * the first argument that is neither an option nor an option's value.
 * *file is NULL when there is none; a second one is an error. */
int cli_parse_file(const char *cmd, int argc, char **argv, const char **file, const cli_option *options,
                   int option_count, const char *usage);

/* A comma-separated list of clips, split in place into items (at most max):
 * a random clip's own commas ("random:bones=60,frames=900") stay in it.
 * Returns the count, or -1 for an empty item or more than max. */
int cli_split_clips(char *list, char **items, int max);

#define CLI_CLIP_FLAGS_USAGE "[--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N] [--unit-m X] [--up y|z]"

#endif
