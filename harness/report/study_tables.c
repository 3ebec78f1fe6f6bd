#include "harness/report/study_tables.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/study/study_container.h"
#include "core/gzip_size.h"
#include "core/jsmath.h"
#include "core/limits.h"
#include "generators/study_rig.h"
#include "core/jsfmt.h"
#include "harness/measure/parallel.h"
#include "harness/measure/timing.h"

void study_settings_default(study_settings *s)
{
    static const double SWEEP[] = {0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50};
    memset(s, 0, sizeof *s);
    s->clips = CLIP_DEFAULTS;
    s->tol_mm = 1;
    s->lever_m = 0.35;
    s->sweep_count = (int)(sizeof SWEEP / sizeof SWEEP[0]);
    memcpy(s->sweep_mm, SWEEP, sizeof SWEEP);
    s->timings = true;
    s->timing_runs = 9;
    s->pin_cpu = -1;
}

static int parse_number(const char *flag, const char *text, double *out, char *err, size_t err_size)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        snprintf(err, err_size, "%s: expected a finite number, found '%s'", flag, text);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_list(const char *flag, const char *text, double *values, int *count, char *err,
                      size_t err_size)
{
    *count = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(err, err_size, "%s: expected numbers separated by commas, found '%s'", flag, text);
            return -1;
        }
        if (*count == SWEEP_MAX) {
            snprintf(err, err_size, "%s: at most %d values", flag, SWEEP_MAX);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_number(flag, item, &values[*count], err, err_size) != 0)
            return -1;
        if (!(values[*count] > 0)) {
            snprintf(err, err_size, "%s: tolerances must be above 0 mm, found '%s'", flag, item);
            return -1;
        }
        (*count)++;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* Clip lengths within the limits every clip has (core/limits.h). */
static int check_frames(const char *flag, double seconds, double fps, char *err, size_t err_size)
{
    char why[300];
    if (clip_limits_check(js_round(seconds * fps), STUDY_BONE_COUNT, fps, why, sizeof why) != 0) {
        snprintf(err, err_size, "%s: %g s at %g fps: %s", flag, seconds, fps, why);
        return -1;
    }
    return 0;
}

int study_settings_parse(study_settings *s, int argc, char **argv, char *err, size_t err_size)
{
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--no-timings") == 0) {
            s->timings = false;
            continue;
        }
        if (strcmp(flag, "--runs") != 0 && strcmp(flag, "--fps") != 0 && strcmp(flag, "--walk-seconds") != 0 &&
            strcmp(flag, "--jump-seconds") != 0 && strcmp(flag, "--seed") != 0 &&
            strcmp(flag, "--tol-mm") != 0 && strcmp(flag, "--lever-m") != 0 && strcmp(flag, "--sweep-mm") != 0 &&
            strcmp(flag, "--pin") != 0) {
            snprintf(err, err_size, "unknown option '%s'", flag);
            return -1;
        }
        if (i + 1 >= argc) {
            snprintf(err, err_size, "%s needs a value", flag);
            return -1;
        }
        const char *text = argv[++i];
        double v;
        if (strcmp(flag, "--sweep-mm") == 0) {
            if (parse_list(flag, text, s->sweep_mm, &s->sweep_count, err, err_size) != 0)
                return -1;
            continue;
        }
        if (parse_number(flag, text, &v, err, err_size) != 0)
            return -1;
        const char *bad = NULL;
        if (strcmp(flag, "--fps") == 0) {
            bad = v > 0 ? NULL : "must be above 0";
            s->clips.fps = v;
        } else if (strcmp(flag, "--walk-seconds") == 0) {
            bad = v > 0 ? NULL : "must be above 0";
            s->clips.walk_seconds = v;
        } else if (strcmp(flag, "--jump-seconds") == 0) {
            bad = v > 0 ? NULL : "must be above 0";
            s->clips.jump_seconds = v;
        } else if (strcmp(flag, "--seed") == 0) {
            bad = v >= 0 && v <= 4294967295.0 && v == floor(v) ? NULL : "must be an integer from 0 to 4294967295";
            if (!bad)
                s->clips.seed = (uint32_t)v;
        } else if (strcmp(flag, "--tol-mm") == 0) {
            bad = v > 0 ? NULL : "must be above 0";
            s->tol_mm = v;
        } else if (strcmp(flag, "--lever-m") == 0) {
            bad = v > 0 ? NULL : "must be above 0";
            s->lever_m = v;
        } else if (strcmp(flag, "--pin") == 0) {
            bad = v >= 0 && v <= 4095 && v == floor(v) ? NULL : "must be an integer from 0 to 4095";
            if (!bad)
                s->pin_cpu = (int)v;
        } else if (strcmp(flag, "--runs") == 0) {
            bad = v >= 1 && v <= 1000 && v == floor(v) ? NULL : "must be an integer from 1 to 1000";
            if (!bad)
                s->timing_runs = (int)v;
        }
        if (bad) {
            snprintf(err, err_size, "%s %s: %s", flag, text, bad);
            return -1;
        }
    }
    if (check_frames("--walk-seconds", s->clips.walk_seconds, s->clips.fps, err, err_size) != 0 ||
        check_frames("--jump-seconds", s->clips.jump_seconds, s->clips.fps, err, err_size) != 0)
        return -1;
    return 0;
}

