/* `animbench sweep FILE`: the command; the engine is harness/sweep/sweep.c. */
#include <stdio.h>
#include <string.h>

#include "harness/commands/commands.h"
#include "harness/commands/cli_flags.h"
#include "harness/sweep/sweep.h"

#define SWEEP_USAGE                                                                                        \
    "usage: animbench sweep FILE [--force] [--keep-going] [--shard I/N] [--output-path]\n"                 \
    "  Runs a sweep definition (docs/sweeps.md) into its output, measuring only the points the output\n"   \
    "  lacks for this code version.  --force measures every point again; --keep-going measures every\n"   \
    "  point even when some fail to encode or decode (they are reported, and the exit status is 0).\n"    \
    "  --shard I/N measures the I-th of N parts of the points into the output with .shard-I-of-N before\n" \
    "  its .json, to be joined by `animbench merge` (docs/cluster.md); --output-path prints where the\n"     \
    "  points go.\n"

static int parse_shard(const char *text, int *index, int *count)
{
    char tail;
    long i, c;
    if (!text)
        return 0;
    if (sscanf(text, "%ld/%ld%c", &i, &c, &tail) != 2 || c < 1 || c > 4096 || i < 1 || i > c ||
        strspn(text, "0123456789/") != strlen(text)) {
        fprintf(stderr, "animbench sweep: --shard: expected I/N with 1 <= I <= N <= 4096, found '%s'\n", text);
        return -1;
    }
    *index = (int)i;
    *count = (int)c;
    return 0;
}

int cmd_sweep(int argc, char **argv, int full_argc, char **full_argv)
{
    sweep_options opt = {false, false, 0, 0, false};
    const char *shard = NULL;
    const cli_option options[] = {
        {"--force", CLI_SWITCH, &opt.force, 0, 0, 0},
        {"--keep-going", CLI_SWITCH, &opt.keep_going, 0, 0, 0},
        {"--shard", CLI_TEXT, &shard, 0, 0, 0},
        {"--output-path", CLI_SWITCH, &opt.print_output, 0, 0, 0},
    };
    const char *path = NULL;
    const int parsed = cli_parse_file("sweep", argc, argv, &path, options, 4, SWEEP_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (parse_shard(shard, &opt.shard_index, &opt.shard_count) != 0)
        return 2;
    if (!path) {
        fprintf(stderr, "animbench sweep: needs a definition FILE\n%s", SWEEP_USAGE);
        return 2;
    }
    sweep_stats stats;
    return sweep_run(path, &opt, full_argc, full_argv, &stats);
}
