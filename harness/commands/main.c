/* animbench: the command-line front end. */
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "harness/commands/commands.h"
#include "harness/report/study_tables.h"

static int usage(FILE *out)
{
    fprintf(out,
            "usage: animbench COMMAND [options]\n"
            "  tables [--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N] [--tol-mm X]\n"
            "         [--lever-m X] [--sweep-mm a,b,c] [--no-timings]   the study's tables\n"
            "  list                                                     codecs, clips, metrics\n"
            "  run --clip NAME --codec NAME [--tol-mm X] [--json FILE]  measure one point\n"
            "  sweep FILE [--force] [--keep-going] [--shard I/N]        run a sweep definition (or a part)\n"
            "  merge SHARD... --out FILE                                join a sharded sweep's files\n"
            "  encode --clip NAME --codec NAME [--out FILE] [--verify]  encode only (long clips): bytes, time, memory\n"
            "  bench [--clips a,b] [--codecs a,b] [--runs N] [--pin CPU] [--json FILE]  decode timings\n"
            "  export --clip NAME --format bvh|acl-sjson|gltf --out FILE [--codec NAME]  write a clip\n"
            "  diff A B [--within M]                                    two clips in world space, joints by name\n"
            "  scene FILE                                               what an FBX, glTF, COLLADA... file holds\n"
            "  train-priors [--check FILE]                              shellpack-trained's built-in states\n"
            "  match --clip NAME --codec NAME --target MM [--metric M]    smallest stream at a target error\n"
            "  compare --clips A,B --reference acl --codecs X,Y        bytes at the reference's measured error\n"
            "  gate --clip NAME --codec NAME --precision-mm P          seed 001's max gate against ACL, per joint\n"
            "  summary FILE.json --baseline CODEC [--out FILE.md]       a corpus: bytes at equal error, BD-rate\n"
            "  table FILE.json [--format md|latex|csv] [--columns a,b] [--by clip|codec]  a paper's table\n"
            "  results-check [--allow FILE] FILE...                     results measured by another code version\n"
            "animbench COMMAND --help shows a command's options.\n");
    return out == stderr ? 2 : 0;
}

int cmd_tables(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: animbench tables [--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N] [--tol-mm X]\n"
                   "                        [--lever-m X] [--sweep-mm a,b,c] [--runs N] [--pin CPU] [--no-timings]\n"
                   "  The study's tables, in its format, for any setting of its constants.\n");
            return 0;
        }
    study_settings s;
    study_settings_default(&s);
    char err[512];
    if (study_settings_parse(&s, argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "animbench tables: %s\n", err);
        return 2;
    }
    if (study_tables_print(stdout, &s, err, sizeof err) != 0) {
        fprintf(stderr, "animbench tables: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* Plans allocate and free clip-sized buffers by the hundred; keeping them
     * on the heap instead of fresh mmaps saves a page fault per 4 KiB. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
    if (argc < 2)
        return usage(stderr);
    if (strcmp(argv[1], "tables") == 0)
        return cmd_tables(argc - 2, argv + 2);
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc - 2, argv + 2);
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "export") == 0)
        return cmd_export(argc - 2, argv + 2);
    if (strcmp(argv[1], "match") == 0)
        return cmd_match(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "compare") == 0)
        return cmd_compare(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "encode") == 0)
        return cmd_encode(argc - 2, argv + 2);
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc - 2, argv + 2, argc, argv);
    if (strcmp(argv[1], "summary") == 0)
        return cmd_summary(argc - 2, argv + 2);
    if (strcmp(argv[1], "table") == 0)
        return cmd_table(argc - 2, argv + 2);
    if (strcmp(argv[1], "results-check") == 0)
        return cmd_results_check(argc - 2, argv + 2);
    if (strcmp(argv[1], "diff") == 0)
        return cmd_diff(argc - 2, argv + 2);
    if (strcmp(argv[1], "scene") == 0)
        return cmd_scene(argc - 2, argv + 2);
    if (strcmp(argv[1], "train-priors") == 0)
        return cmd_train(argc - 2, argv + 2);
    if (strcmp(argv[1], "gate") == 0)
        return cmd_gate(argc - 2, argv + 2);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
        return usage(stdout);
    fprintf(stderr, "animbench: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
