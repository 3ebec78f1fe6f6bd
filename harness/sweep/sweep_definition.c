/* Reading a sweep definition (docs/sweeps.md) into points, and loading its clips. */
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

#include "codecs/acl/acl_codec.h"
#include "harness/sweep/results.h"
#include "harness/sweep/sweep.h"
#include "harness/sweep/sweep_internal.h"

/* The definition's path as a stable name: "./a//b.json" and "a/b.json" are
 * the same definition; an absolute path under the working folder is made
 * relative, so that the name does not depend on where the checkout is. */
void sweep_normalise_path(const char *path, char *out, size_t n)
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
        p.unit_given = unit != NULL;
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

int sweep_parse_definition(sweep *s, const cJSON *doc)
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
                        fprintf(stderr, "sweep: run %d: codec %s skipped: %s\n", r, c->name, codec_unavailable_reason(c));
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

int sweep_load_clips(sweep *s)
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


int sweep_definition_clips(const char *path, char ***names, clip_params **params, int *count)
{
    *names = NULL;
    *params = NULL;
    *count = 0;
    sweep *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->path = path;
    sweep_normalise_path(path, s->definition, sizeof s->definition);
    int missing, rc = -1;
    char err[600];
    cJSON *def = results_read_json(path, &missing, err, sizeof err);
    if (!def)
        fprintf(stderr, "animbench: %s: %s\n", path, missing ? "no such sweep definition" : err);
    else if (sweep_parse_definition(s, def) == 0 && s->clip_count > 0) {
        *names = calloc((size_t)s->clip_count, sizeof **names);
        *params = calloc((size_t)s->clip_count, sizeof **params);
        if (*names && *params) {
            for (int i = 0; i < s->clip_count; i++) {
                (*names)[i] = s->clip_names[i];
                (*params)[i] = s->per_clip[i];
                s->clip_names[i] = NULL;
            }
            *count = s->clip_count;
            rc = 0;
        }
    }
    cJSON_Delete(def);
    for (int i = 0; i < s->clip_count; i++)
        free(s->clip_names[i]);
    free(s->points);
    free(s);
    return rc;
}
