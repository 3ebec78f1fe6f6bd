/* `animbench sweep FILE`: runs a sweep definition (docs/sweeps.md).
 *
 * A sweep is a declared product of clips, codecs and parameter lists.  Every
 * point is stored with its parameters; a point already in the output for the
 * same code version, clip and parameters is skipped unless --force; the
 * output is rewritten atomically after every batch, so a sweep killed midway
 * leaves a whole file and a rerun measures only what is missing.  Tables for
 * plotting are exported from the stored results afterwards. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../codecs/acl_codec.h"
#include "commands.h"
#include "export.h"
#include "measure.h"
#include "parallel.h"
#include "provenance.h"
#include "results.h"
#include "sweep.h"

#define MAX_POINTS 20000
#define MAX_CLIPS 256

typedef struct sweep_point {
    int clip;          /* index into the clip cache */
    const codec *codec;
    codec_params params;
    bool histogram;
    bool duplicate;
    char key[512];
    /* filled by a worker */
    cJSON *result;
    char error[512];
} sweep_point;

typedef struct sweep {
    const char *path;
    char name[128], output[1024];
    clip_params clip_params;
    metric_params metrics;
    char *clip_names[MAX_CLIPS];
    clip_params per_clip[MAX_CLIPS];
    measured_clip *clips[MAX_CLIPS];
    int clip_count;
    sweep_point *points;
    int point_count;
} sweep;

static int def_error(const sweep *s, const char *what)
{
    fprintf(stderr, "animbench sweep: %s: %s\n", s->path, what);
    return -1;
}

static int clip_index(sweep *s, const char *name, const clip_params *p)
{
    for (int i = 0; i < s->clip_count; i++)
        if (strcmp(s->clip_names[i], name) == 0)
            return i;
    if (s->clip_count == MAX_CLIPS)
        return -1;
    s->clip_names[s->clip_count] = strdup(name);
    s->per_clip[s->clip_count] = *p;
    return s->clip_count++;
}

/* A clip entry: a name or path (a folder stands for its .bvh files), or
 * {"clip": NAME, "unit_m": X, "up": "y" | "z"}.  Returns the count added to
 * idx, or -1 after a message. */
static int clip_entry(sweep *s, const cJSON *e, int run, int *idx, int max)
{
    char msg[600];
    const cJSON *name = cJSON_IsString(e) ? e : cJSON_GetObjectItem(e, "clip");
    if (!cJSON_IsString(name)) {
        snprintf(msg, sizeof msg, "run %d: a clip is a name or {\"clip\": NAME, \"unit_m\": X, \"up\": \"y\"}", run);
        return def_error(s, msg);
    }
    clip_params p = s->clip_params;
    if (cJSON_IsObject(e)) {
        for (const cJSON *k = e->child; k; k = k->next)
            if (strcmp(k->string, "clip") != 0 && strcmp(k->string, "unit_m") != 0 && strcmp(k->string, "up") != 0) {
                snprintf(msg, sizeof msg, "run %d, clip '%s': unknown field '%s'", run, name->valuestring, k->string);
                return def_error(s, msg);
            }
        const cJSON *unit = cJSON_GetObjectItem(e, "unit_m"), *up = cJSON_GetObjectItem(e, "up");
        if (unit && (!cJSON_IsNumber(unit) || !(unit->valuedouble > 0))) {
            snprintf(msg, sizeof msg, "run %d, clip '%s': unit_m must be a number above 0", run, name->valuestring);
            return def_error(s, msg);
        }
        if (up && (!cJSON_IsString(up) || (strcmp(up->valuestring, "y") != 0 && strcmp(up->valuestring, "z") != 0))) {
            snprintf(msg, sizeof msg, "run %d, clip '%s': up must be \"y\" or \"z\"", run, name->valuestring);
            return def_error(s, msg);
        }
        if (unit)
            p.unit_m = unit->valuedouble;
        if (up)
            p.up_axis = up->valuestring[0] == 'y' ? 1 : 2;
    }
    char **names, err[512];
    const int count = clip_expand(name->valuestring, &names, err, sizeof err);
    if (count == 0) {
        snprintf(msg, sizeof msg, "run %d: %s", run, err);
        return def_error(s, msg);
    }
    int added = 0;
    for (int i = 0; i < count && added < max; i++) {
        const int ci = clip_index(s, names[i], &p);
        if (ci < 0) {
            clip_names_free(names, count);
            return def_error(s, "too many distinct clips");
        }
        idx[added++] = ci;
    }
    clip_names_free(names, count);
    return added;
}