enum { WALK, JUMP, MOCAP, CLIP_COUNT };
static const char *const CLIP_NAMES[CLIP_COUNT] = {"walk", "jump", "mocap"};
/* The script fixes these two tolerances; they do not follow --tol-mm. */
static const double JUMP_TIGHT_MM[2] = {0.1, 1};

typedef struct measured_point {
    int clip;
    plan_options options;
    study_plan *plan;
    byte_buffer bytes;
    size_t gzip;
    joint_error error;
    bool done;
    int status; /* from a worker: 0 or -1 with message */
    char message[256];
} measured_point;

#define CACHE_MAX 256

typedef struct tables_ctx {
    const study_settings *s;
    anim_rig *rig;
    anim_clip *clips[CLIP_COUNT];
    channel_view *views[CLIP_COUNT];
    fk_reference *refs[CLIP_COUNT];
    size_t raw_bytes[CLIP_COUNT], raw_gzip[CLIP_COUNT];
    container_status raw_status[CLIP_COUNT];
    measured_point points[CACHE_MAX];
    int point_count;
    char *err;
    size_t err_size;
} tables_ctx;

static int fail(tables_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->err_size, fmt, ap);
    va_end(ap);
    return -1;
}

static bool same_options(const plan_options *a, const plan_options *b)
{
    return a->reduce_keys == b->reduce_keys && a->cubic == b->cubic && a->quantize == b->quantize &&
           a->drop_constant == b->drop_constant &&
           (!a->reduce_keys || (a->eps_m == b->eps_m && a->eps_deg == b->eps_deg));
}

/* Plans, encodes and measures one point.  Its reconstruction is freed once
 * measured: tables need only its figures, keys and records. */
static int compute_point(const tables_ctx *c, measured_point *m, char *err, size_t err_size)
{
    bytes_init(&m->bytes);
    m->plan = study_plan_create(c->views[m->clip], &m->options);
    if (!m->plan) {
        snprintf(err, err_size, "out of memory while planning the %s clip", CLIP_NAMES[m->clip]);
        return -1;
    }
    container_status st = study_container_write(m->plan, &m->bytes);
    if (st != CONTAINER_OK) {
        snprintf(err, err_size, "%s clip: %s", CLIP_NAMES[m->clip], container_status_message(st));
        return -1;
    }
    m->gzip = gzip_size(m->bytes.data, m->bytes.size);
    if (joint_error_measure(c->refs[m->clip], m->plan->encoder_recon, &m->error) != 0) {
        snprintf(err, err_size, "out of memory while measuring the %s clip", CLIP_NAMES[m->clip]);
        return -1;
    }
    clip_free(m->plan->encoder_recon);
    m->plan->encoder_recon = NULL;
    return 0;
}

