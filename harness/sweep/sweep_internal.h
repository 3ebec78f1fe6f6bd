/* What the parts of the sweep engine share (not for other callers: harness/sweep/sweep.h is the
 * interface).  sweep_definition.c reads a definition into a sweep and loads its clips;
 * sweep_store.c holds what is already on disk (the output and a killed run's journal) and
 * assembles the output; sweep.c measures what is missing. */
#ifndef ANIMBENCH_SWEEP_INTERNAL_H
#define ANIMBENCH_SWEEP_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "codecs/codec.h"
#include "harness/measure/match.h"
#include "harness/measure/measure.h"

#define MAX_CLIPS 4096

typedef struct sweep_point {
    int clip;          /* index into the clip cache */
    const codec *codec;
    codec_params params;
    bool histogram;
    bool duplicate;
    bool other_shard; /* measured by another shard of a sharded run */
    int ordinal;      /* place among the definition's distinct points: a merge's order */
    char key[512];
    const cJSON *stored; /* the point as found on disk or in the journal */
    struct sweep_point *stored_first; /* a duplicate: the point that is measured for it */
    bool is_match;      /* an equal-error point: the smallest stream meeting target_mm on metric */
    match_metric metric;
    double target_mm;
    /* filled by a worker */
    cJSON *result;
    char error[512];
} sweep_point;

typedef struct sweep {
    const char *path;
    char definition[1024]; /* the definition's path, normalised: with the name, whose points are whose */
    char name[128], output[1024];
    char merged_output[1024]; /* a shard: the output the merge writes ("output") */
    char definition_hash[17]; /* a shard: FNV-1a of the definition's bytes, so shards of two edits never merge */
    int shard_index, shard_count; /* 1..n of n; 0 of 0 when not sharded */
    char target[4096]; /* the file output names: a link resolved to its target */
    clip_params clip_params;
    metric_params metrics;
    char *clip_names[MAX_CLIPS];
    clip_params per_clip[MAX_CLIPS];
    measured_clip *clips[MAX_CLIPS];
    int clip_count;
    sweep_point *points;
    int point_count, point_capacity;
} sweep;
/* sweep_definition.c */
/* The definition's path as a stable name: "./a//b.json" and "a/b.json" are the same definition. */
void sweep_normalise_path(const char *path, char *out, size_t n);
/* Reads doc into s: clips, metrics, points.  0, or -1 after a message naming the field. */
int sweep_parse_definition(sweep *s, const cJSON *doc);
/* Loads and measures every clip of s (their frames and world poses); 0 or -1 after a message. */
int sweep_load_clips(sweep *s);

/* sweep_store.c */
typedef struct stored_point {
    const char *key;
    int order; /* journal entries first, then the output's, each in file order */
    cJSON *point;
    bool own;  /* measured for this definition (same name and definition path) */
    bool used; /* taken by a point of this definition */
} stored_point;

typedef struct store {
    stored_point *items; /* sorted by key; the journal's entry wins over the output's */
    int count;
    cJSON *output_doc;
    cJSON *journal_points; /* an array owning the points read from the journal */
    int from_journal;
} store;

int sweep_store_load(const sweep *s, const char *journal, store *st);
void sweep_store_free(store *st);
/* The first stored point with this key (the journal's, when both have it). */
stored_point *sweep_store_find(store *st, const char *key);
/* The output document (see sweep_store.c). */
cJSON *sweep_assemble(const sweep *s, store *st, int argc, char **argv, int *dropped, int *foreign, bool *changed,
                      char *owners, size_t owners_size);

typedef struct journal {
    char path[4200];
    FILE *f;
} sweep_journal;
int sweep_journal_append(sweep_journal *j, const sweep *s, const cJSON *point);
int sweep_journal_sync(sweep_journal *j);

#endif
