/* `animbench merge SHARD... --out FILE`: joins the files of a sharded sweep
 * (`animbench sweep DEF --shard I/N`) into the file one process would have
 * written: the definition's points in definition order (each shard file
 * records its points' places), then the points of other definitions that
 * FILE already held.  Refused, with nothing written: files of different
 * sweeps, definitions, shard counts or code versions; a shard given twice
 * or missing; a point in two shards; a shard that did not measure all of
 * its points (a failed or cancelled task: run it again, it resumes). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/limits.h"
#include "harness/commands/commands.h"
#include "harness/sweep/export.h"
#include "harness/sweep/output_lock.h"
#include "harness/sweep/owners.h"
#include "harness/sweep/results.h"

#define MERGE_USAGE                                                                                     \
    "usage: animbench merge SHARD.json... --out FILE.json\n"                                           \
    "  Joins the shard files of one sweep (animbench sweep DEF --shard I/N) into FILE, as one process\n" \
    "  running the whole sweep would have written it, and exports its tables (docs/cluster.md).\n"

typedef struct shard_file {
    const char *path;
    cJSON *doc;
    const cJSON *meta;
    int index;
} shard_file;

typedef struct placed_point {
    int ordinal;
    const char *key;
    const char *path;
    cJSON *point;
} placed_point;

static int by_ordinal(const void *a, const void *b)
{
    const placed_point *x = a, *y = b;
    return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

static int by_key(const void *a, const void *b)
{
    const placed_point *x = a, *y = b;
    return strcmp(x->key, y->key);
}

static const char *text_of(const cJSON *o, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, field);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* An integer field within lo..hi, checked before the cast. */
static int int_of(const cJSON *o, const char *field, int lo, int hi, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, field);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi) || v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = (int)v->valuedouble;
    return 0;
}

/* The shard's description, checked against the first shard's. */
static int check_shard(shard_file *f, const shard_file *first, int *expected)
{
    f->meta = cJSON_GetObjectItemCaseSensitive(f->doc, "shard");
    int count;
    if (!cJSON_IsObject(f->meta) || int_of(f->meta, "count", 1, 4096, &count) != 0 ||
        int_of(f->meta, "index", 1, count, &f->index) != 0 ||
        int_of(f->meta, "points_expected", 0, LIMIT_SWEEP_POINTS, expected) != 0 ||
        !text_of(f->meta, "sweep") || !text_of(f->meta, "definition") || !text_of(f->meta, "output") ||
        !text_of(f->meta, "definition_fnv1a64") ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(f->meta, "ordinals")) ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(f->doc, "points")) ||
        !text_of(cJSON_GetObjectItemCaseSensitive(f->doc, "context"), "code_version")) {
        fprintf(stderr, "animbench merge: %s: not a shard file (no complete \"shard\" block with an index from 1 "
                        "to its count, or no \"points\" array; shard files are written by animbench sweep DEF "
                        "--shard I/N)\n", f->path);
        return -1;
    }
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(f->meta, "ordinals")) !=
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(f->doc, "points"))) {
        fprintf(stderr, "animbench merge: %s: holds points of other sweeps besides its shard's; a shard file "
                        "holds only its own\n", f->path);
        return -1;
    }
    if (!first)
        return 0;
    static const char *const same[] = {"sweep", "definition", "output", "definition_fnv1a64"};
    for (int i = 0; i < 4; i++)
        if (strcmp(text_of(f->meta, same[i]), text_of(first->meta, same[i])) != 0) {
            fprintf(stderr, "animbench merge: %s is a shard of %s '%s', %s of '%s': shards of one sweep only%s\n",
                    f->path, same[i], text_of(f->meta, same[i]), first->path, text_of(first->meta, same[i]),
                    i == 3 ? " (the definition was edited between shards: run the older ones again)" : "");
            return -1;
        }
    int first_count = 0;
    int_of(first->meta, "count", 1, 4096, &first_count);
    if (count != first_count) {
        fprintf(stderr, "animbench merge: %s is shard %d of %d, %s one of %d: one shard count only\n", f->path,
                f->index, count, first->path, first_count);
        return -1;
    }
    const char *cv = text_of(cJSON_GetObjectItemCaseSensitive(f->doc, "context"), "code_version"),
               *cv0 = text_of(cJSON_GetObjectItemCaseSensitive(first->doc, "context"), "code_version");
    if (strcmp(cv, cv0) != 0) {
        fprintf(stderr, "animbench merge: %s was measured by code version %s, %s by %s: run the older shard "
                        "again with this build\n", f->path, cv, first->path, cv0);
        return -1;
    }
    return 0;
}

