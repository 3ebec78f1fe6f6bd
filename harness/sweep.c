/* `animbench sweep FILE`: runs a sweep definition (docs/sweeps.md).
 *
 * A sweep is a declared product of clips, codecs and parameter lists.  Every
 * point is stored with its parameters and the definition that asked for it.
 *
 * The output is never silently lost: points of the output that another
 * definition measured are kept; only this definition's own points that it no
 * longer names (or that an older code version measured) are replaced.  While
 * it runs, a sweep holds an exclusive lock on OUTPUT.lock, appends each
 * measured point to OUTPUT.journal (one JSON line, synced per batch) and, at
 * the end, writes OUTPUT once, atomically, and removes the journal.  Writing
 * is linear in the points measured; a sweep killed at any moment leaves the
 * previous whole OUTPUT plus a journal that the next run takes its points
 * from.  Tables for plotting are exported from the stored results afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../codecs/acl_codec.h"
#include "../core/bytes.h"
#include "../core/limits.h"
#include "../core/text_file.h"
#include "cli_flags.h"
#include "commands.h"
#include "export.h"
#include "match.h"
#include "measure.h"
#include "output_lock.h"
#include "owners.h"
#include "parallel.h"
#include "provenance.h"
#include "results.h"
#include "sweep.h"

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

static int def_error(const sweep *s, const char *what)
{
    fprintf(stderr, "animbench sweep: %s: %s\n", s->path, what);
    return -1;
}

/* One clip per name and settings: the same file read with another unit or
 * up axis is another clip (and another point). */
static int clip_index(sweep *s, const char *name, const clip_params *p)
{
    for (int i = 0; i < s->clip_count; i++)
        if (strcmp(s->clip_names[i], name) == 0 && s->per_clip[i].unit_m == p->unit_m &&
            s->per_clip[i].up_axis == p->up_axis)
            return i;
    if (s->clip_count == MAX_CLIPS)
        return -1;
    s->clip_names[s->clip_count] = strdup(name);
    s->per_clip[s->clip_count] = *p;
    return s->clip_count++;
}

/* Unknown keys are errors everywhere: a misspelt "tol" must not silently
 * become the default tolerance. */
static int known_keys(const sweep *s, const cJSON *object, const char *where, const char *const *known)
{
    for (const cJSON *e = object->child; e; e = e->next) {
        int ok = 0;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(e->string, known[k]) == 0;
        if (!ok) {
            char msg[600];
            int n = snprintf(msg, sizeof msg, "%s: unknown field \"%s\"; known:", where, e->string);
            for (int k = 0; known[k] && n < (int)sizeof msg; k++)
                n += snprintf(msg + n, sizeof msg - (size_t)n, " %s", known[k]);
            return def_error(s, msg);
        }
    }
    return 0;
}

/* A number within lo..hi (lo excluded when lo_open), an integer when asked;
 * checked before any cast.  Returns 0 or -1 after a message. */
static int number_in(const sweep *s, const cJSON *v, const char *where, double lo, double hi, bool lo_open,
                     bool integer, double *out)
{
    const bool ok = cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
                    (lo_open ? v->valuedouble > lo : v->valuedouble >= lo) && v->valuedouble <= hi &&
                    (!integer || v->valuedouble == floor(v->valuedouble));
    if (!ok) {
        char msg[300], found[64] = "not a number";
        if (cJSON_IsNumber(v))
            snprintf(found, sizeof found, "%.15g", v->valuedouble);
        snprintf(msg, sizeof msg, "%s: expected %s %s %.15g%s%.15g, found %s", where, integer ? "an integer" : "a number",
                 lo_open ? "above" : "from", lo, isinf(hi) ? "" : " to ", isinf(hi) ? 0.0 : hi, found);
        if (isinf(hi)) /* "above 0" reads better without "to inf" */
            snprintf(msg, sizeof msg, "%s: expected %s %s %.15g, found %s", where,
                     integer ? "an integer" : "a number", lo_open ? "above" : "of at least", lo, found);
        return def_error(s, msg);
    }
    *out = v->valuedouble;
    return 0;
}

/* A clip entry: a name or path (a folder stands for its .bvh files), or
 * {"clip": NAME, "unit_m": X, "up": "y" | "z"}.  Returns the count added to
 * idx, or -1 after a message. */
static int clip_entry(sweep *s, const cJSON *e, int run, int *idx, int max)
{
    char msg[600];
    const cJSON *name = cJSON_IsString(e) ? e : cJSON_GetObjectItemCaseSensitive(e, "clip");
    if (!cJSON_IsString(name)) {
        snprintf(msg, sizeof msg, "run %d: a clip is a name or {\"clip\": NAME, \"unit_m\": X, \"up\": \"y\"}", run);
        return def_error(s, msg);
    }
    clip_params p = s->clip_params;
    if (cJSON_IsObject(e)) {
        static const char *const KNOWN[] = {"clip", "unit_m", "up", NULL};
        snprintf(msg, sizeof msg, "run %d, clip '%s'", run, name->valuestring);
        if (known_keys(s, e, msg, KNOWN) != 0)
            return -1;
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(e, "unit_m"),
                    *up = cJSON_GetObjectItemCaseSensitive(e, "up");
        snprintf(msg, sizeof msg, "run %d, clip '%s': unit_m", run, name->valuestring);
        if (unit && number_in(s, unit, msg, 0, 1000, true, false, &p.unit_m) != 0)
            return -1;
        if (up && (!cJSON_IsString(up) || (strcmp(up->valuestring, "y") != 0 && strcmp(up->valuestring, "z") != 0))) {
            snprintf(msg, sizeof msg, "run %d, clip '%s': up must be \"y\" or \"z\"", run, name->valuestring);
            return def_error(s, msg);
        }
        if (up)
            p.up_axis = up->valuestring[0] == 'y' ? 1 : 2;
    }
    char **names, err[512];
    const int count = clip_expand(name->valuestring, &names, err, sizeof err);
    if (count == 0) {
        snprintf(msg, sizeof msg, "run %d: %s", run, err);
        return def_error(s, msg);
    }
    if (count > max) {
        clip_names_free(names, count);
        snprintf(msg, sizeof msg, "run %d: more than %d clips in one run", run, MAX_CLIPS);
        return def_error(s, msg);
    }
    int added = 0;
    for (int i = 0; i < count && added < max; i++) {
        const int ci = clip_index(s, names[i], &p);
        if (ci < 0) {
            clip_names_free(names, count);
            snprintf(msg, sizeof msg, "more than %d distinct clips", MAX_CLIPS);
            return def_error(s, msg);
        }
        idx[added++] = ci;
    }
    clip_names_free(names, count);
    return added;
}