static int number_list(const sweep *s, const cJSON *run, const char *field, double fallback, double *out, int max,
                       int *count)
{
    const cJSON *v = cJSON_GetObjectItem(run, field);
    if (!v) {
        out[0] = fallback;
        *count = 1;
        return 0;
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0 || cJSON_GetArraySize(v) > max) {
        char msg[128];
        snprintf(msg, sizeof msg, "\"%s\" must be a list of 1 to %d numbers", field, max);
        return def_error(s, msg);
    }
    *count = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsNumber(e) || !(e->valuedouble > 0) || !isfinite(e->valuedouble)) {
            char msg[128];
            snprintf(msg, sizeof msg, "\"%s\" holds a value that is not a number above 0", field);
            return def_error(s, msg);
        }
        out[(*count)++] = e->valuedouble;
    }
    return 0;
}

static int parse_definition(sweep *s, const cJSON *doc)
{
    const cJSON *name = cJSON_GetObjectItem(doc, "name"), *output = cJSON_GetObjectItem(doc, "output");
    const cJSON *runs = cJSON_GetObjectItem(doc, "runs");
    if (!cJSON_IsString(name) || !cJSON_IsString(output))
        return def_error(s, "needs \"name\" and \"output\" strings");
    if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0)
        return def_error(s, "needs a non-empty \"runs\" list");
    snprintf(s->name, sizeof s->name, "%s", name->valuestring);
    snprintf(s->output, sizeof s->output, "%s", output->valuestring);
    s->clip_params = CLIP_DEFAULTS;
    const cJSON *cp = cJSON_GetObjectItem(doc, "clip_params");
    if (cp) {
        static const char *const KNOWN[] = {"fps", "walk_seconds", "jump_seconds", "seed", NULL};
        for (const cJSON *e = cp->child; e; e = e->next) {
            int known = 0;
            for (int k = 0; KNOWN[k]; k++)
                known |= strcmp(e->string, KNOWN[k]) == 0;
            if (!known || !cJSON_IsNumber(e) || !(e->valuedouble >= 0)) {
                char msg[160];
                snprintf(msg, sizeof msg, "clip_params.%s: unknown, or not a number of 0 or more", e->string);
                return def_error(s, msg);
            }
        }
        const cJSON *v;
        if ((v = cJSON_GetObjectItem(cp, "fps")) && v->valuedouble > 0)
            s->clip_params.fps = v->valuedouble;
        if ((v = cJSON_GetObjectItem(cp, "walk_seconds")) && v->valuedouble > 0)
            s->clip_params.walk_seconds = v->valuedouble;
        if ((v = cJSON_GetObjectItem(cp, "jump_seconds")) && v->valuedouble > 0)
            s->clip_params.jump_seconds = v->valuedouble;
        if ((v = cJSON_GetObjectItem(cp, "seed")))
            s->clip_params.seed = (uint32_t)v->valuedouble;
    }
    metric_params_default(&s->metrics);
    const cJSON *mp = cJSON_GetObjectItem(doc, "metrics");
    if (mp) {
        static const char *const KNOWN[] = {"shell_mm", "precision_mm", "substeps", "contact_height_mm",
                                            "contact_speed_m_per_s", NULL};
        for (const cJSON *e = mp->child; e; e = e->next) {
            int known = 0;
            for (int k = 0; KNOWN[k]; k++)
                known |= strcmp(e->string, KNOWN[k]) == 0;
            if (!known || !cJSON_IsNumber(e) || !(e->valuedouble >= 0) ||
                (strcmp(e->string, "substeps") == 0 && (e->valuedouble < 1 || e->valuedouble > 64))) {
                char msg[160];
                snprintf(msg, sizeof msg, "metrics.%s: unknown, or not a number in range", e->string);
                return def_error(s, msg);
            }
        }
        const cJSON *v;
        if ((v = cJSON_GetObjectItem(mp, "shell_mm")) && v->valuedouble > 0)
            s->metrics.shell_distance_m = v->valuedouble / 1000;
        if ((v = cJSON_GetObjectItem(mp, "precision_mm")) && v->valuedouble > 0)
            s->metrics.precision_m = v->valuedouble / 1000;
        if ((v = cJSON_GetObjectItem(mp, "substeps")))
            s->metrics.substeps = (int)v->valuedouble;
        if ((v = cJSON_GetObjectItem(mp, "contact_height_mm")))
            s->metrics.contact.height_m = v->valuedouble / 1000;
        if ((v = cJSON_GetObjectItem(mp, "contact_speed_m_per_s")))
            s->metrics.contact.speed_mps = v->valuedouble;
    }
    s->points = calloc(MAX_POINTS, sizeof *s->points);
    if (!s->points)
        return def_error(s, "out of memory");
    int r = 0;
    const cJSON *run;
    cJSON_ArrayForEach(run, runs)
    {
        r++;
        const cJSON *clips = cJSON_GetObjectItem(run, "clips"), *codecs = cJSON_GetObjectItem(run, "codecs");
        char msg[256];
        if (!cJSON_IsArray(clips) || !cJSON_IsArray(codecs) || !cJSON_GetArraySize(clips) ||
            !cJSON_GetArraySize(codecs)) {
            snprintf(msg, sizeof msg, "run %d needs non-empty \"clips\" and \"codecs\" lists", r);
            return def_error(s, msg);
        }
        double tols[64], levers[16], steps[64];
        int ntol, nlever, nstep;
        if (number_list(s, run, "tol_mm", 1.0, tols, 64, &ntol) || number_list(s, run, "lever_m", 0.35, levers, 16, &nlever) ||
            number_list(s, run, "step", 2, steps, 64, &nstep))
            return -1;
        const cJSON *hist = cJSON_GetObjectItem(run, "key_histogram");
        const cJSON *clip, *cod;
        int run_clips[MAX_CLIPS], nrun = 0;
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
                const int nt = c->flags & CODEC_USES_TOLERANCE ? ntol : 1;
                const int nl = c->flags & CODEC_USES_TOLERANCE ? nlever : 1;
                const int ns = c->flags & CODEC_USES_STEP ? nstep : 1;
                for (int t = 0; t < nt; t++)
                    for (int l = 0; l < nl; l++)
                        for (int k = 0; k < ns; k++) {
                            if (s->point_count == MAX_POINTS)
                                return def_error(s, "more than 20000 points");
                            sweep_point *p = &s->points[s->point_count++];
                            p->clip = ci;
                            p->codec = c;
                            p->params = (codec_params){c->flags & CODEC_USES_TOLERANCE ? tols[t] : 1.0,
                                                       c->flags & CODEC_USES_TOLERANCE ? levers[l] : 0.35,
                                                       c->flags & CODEC_USES_STEP ? (int)steps[k] : 2};
                            p->histogram = cJSON_IsTrue(hist);
                        }
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
    if (measure_point(mc, p->codec, &p->params, p->histogram, &r, p->error, sizeof p->error) == 0) {
        p->result = results_point(mc, &r);
        point_result_free(&r);
    }
}