/* The definition's points of `out` before the merge leave it; the points
 * of other definitions stay, after the merged ones, and a merged point that
 * other definitions also named keeps them as owners. */
static int keep_foreign(const char *target, cJSON *points, placed_point *by_key_sorted, int n, const char *name,
                        const char *def)
{
    int missing;
    char err[600];
    cJSON *old = results_read(target, &missing, err, sizeof err);
    if (!old) {
        if (missing)
            return 0;
        fprintf(stderr, "animbench merge: %s (move it away or fix it; it was not touched)\n", err);
        return -1;
    }
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(old, "points"))
    {
        const char *key = text_of(p, "key");
        const placed_point probe = {0, key ? key : "", NULL, NULL};
        placed_point *hit = key ? bsearch(&probe, by_key_sorted, (size_t)n, sizeof *by_key_sorted, by_key) : NULL;
        if (hit) {
            owners_merge_others(hit->point, p, name, def);
            continue;
        }
        cJSON *copy = cJSON_Duplicate(p, 1);
        if (owners_has(copy, name, def) && owners_remove(copy, name, def) == 0) {
            cJSON_Delete(copy); /* this definition's, and no longer named by it */
            continue;
        }
        cJSON_AddItemToArray(points, copy);
    }
    cJSON_Delete(old);
    return 0;
}