static int number_list(const sweep *s, const cJSON *run, int r, const char *field, double fallback, double lo,
                       double hi, bool integer, double *out, int max, int *count)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, field);
    if (!v) {
        out[0] = fallback;
        *count = 1;
        return 0;
    }
    char msg[128];
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0 || cJSON_GetArraySize(v) > max) {
        snprintf(msg, sizeof msg, "run %d: \"%s\" must be a list of 1 to %d numbers", r, field, max);
        return def_error(s, msg);
    }
    *count = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        snprintf(msg, sizeof msg, "run %d: \"%s\"[%d]", r, field, *count);
        if (number_in(s, e, msg, lo, hi, !integer, integer, &out[*count]) != 0)
            return -1;
        (*count)++;
    }
    return 0;
}

/* A run's "targets": {"metric": NAME, "mm": [values]}: every point of the run
 * becomes an equal-error search (animbench match) at each target. */
static int parse_targets(const sweep *s, int r, const cJSON *t, double *mm, int *count, int *metric)
{
    char msg[600];
    static const char *const KNOWN[] = {"metric", "mm", NULL};
    snprintf(msg, sizeof msg, "run %d: targets", r);
    if (!cJSON_IsObject(t)) {
        snprintf(msg, sizeof msg, "run %d: \"targets\" is {\"metric\": \"shell_max_mm\", \"mm\": [0.1, 1]}", r);
        return def_error(s, msg);
    }
    if (known_keys(s, t, msg, KNOWN) != 0)
        return -1;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(t, "metric"), *list = cJSON_GetObjectItemCaseSensitive(t, "mm");
    if (m && (!cJSON_IsString(m) || (*metric = match_metric_find(m->valuestring)) < 0)) {
        int k = snprintf(msg, sizeof msg, "run %d: targets.metric: one of", r);
        for (int i = 0; i < MATCH_METRIC_COUNT && k < (int)sizeof msg; i++)
            k += snprintf(msg + k, sizeof msg - (size_t)k, " %s", MATCH_METRIC_NAMES[i]);
        return def_error(s, msg);
    }
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < 1 || cJSON_GetArraySize(list) > 64) {
        snprintf(msg, sizeof msg, "run %d: targets.mm must be a list of 1 to 64 numbers", r);
        return def_error(s, msg);
    }
    const cJSON *v;
    *count = 0;
    cJSON_ArrayForEach(v, list)
    {
        snprintf(msg, sizeof msg, "run %d: targets.mm[%d]", r, *count);
        if (number_in(s, v, msg, 0, INFINITY, true, false, &mm[*count]) != 0)
            return -1;
        (*count)++;
    }
    return 0;
}

/* The study's lists (tol_mm, lever_m, step) as a run gives them. */
typedef struct legacy_lists {
    const double *values[3];
    int count[3];
    bool given[3];
} legacy_lists;

/* A run's "params": an object whose every key a codec of the run declares,
 * each a list of 1 to 64 values (numbers, or a choice's names). */
static int check_run_params(const sweep *s, int r, const cJSON *params, const cJSON *codecs)
{
    char msg[400];
    if (!cJSON_IsObject(params)) {
        snprintf(msg, sizeof msg, "run %d: \"params\" is an object: {\"NAME\": [values], ...}", r);
        return def_error(s, msg);
    }
    for (const cJSON *e = params->child; e; e = e->next) {
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) < 1 || cJSON_GetArraySize(e) > 64) {
            snprintf(msg, sizeof msg, "run %d: params.%s must be a list of 1 to 64 values", r, e->string);
            return def_error(s, msg);
        }
        bool declared = false;
        const cJSON *cod;
        cJSON_ArrayForEach(cod, codecs)
        {
            const codec *c = cJSON_IsString(cod) ? codec_find(cod->valuestring) : NULL;
            declared |= c && codec_param_index(c, e->string) >= 0;
        }
        if (!declared) {
            snprintf(msg, sizeof msg, "run %d: params.%s: no codec of this run declares a parameter '%s' (animbench "
                     "list shows what each declares)", r, e->string, e->string);
            return def_error(s, msg);
        }
    }
    return 0;
}

/* The values declared parameter i of codec c takes in run r: its list in
 * "params", else the study's list of that name, else its default; each
 * checked against the declaration. */
static int param_values(const sweep *s, int r, const cJSON *params, const legacy_lists *legacy, const codec *c,
                        int i, double *out, int *count)
{
    const codec_param_decl *d = &c->params[i];
    codec_params scratch;
    codec_params_init(c, &scratch);
    char err[400], msg[600];
    *count = 0;
    const cJSON *list = params ? cJSON_GetObjectItemCaseSensitive(params, d->name) : NULL;
    if (list) {
        const cJSON *v;
        cJSON_ArrayForEach(v, list)
        {
            int rc;
            if (cJSON_IsString(v))
                rc = codec_param_set_text(c, &scratch, d->name, v->valuestring, err, sizeof err);
            else if (cJSON_IsNumber(v))
                rc = codec_param_set(c, &scratch, i, v->valuedouble, err, sizeof err);
            else {
                rc = -1;
                snprintf(err, sizeof err, "codec %s: parameter %s: a value is a number or a choice's name", c->name,
                         d->name);
            }
            if (rc != 0) {
                snprintf(msg, sizeof msg, "run %d: params.%s[%d]: %s", r, d->name, *count, err);
                return def_error(s, msg);
            }
            out[(*count)++] = codec_param_get(c, &scratch, i);
        }
        return 0;
    }
    static const char *const LEGACY[3] = {"tol_mm", "lever_m", "step"};
    for (int k = 0; k < 3; k++)
        if (legacy->given[k] && strcmp(d->name, LEGACY[k]) == 0) {
            for (int j = 0; j < legacy->count[k]; j++) {
                if (codec_param_set(c, &scratch, i, legacy->values[k][j], err, sizeof err) != 0) {
                    snprintf(msg, sizeof msg, "run %d: \"%s\"[%d]: %s", r, d->name, j, err);
                    return def_error(s, msg);
                }
                out[(*count)++] = legacy->values[k][j];
            }
            return 0;
        }
    out[(*count)++] = d->def;
    return 0;
}