/* The point for (clip, options), added to the list if new; a point asked for
 * twice (the walk's 1 mm cubic plan appears in four tables) is computed once. */
static measured_point *find_or_add(tables_ctx *c, int clip, const plan_options *o)
{
    for (int i = 0; i < c->point_count; i++)
        if (c->points[i].clip == clip && same_options(&c->points[i].options, o))
            return &c->points[i];
    if (c->point_count == CACHE_MAX) {
        fail(c, "too many distinct measurements (more than %d); shorten --sweep-mm", CACHE_MAX);
        return NULL;
    }
    measured_point *m = &c->points[c->point_count++];
    memset(m, 0, sizeof *m);
    m->clip = clip;
    m->options = *o;
    return m;
}

static measured_point *measure(tables_ctx *c, int clip, const plan_options *o)
{
    measured_point *m = find_or_add(c, clip, o);
    if (m && !m->done) {
        m->done = true;
        if (compute_point(c, m, c->err, c->err_size) != 0)
            return NULL;
    }
    return m;
}

static plan_options options_at(const tables_ctx *c, double tol_mm, bool cubic, bool quant, bool drop)
{
    plan_options o = {.reduce_keys = true,
                      .eps_m = tol_mm / 1000,
                      .eps_deg = study_tolerance_deg(tol_mm, c->s->lever_m),
                      .cubic = cubic,
                      .quantize = quant,
                      .drop_constant = drop,
                      .reconstruct = true};
    return o;
}

static int setup(tables_ctx *c)
{
    const clip_params *p = &c->s->clips;
    c->rig = study_rig_create();
    if (!c->rig)
        return fail(c, "out of memory creating the rig");
    c->clips[WALK] = study_walk_clip(c->rig, p, false);
    c->clips[JUMP] = study_jump_clip(c->rig, p);
    c->clips[MOCAP] = study_walk_clip(c->rig, p, true);
    for (int i = 0; i < CLIP_COUNT; i++) {
        if (!c->clips[i])
            return fail(c, "out of memory generating the %s clip", CLIP_NAMES[i]);
        c->views[i] = channels_create(c->clips[i]);
        c->refs[i] = fk_reference_create(c->clips[i]);
        if (!c->views[i] || !c->refs[i])
            return fail(c, "out of memory preparing the %s clip", CLIP_NAMES[i]);
    }
    return 0;
}

static void teardown(tables_ctx *c)
{
    for (int i = 0; i < c->point_count; i++) {
        study_plan_free(c->points[i].plan);
        bytes_free(&c->points[i].bytes);
    }
    for (int i = 0; i < CLIP_COUNT; i++) {
        fk_reference_free(c->refs[i]);
        channels_free(c->views[i]);
        clip_free(c->clips[i]);
    }
    rig_free(c->rig);
}

static void print_constant_counts(FILE *out, tables_ctx *c)
{
    char fps[JSFMT_MAX];
    for (int i = 0; i < CLIP_COUNT; i++) {
        const channel_view *v = c->views[i];
        fprintf(out, "%-6s %d frames @%sfps  %d/%d scalar channels constant, %d/%d rotation tracks constant\n",
                CLIP_NAMES[i], v->frame_count, js_number_string(c->s->clips.fps, fps),
                channels_constant_scalars(v), v->scalar_count, channels_constant_rotations(v),
                v->rotation_count);
    }
}

static void print_technique_row(FILE *out, const char *label, size_t bytes, size_t gz, double secs,
                                const joint_error *e)
{
    char bps[JSFMT_MAX], gzbps[JSFMT_MAX], mm[JSFMT_MAX], deg[JSFMT_MAX];
    js_to_fixed(bytes / secs, 0, bps);
    js_to_fixed(gz / secs, 0, gzbps);
    if (e) {
        js_to_fixed(e->max_m * 1000, 2, mm);
        js_to_fixed(e->max_deg, 3, deg);
    } else {
        strcpy(mm, "0");
        strcpy(deg, "0");
    }
    fprintf(out, "%-42s %6zu %7s %7zu %7s %9s %7s\n", label, bytes, bps, gz, gzbps, mm, deg);
}