/* The output document: the context of this run, then every point of the
 * definition that has a result, in definition order. */
static cJSON *assemble(const sweep *s, cJSON *existing, int argc, char **argv)
{
    cJSON *doc = results_document(argc, argv);
    cJSON *points = cJSON_GetObjectItem(doc, "points");
    for (int i = 0; i < s->point_count; i++) {
        const sweep_point *p = &s->points[i];
        if (p->duplicate)
            continue;
        if (p->result) {
            cJSON_AddItemToArray(points, cJSON_Duplicate(p->result, 1));
            continue;
        }
        const cJSON *old;
        cJSON_ArrayForEach(old, cJSON_GetObjectItem(existing, "points"))
        {
            const cJSON *k = cJSON_GetObjectItem(old, "key");
            if (cJSON_IsString(k) && strcmp(k->valuestring, p->key) == 0) {
                cJSON_AddItemToArray(points, cJSON_Duplicate(old, 1));
                break;
            }
        }
    }
    return doc;
}

static bool on_disk(const cJSON *existing, const char *key)
{
    const cJSON *old;
    cJSON_ArrayForEach(old, cJSON_GetObjectItem(existing, "points"))
    {
        const cJSON *k = cJSON_GetObjectItem(old, "key");
        if (cJSON_IsString(k) && strcmp(k->valuestring, key) == 0)
            return true;
    }
    return false;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int cmd_sweep(int argc, char **argv, int full_argc, char **full_argv)
{
    const char *path = NULL;
    bool force = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0)
            force = true;
        else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "usage: animbench sweep FILE [--force]\n");
            return 2;
        } else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: animbench sweep FILE [--force]\n");
        return 2;
    }
    sweep_stats stats;
    return sweep_run(path, force, full_argc, full_argv, &stats);
}