static sweep_point *new_point(sweep *s)
{
    if (s->point_count == LIMIT_SWEEP_POINTS) {
        char msg[128];
        snprintf(msg, sizeof msg, "more than %d points (the limit of one sweep)", LIMIT_SWEEP_POINTS);
        def_error(s, msg);
        return NULL;
    }
    if (s->point_count == s->point_capacity) {
        const int cap = s->point_capacity ? s->point_capacity * 2 : 256;
        sweep_point *more = realloc(s->points, (size_t)cap * sizeof *more);
        if (!more) {
            def_error(s, "out of memory");
            return NULL;
        }
        s->points = more;
        s->point_capacity = cap;
    }
    sweep_point *p = &s->points[s->point_count++];
    memset(p, 0, sizeof *p);
    return p;
}

/* One point per combination of the parameters' values (an equal-error
 * search at target_mm when is_match). */
static int add_points(sweep *s, int clip, const codec *c, double values[][64], const int *counts, bool histogram,
                      bool is_match, match_metric metric, double target_mm)
{
    int at[CODEC_MAX_PARAMS] = {0};
    char ignored[8];
    for (;;) {
        sweep_point *p = new_point(s);
        if (!p)
            return -1;
        p->clip = clip;
        p->codec = c;
        codec_params_init(c, &p->params);
        for (int i = 0; i < c->param_count && i < CODEC_MAX_PARAMS; i++)
            codec_param_set(c, &p->params, i, values[i][at[i]], ignored, sizeof ignored); /* checked before */
        p->histogram = histogram;
        p->is_match = is_match;
        p->metric = metric;
        p->target_mm = target_mm;
        int i = 0;
        while (i < c->param_count && ++at[i] == counts[i])
            at[i++] = 0;
        if (i >= c->param_count)
            return 0;
    }
}

static int parse_clip_params(sweep *s, const cJSON *cp)
{
    static const char *const KNOWN[] = {"fps", "walk_seconds", "jump_seconds", "seed", NULL};
    if (!cJSON_IsObject(cp))
        return def_error(s, "clip_params must be an object");
    if (known_keys(s, cp, "clip_params", KNOWN) != 0)
        return -1;
    const cJSON *v;
    double seed = 0;
    if ((v = cJSON_GetObjectItemCaseSensitive(cp, "fps")) &&
        number_in(s, v, "clip_params.fps", LIMIT_RATE_MIN_HZ, LIMIT_RATE_MAX_HZ, false, false, &s->clip_params.fps))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(cp, "walk_seconds")) &&
        number_in(s, v, "clip_params.walk_seconds", 0, INFINITY, true, false, &s->clip_params.walk_seconds))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(cp, "jump_seconds")) &&
        number_in(s, v, "clip_params.jump_seconds", 0, INFINITY, true, false, &s->clip_params.jump_seconds))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(cp, "seed"))) {
        if (number_in(s, v, "clip_params.seed", 0, 4294967295.0, false, true, &seed))
            return -1;
        s->clip_params.seed = (uint32_t)seed;
    }
    return 0;
}

static int parse_metrics(sweep *s, const cJSON *mp)
{
    static const char *const KNOWN[] = {"shell_mm", "precision_mm", "substeps", "contact_height_mm",
                                        "contact_speed_m_per_s", NULL};
    if (!cJSON_IsObject(mp))
        return def_error(s, "metrics must be an object");
    if (known_keys(s, mp, "metrics", KNOWN) != 0)
        return -1;
    const cJSON *v;
    double x = 0;
    if ((v = cJSON_GetObjectItemCaseSensitive(mp, "shell_mm"))) {
        if (number_in(s, v, "metrics.shell_mm", 0, INFINITY, true, false, &x))
            return -1;
        s->metrics.shell_distance_m = x / 1000;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(mp, "precision_mm"))) {
        if (number_in(s, v, "metrics.precision_mm", 0, INFINITY, true, false, &x))
            return -1;
        s->metrics.precision_m = x / 1000;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(mp, "substeps"))) {
        if (number_in(s, v, "metrics.substeps", 1, 64, false, true, &x))
            return -1;
        s->metrics.substeps = (int)x;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(mp, "contact_height_mm"))) {
        if (number_in(s, v, "metrics.contact_height_mm", 0, INFINITY, false, false, &x))
            return -1;
        s->metrics.contact.height_m = x / 1000;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(mp, "contact_speed_m_per_s")) &&
        number_in(s, v, "metrics.contact_speed_m_per_s", 0, INFINITY, false, false, &s->metrics.contact.speed_mps))
        return -1;
    return 0;
}