int cmd_merge(int argc, char **argv, int full_argc, char **full_argv)
{
    const char *out = NULL;
    shard_file *files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0, rc = 2, lock = -1;
    placed_point *placed = NULL;
    cJSON *doc = NULL;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s", MERGE_USAGE);
            free(files);
            return 0;
        }
        if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "animbench merge: --out needs a FILE\n%s", MERGE_USAGE);
                goto done;
            }
            out = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "animbench merge: unknown option '%s'\n%s", argv[i], MERGE_USAGE);
            goto done;
        } else {
            files[nfiles++].path = argv[i];
        }
    }
    if (!out || nfiles == 0) {
        fprintf(stderr, "animbench merge: needs shard files and --out FILE\n%s", MERGE_USAGE);
        goto done;
    }
    char target[4096], target_real[4096], err[600];
    if (results_output_path(out, target, sizeof target, err, sizeof err) != 0) {
        fprintf(stderr, "animbench merge: --out: %s\n", err);
        goto done;
    }
    int total = 0, count = 0;
    for (int i = 0; i < nfiles; i++) {
        int missing, expected;
        files[i].doc = results_read(files[i].path, &missing, err, sizeof err);
        if (!files[i].doc) {
            fprintf(stderr, "animbench merge: %s\n", missing ? "no such shard file" : err);
            if (missing)
                fprintf(stderr, "  (looked for %s)\n", files[i].path);
            goto done;
        }
        if (check_shard(&files[i], i ? &files[0] : NULL, &expected) != 0)
            goto done;
        const int held = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(files[i].doc, "points"));
        if (held != expected) {
            fprintf(stderr, "animbench merge: %s holds %d of its shard's %d points (a task failed or was "
                            "cancelled): run `animbench sweep %s --shard %d/%d` again, it measures only what "
                            "is missing\n", files[i].path, held, expected, text_of(files[i].meta, "definition"),
                    files[i].index, (int)cJSON_GetObjectItemCaseSensitive(files[i].meta, "count")->valuedouble);
            goto done;
        }
        total += held;
    }
    int_of(files[0].meta, "count", 1, 4096, &count);
    for (int want = 1; want <= count; want++) {
        int seen = 0;
        for (int i = 0; i < nfiles; i++)
            seen += files[i].index == want;
        if (seen != 1) {
            fprintf(stderr, "animbench merge: shard %d of %d is %s\n", want, count,
                    seen ? "given twice" : "missing: every shard's file is needed");
            goto done;
        }
    }
    if (nfiles != count) {
        fprintf(stderr, "animbench merge: %d files for %d shards\n", nfiles, count);
        goto done;
    }
    placed = calloc((size_t)total + 1, sizeof *placed);
    if (!placed) {
        rc = 1;
        goto done;
    }
    int n = 0;
    for (int i = 0; i < nfiles; i++) {
        const cJSON *ord = cJSON_GetObjectItemCaseSensitive(files[i].meta, "ordinals")->child;
        for (cJSON *p = cJSON_GetObjectItemCaseSensitive(files[i].doc, "points")->child; p; p = p->next, ord = ord->next) {
            if (!cJSON_IsNumber(ord) || !text_of(p, "key")) {
                fprintf(stderr, "animbench merge: %s: a point without a key or a place\n", files[i].path);
                goto done;
            }
            const double o = ord->valuedouble;
            placed[n++] = (placed_point){o >= 0 && o < total && o == floor(o) ? (int)o : -1, text_of(p, "key"),
                                         files[i].path, p};
        }
    }
    qsort(placed, (size_t)n, sizeof *placed, by_key);
    for (int i = 1; i < n; i++)
        if (strcmp(placed[i].key, placed[i - 1].key) == 0) {
            fprintf(stderr, "animbench merge: the point %s is in both %s and %s\n", placed[i].key,
                    placed[i - 1].path, placed[i].path);
            goto done;
        }
    qsort(placed, (size_t)n, sizeof *placed, by_ordinal);
    for (int i = 0; i < n; i++) /* the places of every point of the definition, each once */
        if (placed[i].ordinal != i) {
            fprintf(stderr, "animbench merge: %s: the shards' \"ordinals\" are not the places 0 to %d, each once "
                            "(found %d where %d belongs): a shard file was edited\n",
                    placed[i].path, n - 1, placed[i].ordinal, i);
            goto done;
        }
    qsort(placed, (size_t)n, sizeof *placed, by_key);
    const char *name = text_of(files[0].meta, "sweep"), *def = text_of(files[0].meta, "definition");
    for (int i = 0; i < nfiles; i++) {
        char in[4096];
        if (realpath(files[i].path, in) && realpath(target, target_real) && strcmp(in, target_real) == 0) {
            fprintf(stderr, "animbench merge: --out %s is one of the shard files it reads\n", out);
            goto done;
        }
    }
    if ((lock = output_lock("merge", target)) < 0) {
        rc = 1;
        goto done;
    }
    doc = results_document(full_argc, full_argv);
    cJSON *points = cJSON_GetObjectItem(doc, "points");
    cJSON *foreign = cJSON_CreateArray();
    if (keep_foreign(target, foreign, placed, n, name, def) != 0) {
        cJSON_Delete(foreign);
        rc = 1;
        goto done;
    }
    qsort(placed, (size_t)n, sizeof *placed, by_ordinal);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(points, cJSON_Duplicate(placed[i].point, 1));
    for (cJSON *p = foreign->child; p; p = foreign->child)
        cJSON_AddItemToArray(points, cJSON_DetachItemViaPointer(foreign, p));
    cJSON_Delete(foreign);
    if (results_write(target, doc, err, sizeof err) != 0) {
        fprintf(stderr, "animbench merge: %s (%s was not touched)\n", err, out);
        rc = 1;
        goto done;
    }
    if (export_tables_for(target, err, sizeof err) != 0) {
        fprintf(stderr, "animbench merge: %s wrote %d points, but its tables were not exported: %s\n", out, n, err);
        rc = 1;
        goto done;
    }
    fprintf(stderr, "[merge %s] %d points from %d shards -> %s\n", name, n, count, out);
    rc = 0;
done:
    if (lock >= 0)
        close(lock);
    cJSON_Delete(doc);
    free(placed);
    for (int i = 0; i < nfiles; i++)
        cJSON_Delete(files[i].doc);
    free(files);
    return rc;
}