int sweep_run(const char *path, bool force, int full_argc, char **full_argv, sweep_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    sweep s = {0};
    s.path = path;
    int missing;
    char err[512];
    cJSON *def = results_read_json(path, &missing, err, sizeof err);
    if (!def) {
        fprintf(stderr, "animbench sweep: %s\n", missing ? "no such sweep definition" : err);
        if (missing)
            fprintf(stderr, "  (looked for %s)\n", path);
        return 2;
    }
    int rc = parse_definition(&s, def);
    cJSON_Delete(def);
    if (rc == 0)
        rc = load_clips(&s);
    cJSON *existing = NULL;
    if (rc == 0) {
        existing = results_read(s.output, &missing, err, sizeof err);
        if (!existing && !missing) {
            fprintf(stderr, "animbench sweep: %s (move it away or fix it; it was not touched)\n", err);
            rc = -1;
        }
    }
    if (rc != 0) {
        cJSON_Delete(existing);
        goto done;
    }
    sweep_point **queue = malloc(((size_t)s.point_count + 1) * sizeof *queue);
    int todo = 0, skipped = 0, distinct = 0;
    for (int i = 0; i < s.point_count; i++) {
        results_point_key(s.clips[s.points[i].clip], s.points[i].codec, &s.points[i].params, s.points[i].key,
                          sizeof s.points[i].key);
        for (int j = 0; j < i; j++)
            if (strcmp(s.points[j].key, s.points[i].key) == 0) {
                s.points[i].duplicate = true; /* named by two runs: measured once */
                s.points[j].histogram |= s.points[i].histogram;
            }
    }
    for (int i = 0; i < s.point_count; i++) {
        if (s.points[i].duplicate)
            continue;
        distinct++;
        if (!force && existing && on_disk(existing, s.points[i].key))
            skipped++;
        else
            queue[todo++] = &s.points[i];
    }
    fprintf(stderr, "[sweep %s] %d points: %d on disk for this code version, %d to measure -> %s\n", s.name,
            distinct, skipped, todo, s.output);
    stats->points = distinct;
    stats->on_disk = skipped;
    const double start = now_seconds();
    double last_report = start;
    const int batch_size = parallel_thread_count() * 2;
    for (int done_count = 0; done_count < todo || (todo == 0 && done_count == 0);) {
        const int n = todo - done_count < batch_size ? todo - done_count : batch_size;
        batch b = {&s, queue + done_count};
        if (n > 0)
            parallel_for(n, measure_job, &b);
        for (int i = 0; i < n; i++) {
            sweep_point *p = queue[done_count + i];
            stats->measured += p->result != NULL;
            if (!p->result) {
                fprintf(stderr, "animbench sweep: %s\n", p->error);
                rc = -1;
            }
        }
        done_count += n;
        cJSON *doc = assemble(&s, existing, full_argc, full_argv);
        if (results_write(s.output, doc, err, sizeof err) != 0) {
            fprintf(stderr, "animbench sweep: %s\n", err);
            rc = -1;
        }
        cJSON_Delete(doc);
        if (n > 0 && (now_seconds() - last_report >= 0.5 || done_count == todo)) {
            last_report = now_seconds();
            const sweep_point *last = queue[done_count - 1];
            fprintf(stderr, "[sweep %s] %d/%d measured, %d remaining, %.1f s elapsed (last: %s %s)\n", s.name,
                    done_count, todo, todo - done_count, now_seconds() - start, s.clip_names[last->clip],
                    last->codec->name);
        }
        if (rc != 0 || todo == 0)
            break;
    }
    cJSON_Delete(existing);
    for (int i = 0; i < s.point_count; i++)
        cJSON_Delete(s.points[i].result);
    free(queue);
    if (rc == 0) {
        rc = export_tables_for(s.output, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "animbench sweep: %s\n", err);
    }
done:
    for (int i = 0; i < s.clip_count; i++) {
        measured_clip_free(s.clips[i]);
        free(s.clip_names[i]);
    }
    free(s.points);
    return rc == 0 ? 0 : 1;
}