static double keys_per_track_second(const study_plan *p, int animated, double secs)
{
    return (double)(p->keys_scalar + p->keys_rotation - p->constant_scalars - p->constant_rotations) /
           animated / secs;
}

/* Options of the study's techniques 2-7 at the table's tolerance. */
static void technique_options(const tables_ctx *c, plan_options rows[8])
{
    const double tol = c->s->tol_mm;
    const plan_options all_keys = {.drop_constant = true, .reconstruct = true};
    rows[2] = all_keys;
    rows[3] = options_at(c, tol, false, false, false);
    rows[4] = options_at(c, tol, false, false, true);
    rows[5] = options_at(c, tol, true, false, true);
    rows[6] = options_at(c, tol, true, true, true);
    rows[7] = all_keys;
    rows[7].quantize = true;
}

static int print_technique_tables(FILE *out, tables_ctx *c)
{
    static const char *const LABELS[8] = {
        NULL,
        "1 raw float32, every channel every frame",
        "2 + constant-channel removal (lossless)",
        "3 keyframe reduction only, linear",
        "4 constant removal + linear keyframes",
        "5 constant removal + cubic keyframes",
        "6 5 + 16-bit pos/scale + smallest-3 quat",
        "7 constant removal + quantisation only",
    };
    const double tol = c->s->tol_mm, fps = c->s->clips.fps;
    for (int i = 0; i < CLIP_COUNT; i++) {
        const anim_clip *clip = c->clips[i];
        const double secs = clip->frame_count / fps;
        char s_secs[JSFMT_MAX], s_tol[JSFMT_MAX], s_deg[JSFMT_MAX];
        fprintf(out, "\n### %s \xe2\x80\x94 %s s, tolerance %s mm / %s deg\n", CLIP_NAMES[i],
                js_to_fixed(secs, 2, s_secs), js_number_string(tol, s_tol),
                js_to_fixed(study_tolerance_deg(tol, c->s->lever_m), 3, s_deg));
        fprintf(out, "%-42s  bytes     B/s    gzip   gzB/s  maxErr_mm  maxDeg\n", "technique");

        if (c->raw_status[i] != CONTAINER_OK)
            return fail(c, "%s clip: %s", CLIP_NAMES[i], container_status_message(c->raw_status[i]));
        print_technique_row(out, LABELS[1], c->raw_bytes[i], c->raw_gzip[i], secs, NULL);

        plan_options rows[8];
        technique_options(c, rows);
        const study_plan *plans[8] = {0};
        for (int r = 2; r <= 7; r++) {
            measured_point *m = measure(c, i, &rows[r]);
            if (!m)
                return -1;
            plans[r] = m->plan;
            print_technique_row(out, LABELS[r], m->bytes.size, m->gzip, secs, &m->error);
        }
        const channel_view *v = c->views[i];
        const int animated = (v->scalar_count - plans[4]->constant_scalars) +
                             (v->rotation_count - plans[4]->constant_rotations);
        const double lin = keys_per_track_second(plans[4], animated, secs);
        const double cub = keys_per_track_second(plans[5], animated, secs);
        char a[JSFMT_MAX], b[JSFMT_MAX], d[JSFMT_MAX], e[JSFMT_MAX], f[JSFMT_MAX];
        js_number_string(fps, f);
        fprintf(out,
                "   %d animated tracks; keys kept per animated track per second: linear %s/%s (%s%%), "
                "cubic %s/%s (%s%%)\n",
                animated, js_to_fixed(lin, 1, a), f, js_to_fixed(lin / fps * 100, 1, b), js_to_fixed(cub, 1, d),
                f, js_to_fixed(cub / fps * 100, 1, e));
    }
    return 0;
}