static int parse_definition(sweep *s, const cJSON *doc)
{
    static const char *const TOP[] = {"name", "output", "about", "clip_params", "metrics", "runs", NULL};
    if (!cJSON_IsObject(doc))
        return def_error(s, "a sweep definition is a JSON object");
    if (known_keys(s, doc, "the definition", TOP) != 0)
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "name"),
                *output = cJSON_GetObjectItemCaseSensitive(doc, "output");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
    if (!cJSON_IsString(name) || !cJSON_IsString(output) || !name->valuestring[0] || !output->valuestring[0])
        return def_error(s, "needs non-empty \"name\" and \"output\" strings");
    if (strlen(name->valuestring) >= sizeof s->name || strlen(output->valuestring) >= sizeof s->output - 32)
        return def_error(s, "\"name\" or \"output\" is too long");
    if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0)
        return def_error(s, "needs a non-empty \"runs\" list");
    snprintf(s->name, sizeof s->name, "%s", name->valuestring);
    snprintf(s->output, sizeof s->output, "%s", output->valuestring);
    s->clip_params = CLIP_DEFAULTS;
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(doc, "clip_params");
    if (cp && parse_clip_params(s, cp) != 0)
        return -1;
    metric_params_default(&s->metrics);
    const cJSON *mp = cJSON_GetObjectItemCaseSensitive(doc, "metrics");
    if (mp && parse_metrics(s, mp) != 0)
        return -1;
    static const char *const RUN_KEYS[] = {"clips",  "codecs",        "tol_mm",  "lever_m", "step",
                                           "params", "key_histogram", "targets", NULL};
    int r = 0;
    const cJSON *run;
    cJSON_ArrayForEach(run, runs)
    {
        r++;
        char msg[256];
        snprintf(msg, sizeof msg, "run %d", r);
        if (!cJSON_IsObject(run))
            return def_error(s, "every run is an object");
        if (known_keys(s, run, msg, RUN_KEYS) != 0)
            return -1;
        const cJSON *clips = cJSON_GetObjectItemCaseSensitive(run, "clips"),
                    *codecs = cJSON_GetObjectItemCaseSensitive(run, "codecs");
        if (!cJSON_IsArray(clips) || !cJSON_IsArray(codecs) || !cJSON_GetArraySize(clips) ||
            !cJSON_GetArraySize(codecs)) {
            snprintf(msg, sizeof msg, "run %d needs non-empty \"clips\" and \"codecs\" lists", r);
            return def_error(s, msg);
        }
        double tols[64], levers[16], steps[64];
        int ntol, nlever, nstep;
        if (number_list(s, run, r, "tol_mm", 1.0, 0, INFINITY, false, tols, 64, &ntol) ||
            number_list(s, run, r, "lever_m", 0.35, 0, INFINITY, false, levers, 16, &nlever) ||
            number_list(s, run, r, "step", 2, 1, 65536, true, steps, 64, &nstep))
            return -1;
        const cJSON *run_params = cJSON_GetObjectItemCaseSensitive(run, "params");
        if (run_params && check_run_params(s, r, run_params, codecs) != 0)
            return -1;
        double targets[64];
        int ntargets = 0, target_metric = MATCH_SHELL_MAX;
        const cJSON *tj = cJSON_GetObjectItemCaseSensitive(run, "targets");
        if (tj && parse_targets(s, r, tj, targets, &ntargets, &target_metric) != 0)
            return -1;
        const cJSON *hist = cJSON_GetObjectItemCaseSensitive(run, "key_histogram");
        if (hist && !cJSON_IsBool(hist)) {
            snprintf(msg, sizeof msg, "run %d: \"key_histogram\" is true or false", r);
            return def_error(s, msg);
        }
        const cJSON *clip, *cod;
        static int run_clips[MAX_CLIPS];
        int nrun = 0;
        cJSON_ArrayForEach(clip, clips)
        {
            const int added = clip_entry(s, clip, r, run_clips + nrun, MAX_CLIPS - nrun);
            if (added < 0)
                return -1;
            nrun += added;
        }
        for (int rc_i = 0; rc_i < nrun; rc_i++) {
            const int ci = run_clips[rc_i];
            cJSON_ArrayForEach(cod, codecs)
            {
                const codec *c = cJSON_IsString(cod) ? codec_find(cod->valuestring) : NULL;
                if (!c) {
                    snprintf(msg, sizeof msg, "run %d: unknown codec %s%s%s (animbench list shows them)", r,
                             cJSON_IsString(cod) ? "'" : "", cJSON_IsString(cod) ? cod->valuestring : "(not a string)",
                             cJSON_IsString(cod) ? "'" : "");
                    return def_error(s, msg);
                }
                if (c->flags & CODEC_UNAVAILABLE) {
                    if (rc_i == 0)
                        fprintf(stderr, "sweep: run %d: codec %s skipped: %s\n", r, c->name, ACL_UNAVAILABLE_REASON);
                    continue;
                }
                /* the values of each declared parameter; then their product */
                double values[CODEC_MAX_PARAMS][64];
                int counts[CODEC_MAX_PARAMS];
                const legacy_lists legacy = {{tols, levers, steps},
                                             {ntol, nlever, nstep},
                                             {cJSON_GetObjectItemCaseSensitive(run, "tol_mm") != NULL,
                                              cJSON_GetObjectItemCaseSensitive(run, "lever_m") != NULL,
                                              cJSON_GetObjectItemCaseSensitive(run, "step") != NULL}};
                for (int i = 0; i < c->param_count && i < CODEC_MAX_PARAMS; i++)
                    if (param_values(s, r, run_params, &legacy, c, i, values[i], &counts[i]) != 0)
                        return -1;
                if (ntargets > 0 && codec_knob(c) >= 0) { /* the search sets the knob: one base value */
                    counts[codec_knob(c)] = 1;
                    values[codec_knob(c)][0] = c->params[codec_knob(c)].def;
                }
                for (int t = 0; t < (ntargets > 0 ? ntargets : 1); t++)
                    if (add_points(s, ci, c, values, counts, cJSON_IsTrue(hist), ntargets > 0,
                                   (match_metric)target_metric, ntargets > 0 ? targets[t] : 0) != 0)
                        return -1;
            }
        }
    }
    return 0;
}

static int load_clips(sweep *s)
{
    for (int i = 0; i < s->clip_count; i++) {
        char err[512];
        fprintf(stderr, "[sweep %s] loading clip %d/%d: %s\n", s->name, i + 1, s->clip_count, s->clip_names[i]);
        clip_source *src = clip_source_load(s->clip_names[i], &s->per_clip[i], err, sizeof err);
        if (src && src->warning[0])
            fprintf(stderr, "animbench sweep: warning: %s\n", src->warning);
        s->clips[i] = src ? measured_clip_create(src, &s->metrics, err, sizeof err) : NULL;
        if (!s->clips[i]) {
            fprintf(stderr, "animbench sweep: %s: %s\n", s->path, err);
            return -1;
        }
    }
    return 0;
}

typedef struct batch {
    const sweep *s;
    sweep_point **points;
} batch;

static void measure_job(void *ctx, int index)
{
    const batch *b = ctx;
    sweep_point *p = b->points[index];
    const sweep *s = b->s;
    point_result r;
    const measured_clip *mc = s->clips[p->clip];
    if (p->is_match) {
        match_result m;
        if (match_search(mc, p->codec, &p->params, p->metric, p->target_mm, &m, p->error, sizeof p->error) != 0)
            return;
        p->result = match_point_json(mc, p->codec, &p->params, p->metric, p->target_mm, &m, p->error, sizeof p->error);
        match_result_free(&m);
        if (p->result) /* keyed on the question, not on the setting that answered it */
            cJSON_ReplaceItemInObjectCaseSensitive(p->result, "key", cJSON_CreateString(p->key));
    } else if (measure_point(mc, p->codec, &p->params, p->histogram, &r, p->error, sizeof p->error) == 0) {
        p->result = results_point(mc, &r);
        point_result_free(&r);
    }
    if (p->result) {
        cJSON *owners = cJSON_AddArrayToObject(p->result, "sweeps");
        cJSON_AddItemToArray(owners, owner_json(s->name, s->definition));
    }
}