static int print_sweep(FILE *out, tables_ctx *c)
{
    const double secs = c->clips[WALK]->frame_count / c->s->clips.fps;
    fprintf(out, "\n### walk \xe2\x80\x94 tolerance sweep (constant removal always on)\n");
    fprintf(out, "interp  eps_mm  eps_deg    keys   bytes    B/s    gzip  maxErr_mm  maxDeg\n");
    for (int cubic = 0; cubic <= 1; cubic++)
        for (int i = 0; i < c->s->sweep_count; i++) {
            const double mm = c->s->sweep_mm[i];
            const plan_options o = options_at(c, mm, cubic, false, true);
            measured_point *m = measure(c, WALK, &o);
            if (!m)
                return -1;
            char smm[JSFMT_MAX], sdeg[JSFMT_MAX], bps[JSFMT_MAX], err[JSFMT_MAX], deg[JSFMT_MAX];
            fprintf(out, "%s %7s %8s %7ld %7zu %6s %7zu %10s %7s\n", cubic ? "cubic" : "lin  ",
                    js_number_string(mm, smm), js_to_fixed(o.eps_deg, 3, sdeg),
                    m->plan->keys_scalar + m->plan->keys_rotation, m->bytes.size,
                    js_to_fixed(m->bytes.size / secs, 0, bps), m->gzip,
                    js_to_fixed(m->error.max_m * 1000, 2, err), js_to_fixed(m->error.max_deg, 3, deg));
        }
    return 0;
}

static int print_jump_tight(FILE *out, tables_ctx *c)
{
    fprintf(out, "\n### jump \xe2\x80\x94 does a cubic curve help at a tight tolerance?\n");
    for (int t = 0; t < 2; t++)
        for (int cubic = 0; cubic <= 1; cubic++) {
            const plan_options o = options_at(c, JUMP_TIGHT_MM[t], cubic, false, true);
            measured_point *m = measure(c, JUMP, &o);
            if (!m)
                return -1;
            char smm[JSFMT_MAX], err[JSFMT_MAX];
            fprintf(out, "%s %5s mm  keys %5ld  bytes %6zu  maxErr %s mm\n", cubic ? "cubic" : "lin  ",
                    js_number_string(JUMP_TIGHT_MM[t], smm), m->plan->keys_scalar + m->plan->keys_rotation,
                    m->bytes.size, js_to_fixed(m->error.max_m * 1000, 2, err));
        }
    return 0;
}

static void print_gzip_part(FILE *out, const char *what, const byte_buffer *b, const char *sep)
{
    const size_t gz = gzip_size(b->data, b->size);
    char ratio[JSFMT_MAX];
    fprintf(out, "%s %zu B -> %zu B (%sx)%s", what, b->size, gz, js_to_fixed((double)b->size / gz, 2, ratio),
            sep);
}

static int print_gzip_by_record(FILE *out, tables_ctx *c)
{
    fprintf(out, "\n### gzip on the packed stream, by record type (walk, cubic keys)\n");
    for (int quant = 0; quant <= 1; quant++) {
        const plan_options o = options_at(c, c->s->tol_mm, true, quant, true);
        measured_point *m = measure(c, WALK, &o);
        if (!m)
            return -1;
        const study_plan *p = m->plan;
        byte_buffer konst, animated, whole;
        bytes_init(&konst);
        bytes_init(&animated);
        bytes_init(&whole);
        container_status st = CONTAINER_OK;
        for (int i = 0; i < p->view->scalar_count && st == CONTAINER_OK; i++)
            st = study_container_scalar_record(p, i, p->scalars[i].is_constant ? &konst : &animated);
        for (int i = 0; i < p->view->rotation_count && st == CONTAINER_OK; i++)
            st = study_container_rotation_record(p, i, p->rotations[i].is_constant ? &konst : &animated);
        if (st == CONTAINER_OK && !(bytes_append(&whole, konst.data, konst.size) &&
                                    bytes_append(&whole, animated.data, animated.size)))
            st = CONTAINER_NO_MEMORY;
        if (st == CONTAINER_OK) {
            fprintf(out, "%s: ", quant ? "quantised keys" : "float32 keys");
            print_gzip_part(out, "constant", &konst, ", ");
            print_gzip_part(out, "animated", &animated, ", ");
            print_gzip_part(out, "whole", &whole, "\n");
        }
        bytes_free(&konst);
        bytes_free(&animated);
        bytes_free(&whole);
        if (st != CONTAINER_OK)
            return fail(c, "walk clip: %s", container_status_message(st));
    }
    return 0;
}

static void print_pixels(FILE *out)
{
    static const int PX[] = {48, 64, 128, 256, 512, 1080};
    fprintf(out, "\n### 1.8 m character: millimetres per screen pixel\n");
    for (size_t i = 0; i < sizeof PX / sizeof PX[0]; i++) {
        char mm[JSFMT_MAX];
        fprintf(out, "%s%dpx=%smm", i ? "  " : "", PX[i], js_to_fixed(1800.0 / PX[i], 2, mm));
    }
    fputc('\n', out);
}

/* The jump's phases, in seconds (study_jump_height).  The script writes the
 * frame ranges for 60 fps (18, 29, 32, 66, 71, 87, 120); they are
 * Math.round(time * fps), which is how they follow --fps here. */
static int print_jump_keys(FILE *out, tables_ctx *c)
{
    static const struct {
        const char *name;
        double start;
    } PHASES[] = {{"idle", 0.00},    {"crouch", 0.30}, {"launch", 0.48}, {"airborne", 0.54},
                  {"impact", 1.10},  {"recover", 1.18}, {"settle", 1.45}};
    const int phase_count = (int)(sizeof PHASES / sizeof PHASES[0]);
    const plan_options o = options_at(c, c->s->tol_mm, false, false, true);
    measured_point *m = measure(c, JUMP, &o);
    if (!m)
        return -1;
    const study_plan *p = m->plan;
    const int n = c->clips[JUMP]->frame_count;
    const double fps = c->s->clips.fps;
    long *hist = calloc((size_t)n, sizeof *hist);
    if (!hist)
        return fail(c, "out of memory");
    for (int i = 0; i < p->view->scalar_count; i++)
        if (!p->scalars[i].is_constant)
            for (int k = 0; k < p->scalars[i].key_count; k++)
                hist[p->scalars[i].keys[k]]++;
    for (int i = 0; i < p->view->rotation_count; i++)
        if (!p->rotations[i].is_constant)
            for (int k = 0; k < p->rotations[i].key_count; k++)
                hist[p->rotations[i].keys[k]]++;
    long total = 0;
    for (int f = 0; f < n; f++)
        total += hist[f];
    fprintf(out, "\n### jump: where the keyframes land\n");
    for (int i = 0; i < phase_count; i++) {
        const double t0 = PHASES[i].start;
        const double t1 = i + 1 < phase_count ? PHASES[i + 1].start : c->s->clips.jump_seconds;
        int a = (int)js_round(t0 * fps), b = i + 1 < phase_count ? (int)js_round(t1 * fps) : n;
        a = a < 0 ? 0 : a > n ? n : a;
        b = b < a ? a : b > n ? n : b;
        long s = 0;
        for (int f = a; f < b; f++)
            s += hist[f];
        char label[64], st0[JSFMT_MAX], st1[JSFMT_MAX], pct[JSFMT_MAX], per[JSFMT_MAX];
        snprintf(label, sizeof label, "%s-%s %s", js_to_fixed(t0, 2, st0), js_to_fixed(t1, 2, st1), PHASES[i].name);
        fprintf(out, "%-19s %3d frames  %4ld keys (%5s%%, %5s keys/frame)\n", label, b - a, s,
                js_to_fixed((double)s / total * 100, 1, pct), js_to_fixed((double)s / (b - a), 1, per));
    }
    fprintf(out, "total animated keys %ld over %d frames\n", total, n);
    free(hist);
    return 0;
}