/* ------------------------------------------------- what is already stored */

/* The definition's path as a stable name: "./a//b.json" and "a/b.json" are
 * the same definition; an absolute path under the working folder is made
 * relative, so that the name does not depend on where the checkout is. */
static void normalise_path(const char *path, char *out, size_t n)
{
    char cwd[4096];
    const char *p = path;
    if (path[0] == '/' && getcwd(cwd, sizeof cwd)) {
        const size_t len = strlen(cwd);
        if (strncmp(path, cwd, len) == 0 && path[len] == '/')
            p = path + len + 1;
    }
    size_t k = 0;
    while (*p && k + 1 < n) {
        if (p[0] == '/' && (k == 0 ? path[0] != '/' || p != path : out[k - 1] == '/')) {
            p++;
            continue;
        }
        if (p[0] == '.' && p[1] == '/' && (k == 0 || out[k - 1] == '/')) {
            p += 2;
            continue;
        }
        out[k++] = *p++;
    }
    out[k] = '\0';
}

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

static int by_key_then_order(const void *a, const void *b)
{
    const stored_point *x = a, *y = b;
    const int c = strcmp(x->key, y->key);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The definition that wrote a results file, from its context's command line
 * (`animbench sweep DEF`), or "" when no sweep wrote it. */
static void writer_definition(const cJSON *doc, char *def, size_t n)
{
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "context"),
                                                        "command_line");
    const cJSON *arg;
    bool is_sweep = false;
    def[0] = '\0';
    cJSON_ArrayForEach(arg, cmd)
    {
        if (!cJSON_IsString(arg))
            continue;
        if (is_sweep && arg->valuestring[0] != '-') {
            normalise_path(arg->valuestring, def, n);
            return;
        }
        is_sweep |= strcmp(arg->valuestring, "sweep") == 0;
    }
}

/* Points written before points named their owners get them now, once: the
 * one-owner form {"sweep": {...}} becomes a list, and a point with none is
 * given the definition that wrote its file (by name when that is this
 * definition), so that ownership never moves to whoever rewrites the file. */
static void stamp_owners(const sweep *s, cJSON *point, const char *writer)
{
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(point, "sweeps")))
        return;
    cJSON *one = cJSON_DetachItemFromObjectCaseSensitive(point, "sweep");
    cJSON *list = cJSON_CreateArray();
    if (one && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(one, "name")) &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(one, "definition")))
        cJSON_AddItemToArray(list, one);
    else {
        cJSON_Delete(one);
        if (writer[0])
            cJSON_AddItemToArray(list, owner_json(strcmp(writer, s->definition) == 0 ? s->name : "?", writer));
    }
    if (cJSON_GetArraySize(list) > 0)
        cJSON_AddItemToObject(point, "sweeps", list);
    else
        cJSON_Delete(list); /* written by run or match: nobody's, kept for good */
}

static int store_add(store *st, int *cap, cJSON *point, bool own)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(point, "key");
    if (!cJSON_IsString(k))
        return 0; /* not a point of ours to match; kept as it is (foreign) below */
    if (st->count == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        stored_point *more = realloc(st->items, (size_t)*cap * sizeof *more);
        if (!more)
            return -1;
        st->items = more;
    }
    st->items[st->count] = (stored_point){k->valuestring, st->count, point, own, false};
    st->count++;
    return 0;
}

/* A journal line is taken only if it is a point as this program writes it:
 * a string key, a codec with a name, a decoded block, and owners that are
 * name and definition strings.  Anything else (the header, a cut line,
 * garbage) is ignored. */
static bool journal_point(const cJSON *p)
{
    const cJSON *owners = cJSON_GetObjectItemCaseSensitive(p, "sweeps"), *o;
    if (!cJSON_IsObject(p) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "key")) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "codec"), "name")) ||
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(p, "decoded")) || !cJSON_IsArray(owners) ||
        cJSON_GetArraySize(owners) < 1)
        return false;
    cJSON_ArrayForEach(o, owners)
    {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "name")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "definition")))
            return false;
    }
    return true;
}

/* Reads the journal a killed run left: every whole line is a point; a line
 * cut by the kill is ignored. */
static int read_journal(const char *path, store *st, char *err, size_t err_size)
{
    size_t len;
    int error_number;
    char *text = read_whole_file(path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, err_size);
    if (!text)
        return error_number == ENOENT ? 0 : -1;
    st->journal_points = cJSON_CreateArray();
    for (char *line = text, *nl; (nl = memchr(line, '\n', len - (size_t)(line - text))); line = nl + 1) {
        cJSON *point = cJSON_ParseWithLength(line, (size_t)(nl - line));
        if (journal_point(point)) {
            cJSON_AddItemToArray(st->journal_points, point);
            st->from_journal++;
        } else {
            cJSON_Delete(point); /* the header line */
        }
    }
    free(text);
    return 0;
}

static void store_free(store *st)
{
    free(st->items);
    cJSON_Delete(st->output_doc);
    cJSON_Delete(st->journal_points);
    memset(st, 0, sizeof *st);
}

static int store_load(const sweep *s, const char *journal, store *st)
{
    memset(st, 0, sizeof *st);
    int missing, cap = 0;
    char err[600];
    st->output_doc = results_read(s->target, &missing, err, sizeof err);
    if (!st->output_doc && !missing) {
        fprintf(stderr, "animbench sweep: %s (move it away or fix it; it was not touched)\n", err);
        return -1;
    }
    if (read_journal(journal, st, err, sizeof err) != 0) {
        fprintf(stderr, "animbench sweep: %s (move it away; it was not touched)\n", err);
        return -1;
    }
    char writer[1024] = "";
    if (st->output_doc)
        writer_definition(st->output_doc, writer, sizeof writer);
    cJSON *p;
    cJSON_ArrayForEach(p, st->journal_points)
    {
        stamp_owners(s, p, "");
        if (store_add(st, &cap, p, owners_has(p, s->name, s->definition)) != 0)
            return -1;
    }
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(st->output_doc, "points"))
    {
        stamp_owners(s, p, writer);
        if (store_add(st, &cap, p, owners_has(p, s->name, s->definition)) != 0)
            return -1;
    }
    if (st->count > 1)
        qsort(st->items, (size_t)st->count, sizeof *st->items, by_key_then_order);
    return 0;
}

/* The first stored point with this key (the journal's, when both have it). */
static stored_point *store_find(store *st, const char *key)
{
    int lo = 0, hi = st->count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (strcmp(st->items[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < st->count && strcmp(st->items[lo].key, key) == 0 ? &st->items[lo] : NULL;
}

static int point_by_key_then_index(const void *a, const void *b)
{
    const sweep_point *x = *(sweep_point *const *)a, *y = *(sweep_point *const *)b;
    const int c = strcmp(x->key, y->key);
    return c ? c : (x > y) - (x < y);
}

static void mark_used(store *st, const char *key)
{
    for (stored_point *sp = store_find(st, key); sp && sp < st->items + st->count && strcmp(sp->key, key) == 0; sp++)
        sp->used = true;
}

/* Adds "sweep 'name' (definition)" of a kept point's owners to a list. */
static void note_owner(const cJSON *point, char *owners, size_t n)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(point, "sweeps");
    const cJSON *o = cJSON_GetArrayItem(list, 0);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name"),
                *def = cJSON_GetObjectItemCaseSensitive(o, "definition");
    char who[700];
    if (cJSON_IsString(name) && cJSON_IsString(def))
        snprintf(who, sizeof who, "sweep '%s' (%s)", name->valuestring, def->valuestring);
    else
        snprintf(who, sizeof who, "points no sweep measured");
    if (strstr(owners, who))
        return;
    const size_t len = strlen(owners);
    if (len + strlen(who) + 8 < n)
        snprintf(owners + len, n - len, "%s%s", len ? ", " : "", who);
    else if (len + 5 < n && !strstr(owners, "..."))
        snprintf(owners + len, n - len, ", ...");
}

/* The output document: the context of this run; every point of the
 * definition that has a result, in definition order, its owners this
 * definition and every other that named it before; then every other stored
 * point, as found, less this definition among its owners.  A point nobody
 * names any more is dropped (*dropped); *changed is set when an owner list
 * changed, so that the file is rewritten. */
static cJSON *assemble(const sweep *s, store *st, int argc, char **argv, int *dropped, int *foreign, bool *changed,
                       char *owners, size_t owners_size)
{
    owners[0] = '\0';
    *dropped = *foreign = 0;
    cJSON *doc = results_document(argc, argv);
    cJSON *points = cJSON_GetObjectItem(doc, "points");
    cJSON *ordinals = NULL;
    if (s->shard_count) {
        cJSON *shard = cJSON_AddObjectToObject(doc, "shard");
        cJSON_AddNumberToObject(shard, "index", s->shard_index);
        cJSON_AddNumberToObject(shard, "count", s->shard_count);
        cJSON_AddStringToObject(shard, "sweep", s->name);
        cJSON_AddStringToObject(shard, "definition", s->definition);
        cJSON_AddStringToObject(shard, "definition_fnv1a64", s->definition_hash);
        cJSON_AddStringToObject(shard, "output", s->merged_output);
        int expected = 0;
        for (int i = 0; i < s->point_count; i++)
            expected += !s->points[i].duplicate && !s->points[i].other_shard;
        cJSON_AddNumberToObject(shard, "points_expected", expected);
        ordinals = cJSON_AddArrayToObject(shard, "ordinals");
    }
    for (int i = 0; i < s->point_count; i++) {
        const sweep_point *p = &s->points[i];
        if (p->duplicate || p->other_shard)
            continue;
        stored_point *sp = store_find(st, p->key);
        const cJSON *point = p->result ? p->result : sp ? sp->point : NULL;
        if (!point)
            continue; /* not measured: failed, or the run stopped first */
        cJSON *copy = cJSON_Duplicate(point, 1);
        if (p->result && sp) /* measured again (--force): whoever else named the stored one still does */
            owners_merge_others(copy, sp->point, s->name, s->definition);
        if (!p->result && owners_add(copy, s->name, s->definition))
            *changed = true;
        cJSON_AddItemToArray(points, copy);
        if (ordinals)
            cJSON_AddItemToArray(ordinals, cJSON_CreateNumber(p->ordinal));
        mark_used(st, p->key);
    }
    const cJSON *sources[2] = {cJSON_GetObjectItemCaseSensitive(st->output_doc, "points"), st->journal_points};
    for (int src = 0; src < 2; src++) {
        const cJSON *old;
        cJSON_ArrayForEach(old, sources[src])
        {
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(old, "key");
            stored_point *sp = cJSON_IsString(k) ? store_find(st, k->valuestring) : NULL;
            if (sp && sp->used)
                continue;
            cJSON *copy = cJSON_Duplicate(old, 1);
            if (owners_has(copy, s->name, s->definition)) {
                *changed = true;
                if (owners_remove(copy, s->name, s->definition) == 0) {
                    (*dropped)++;
                    cJSON_Delete(copy);
                    if (sp)
                        mark_used(st, sp->key);
                    continue;
                }
            }
            cJSON_AddItemToArray(points, copy);
            (*foreign)++;
            note_owner(copy, owners, owners_size);
            if (sp)
                mark_used(st, sp->key);
        }
    }
    for (int i = 0; i < st->count; i++)
        st->items[i].used = false;
    return doc;
}

/* ------------------------------------------------- lock and journal */

typedef struct journal {
    char path[4200];
    FILE *f;
} journal;

static int journal_append(journal *j, const sweep *s, const cJSON *point)
{
    if (!j->f) {
        j->f = fopen(j->path, "a+b");
        if (!j->f)
            return -1;
        /* a line a killed run cut short stays its own (ignored) line */
        if (fseek(j->f, -1, SEEK_END) == 0 && fgetc(j->f) != '\n')
            fputc('\n', j->f);
        fseek(j->f, 0, SEEK_END);
        if (ftell(j->f) == 0) {
            cJSON *head = cJSON_CreateObject();
            cJSON_AddStringToObject(head, "animbench_journal_of", s->output);
            cJSON_AddStringToObject(head, "sweep", s->name);
            cJSON_AddStringToObject(head, "definition", s->definition);
            char *text = cJSON_PrintUnformatted(head);
            cJSON_Delete(head);
            const int bad = !text || fprintf(j->f, "%s\n", text) < 0;
            cJSON_free(text);
            if (bad)
                return -1;
        }
    }
    char *text = cJSON_PrintUnformatted(point);
    const int bad = !text || fprintf(j->f, "%s\n", text) < 0;
    cJSON_free(text);
    return bad ? -1 : 0;
}

static int journal_sync(journal *j)
{
    return !j->f || (fflush(j->f) == 0 && fdatasync(fileno(j->f)) == 0) ? 0 : -1;
}

/* ------------------------------------------------------------- running */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void point_label(const sweep *s, const sweep_point *p, char *out, size_t n)
{
    char params[512];
    codec_params_format(p->codec, &p->params, params, sizeof params);
    snprintf(out, n, "%.400s %s%s", s->clip_names[p->clip], p->codec->name, params);
}

static bool decodes(const cJSON *point)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(point, "decoded"), "ok"));
}