static void raw_job(tables_ctx *c, int clip)
{
    byte_buffer raw;
    bytes_init(&raw);
    c->raw_status[clip] = study_raw_write(c->clips[clip], &raw);
    c->raw_bytes[clip] = raw.size;
    c->raw_gzip[clip] = c->raw_status[clip] == CONTAINER_OK ? gzip_size(raw.data, raw.size) : 0;
    bytes_free(&raw);
}

static void measure_job(void *ctx, int index)
{
    tables_ctx *c = ctx;
    if (index < CLIP_COUNT) {
        raw_job(c, index);
        return;
    }
    measured_point *m = &c->points[index - CLIP_COUNT];
    if (!m->done)
        m->status = compute_point(c, m, m->message, sizeof m->message);
}

/* Lists every point the tables print and measures them on all cores before
 * printing.  A point missing from this list is still measured when printed,
 * only later and on one core. */
static int measure_all(tables_ctx *c)
{
    plan_options rows[8];
    technique_options(c, rows);
    for (int i = 0; i < CLIP_COUNT; i++)
        for (int r = 2; r <= 7; r++)
            if (!find_or_add(c, i, &rows[r]))
                return -1;
    for (int cubic = 0; cubic <= 1; cubic++)
        for (int i = 0; i < c->s->sweep_count; i++) {
            const plan_options o = options_at(c, c->s->sweep_mm[i], cubic, false, true);
            if (!find_or_add(c, WALK, &o))
                return -1;
        }
    for (int t = 0; t < 2; t++)
        for (int cubic = 0; cubic <= 1; cubic++) {
            const plan_options o = options_at(c, JUMP_TIGHT_MM[t], cubic, false, true);
            if (!find_or_add(c, JUMP, &o))
                return -1;
        }
    parallel_for(CLIP_COUNT + c->point_count, measure_job, c);
    for (int i = 0; i < c->point_count; i++) {
        measured_point *m = &c->points[i];
        if (!m->done) {
            m->done = true;
            if (m->status != 0)
                return fail(c, "%s", m->message);
        }
    }
    return 0;
}

/* The timing tables run after every deterministic figure is measured, on
 * one thread, so nothing else competes for the core. */
static int print_timing_table(FILE *out, tables_ctx *c, bool playback)
{
    clip_source *src = clip_source_load("walk", &c->s->clips, c->err, c->err_size);
    measured_clip *walk = src ? measured_clip_create(src, NULL, c->err, c->err_size) : NULL;
    if (!walk)
        return -1;
    study_timing_input in = {walk, c->s->tol_mm, c->s->lever_m, {0, 0, -1}};
    timer_config_default(&in.timer);
    in.timer.runs = c->s->timing_runs;
    in.timer.pin_cpu = c->s->pin_cpu;
    const int rc = playback ? study_timings_print_playback(out, &in, c->err, c->err_size)
                            : study_timings_print_decode(out, &in, c->err, c->err_size);
    measured_clip_free(walk);
    return rc;
}

int study_tables_print(FILE *out, const study_settings *s, char *err, size_t err_size)
{
    tables_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    c->s = s;
    c->err = err;
    c->err_size = err_size;
    int rc = setup(c);
    if (rc == 0)
        rc = measure_all(c);
    if (rc == 0) {
        print_constant_counts(out, c);
        rc = print_technique_tables(out, c);
    }
    if (rc == 0)
        rc = print_sweep(out, c);
    if (rc == 0)
        rc = print_jump_tight(out, c);
    if (rc == 0 && s->timings)
        rc = print_timing_table(out, c, false);
    if (rc == 0)
        rc = print_gzip_by_record(out, c);
    if (rc == 0)
        print_pixels(out);
    if (rc == 0 && s->timings)
        rc = print_timing_table(out, c, true);
    if (rc == 0)
        rc = print_jump_keys(out, c);
    teardown(c);
    free(c);
    return rc;
}