#define SWEEP_USAGE                                                                                        \
    "usage: animbench sweep FILE [--force] [--keep-going] [--shard I/N] [--output-path]\n"                 \
    "  Runs a sweep definition (docs/sweeps.md) into its output, measuring only the points the output\n"   \
    "  lacks for this code version.  --force measures every point again; --keep-going measures every\n"   \
    "  point even when some fail to encode or decode (they are reported, and the exit status is 0).\n"    \
    "  --shard I/N measures the I-th of N parts of the points into the output with .shard-I-of-N before\n" \
    "  its .json, to be joined by `animbench merge` (docs/cluster.md); --output-path prints where the\n"     \
    "  points go.\n"

void sweep_shard_path(const char *output, int index, int count, char *out, size_t n)
{
    const size_t len = strlen(output);
    const bool json = len > 5 && strcmp(output + len - 5, ".json") == 0;
    snprintf(out, n, "%.*s.shard-%d-of-%d%s", (int)(json ? len - 5 : len), output, index, count, json ? ".json" : "");
}

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

int sweep_run(const char *path, const sweep_options *opt, int full_argc, char **full_argv, sweep_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    sweep s = {0};
    s.path = path;
    normalise_path(path, s.definition, sizeof s.definition);
    int missing, lock = -1;
    char err[600];
    cJSON *def = results_read_json(path, &missing, err, sizeof err);
    if (!def) {
        fprintf(stderr, "animbench sweep: %s\n", missing ? "no such sweep definition" : err);
        if (missing)
            fprintf(stderr, "  (looked for %s)\n", path);
        return 2;
    }
    int rc = parse_definition(&s, def);
    cJSON_Delete(def);
    s.shard_index = opt->shard_index;
    s.shard_count = opt->shard_count;
    if (rc == 0 && s.shard_count) {
        size_t len;
        int error_number;
        char *text = read_whole_file(path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, sizeof err);
        if (!text) {
            fprintf(stderr, "animbench sweep: %s\n", err);
            rc = -1;
        } else {
            snprintf(s.definition_hash, sizeof s.definition_hash, "%016llx",
                     (unsigned long long)bytes_fnv1a64(text, len));
            free(text);
        }
        snprintf(s.merged_output, sizeof s.merged_output, "%s", s.output);
        sweep_shard_path(s.merged_output, s.shard_index, s.shard_count, s.output, sizeof s.output);
    }
    if (rc == 0 && results_output_path(s.output, s.target, sizeof s.target, err, sizeof err) != 0) {
        fprintf(stderr, "animbench sweep: %s: \"output\": %s\n", path, err);
        rc = -1;
    }
    if (rc != 0) {
        rc = 2;
        goto done;
    }
    if (opt->print_output) {
        printf("%s\n", s.output);
        goto done;
    }
    if (load_clips(&s) != 0) {
        rc = 2;
        goto done;
    }
    if ((lock = output_lock("sweep", s.target)) < 0) {
        rc = 1;
        goto done;
    }
    journal jr = {{0}, NULL};
    snprintf(jr.path, sizeof jr.path, "%s.journal", s.target);
    struct stat journal_stat;
    const bool journal_existed = stat(jr.path, &journal_stat) == 0;
    store st;
    if (store_load(&s, jr.path, &st) != 0) {
        store_free(&st);
        rc = 1;
        goto done;
    }
    if (st.from_journal)
        fprintf(stderr, "[sweep %s] %d points recovered from %s, left by a run that did not finish\n", s.name,
                st.from_journal, jr.path);
    sweep_point **queue = malloc(((size_t)s.point_count + 1) * sizeof *queue);
    if (!queue) {
        fprintf(stderr, "animbench sweep: out of memory\n");
        store_free(&st);
        rc = 1;
        goto done;
    }
    int todo = 0, skipped = 0, distinct = 0;
    /* duplicates by key, found in one pass over the points sorted by key */
    for (int i = 0; i < s.point_count; i++) {
        sweep_point *p = &s.points[i];
        results_point_key(s.clips[p->clip], p->codec, &p->params, p->key, sizeof p->key);
        if (p->is_match) {
            const size_t len = strlen(p->key);
            snprintf(p->key + len, sizeof p->key - len, "|match %s<=%.17g", MATCH_METRIC_NAMES[p->metric],
                     p->target_mm);
        }
    }
    {
        sweep_point **order = malloc(((size_t)s.point_count + 1) * sizeof *order);
        if (!order) {
            fprintf(stderr, "animbench sweep: out of memory\n");
            free(queue);
            store_free(&st);
            rc = 1;
            goto done;
        }
        for (int i = 0; i < s.point_count; i++)
            order[i] = &s.points[i];
        qsort(order, (size_t)s.point_count, sizeof *order, point_by_key_then_index);
        for (int i = 1; i < s.point_count; i++)
            if (strcmp(order[i]->key, order[i - 1]->key) == 0) {
                sweep_point *first = order[i - 1]->duplicate ? order[i - 1]->stored_first : order[i - 1];
                order[i]->duplicate = true; /* named by two runs: measured once */
                order[i]->stored_first = first;
                first->histogram |= order[i]->histogram;
            }
        /* A shard takes every n-th distinct point in key order (keys lead
         * with the clip, then the codec, so each shard gets a mix of both). */
        for (int i = 0, rank = 0; s.shard_count && i < s.point_count; i++)
            if (!order[i]->duplicate)
                order[i]->other_shard = rank++ % s.shard_count != s.shard_index - 1;
        free(order);
        for (int i = 0, ordinal = 0; i < s.point_count; i++)
            if (!s.points[i].duplicate)
                s.points[i].ordinal = ordinal++;
    }
    for (int i = 0; i < s.point_count; i++) {
        sweep_point *p = &s.points[i];
        if (p->duplicate || p->other_shard)
            continue;
        distinct++;
        const stored_point *sp = store_find(&st, p->key);
        if (sp && !opt->force) {
            p->stored = sp->point;
            skipped++;
        } else {
            queue[todo++] = p;
        }
    }
    fprintf(stderr, "[sweep %s] %d points: %d stored for this code version, %d to measure -> %s\n", s.name, distinct,
            skipped, todo, s.output);
    stats->points = distinct;
    stats->on_disk = skipped;
    stats->recovered = st.from_journal;
    const double start = now_seconds();
    double last_report = start;
    const int batch_size = parallel_thread_count() * 2;
    int failures = 0;
    int attempted = 0;
    for (int done_count = 0; done_count < todo;) {
        const int n = todo - done_count < batch_size ? todo - done_count : batch_size;
        attempted += n;
        batch b = {&s, queue + done_count};
        parallel_for(n, measure_job, &b);
        for (int i = 0; i < n; i++) {
            sweep_point *p = queue[done_count + i];
            char label[1024];
            point_label(&s, p, label, sizeof label);
            if (!p->result) {
                fprintf(stderr, "animbench sweep: %s: %s\n", label, p->error);
                failures++;
                continue;
            }
            stats->measured++;
            if (!decodes(p->result)) {
                const cJSON *why = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(p->result, "decoded"), "error");
                fprintf(stderr, "animbench sweep: %s: the stream does not decode: %s\n", label,
                        cJSON_IsString(why) ? why->valuestring : "(no reason given)");
                failures++;
            }
            if (journal_append(&jr, &s, p->result) != 0) {
                fprintf(stderr, "animbench sweep: cannot append to %s: %s\n", jr.path, strerror(errno));
                rc = 1;
            }
        }
        if (journal_sync(&jr) != 0) {
            fprintf(stderr, "animbench sweep: cannot write %s: %s\n", jr.path, strerror(errno));
            rc = 1;
        }
        done_count += n;
        if (now_seconds() - last_report >= 0.5 || done_count == todo) {
            last_report = now_seconds();
            const sweep_point *last = queue[done_count - 1];
            fprintf(stderr, "[sweep %s] %d/%d measured, %d remaining, %.1f s elapsed (last: %s %s)\n", s.name,
                    done_count, todo, todo - done_count, now_seconds() - start, s.clip_names[last->clip],
                    last->codec->name);
        }
        if (rc != 0 || (failures && !opt->keep_going))
            break;
    }
    if (jr.f)
        fclose(jr.f);
    int dropped = 0, foreign = 0;
    bool owners_changed = false;
    char owners[1024];
    cJSON *doc = assemble(&s, &st, full_argc, full_argv, &dropped, &foreign, &owners_changed, owners, sizeof owners);
    stats->kept_foreign = foreign;
    stats->dropped = dropped;
    int undecodable = 0;
    for (int i = 0; i < s.point_count; i++)
        undecodable += !s.points[i].duplicate && !s.points[i].other_shard && (s.points[i].result || s.points[i].stored) &&
                       !decodes(s.points[i].result ? s.points[i].result : s.points[i].stored);
    stats->undecodable = undecodable;
    stats->failed = failures;
    const bool changed =
        stats->measured > 0 || journal_existed || dropped > 0 || owners_changed || !st.output_doc;
    if (changed) {
        if (results_write(s.target, doc, err, sizeof err) != 0) {
            fprintf(stderr, "animbench sweep: %s (the measured points stay in %s)\n", err, jr.path);
            rc = 1;
        } else if (unlink(jr.path) != 0 && errno != ENOENT) {
            fprintf(stderr, "animbench sweep: cannot remove %s: %s\n", jr.path, strerror(errno));
            rc = 1;
        }
    }
    cJSON_Delete(doc);
    fprintf(stderr, "[sweep %s] done: %d points of this definition (%d measured now, %d stored)%s", s.name, distinct,
            stats->measured, skipped, foreign ? "" : "\n");
    if (foreign)
        fprintf(stderr, "; %d points of other definitions kept in %s: %s\n", foreign, s.output, owners);
    if (dropped)
        fprintf(stderr, "[sweep %s] %d stored points of this definition that it no longer names (or that an older "
                        "code version measured) were replaced\n", s.name, dropped);
    if (!changed)
        fprintf(stderr, "[sweep %s] %s unchanged: every point was already stored\n", s.name, s.output);
    if (attempted < todo)
        fprintf(stderr, "[sweep %s] %d points not attempted: the sweep stopped after the batch that failed\n", s.name,
                todo - attempted);
    if (undecodable || failures) {
        fprintf(stderr, "[sweep %s] %d point%s failed to measure or decode (%d stored that do not decode)%s\n", s.name,
                failures, failures == 1 ? "" : "s", undecodable,
                opt->keep_going ? " (--keep-going: exit status 0)" : "; exit status 1 (--keep-going measures on)");
        if (!opt->keep_going)
            rc = 1;
    }
    store_free(&st);
    for (int i = 0; i < s.point_count; i++)
        cJSON_Delete(s.points[i].result);
    free(queue);
    if (rc == 0 && !s.shard_count) { /* a shard's tables are the merge's */
        rc = export_tables_for(s.target, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "animbench sweep: %s\n", err);
    }
done:
    if (lock >= 0)
        close(lock);
    for (int i = 0; i < s.clip_count; i++) {
        measured_clip_free(s.clips[i]);
        free(s.clip_names[i]);
    }
    free(s.points);
    return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}
