#include "harness/measure/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/study/track_codecs.h"
#include "core/hot.h"
#include "core/pcg32.h"
#include "core/jsfmt.h"

const char *const PATTERN_NAMES[PATTERN_COUNT] = {"study", "sequential", "seek", "playback"};

void pattern_times(time_pattern p, int frames, double fps, double *times, int count)
{
    pcg32 rng;
    pcg32_seed(&rng, 2026, p == PATTERN_PLAYBACK ? 12 : 11);
    const double span = frames - 1, step = fps / 60.0;
    double t = p == PATTERN_PLAYBACK ? pcg32_unit(&rng) * span : 0;
    for (int i = 0; i < count; i++) {
        switch (p) {
        case PATTERN_STUDY:
            times[i] = fmod(i * 0.7, frames - 1.001);
            break;
        case PATTERN_SEQUENTIAL:
            times[i] = i % frames;
            break;
        case PATTERN_PLAYBACK:
            times[i] = t;
            t += step;
            if (t >= span)
                t -= span;
            break;
        default:
            times[i] = pcg32_unit(&rng) * span;
            break;
        }
    }
}

/* ---------------------------------------------------------------- poses */

typedef struct pose_bench {
    const codec *c;
    codec_sampler *s;
    const double *times;
    unsigned mask, next;
    double *pose;
    double sink;
} pose_bench;

static void pose_bench_run(void *payload, size_t reps)
{
    pose_bench *b = payload;
    void (*sample)(codec_sampler *, double, double *) = b->c->ops->sample;
    double sink = 0;
    unsigned i = b->next;
    for (size_t r = 0; r < reps; r++) {
        sample(b->s, b->times[i], b->pose);
        sink += b->pose[0];
        i = (i + 1) & b->mask;
    }
    b->next = i;
    b->sink += sink;
}

typedef struct decode_bench {
    const codec *c;
    const uint8_t *bytes;
    size_t size;
    const anim_rig *rig;
    int failures;
} decode_bench;

static void decode_bench_run(void *payload, size_t reps)
{
    decode_bench *b = payload;
    char err[8];
    for (size_t r = 0; r < reps; r++) {
        anim_clip *clip = b->c->ops->decode(b->c, b->bytes, b->size, b->rig, err, sizeof err);
        b->failures += clip == NULL;
        clip_free(clip);
    }
}

typedef struct encode_bench {
    const codec *c;
    const codec_input *in;
    const codec_params *p;
    int failures;
} encode_bench;

static void encode_bench_run(void *payload, size_t reps)
{
    encode_bench *b = payload;
    char err[8];
    for (size_t r = 0; r < reps; r++) {
        codec_output out;
        codec_output_init(&out);
        b->failures += b->c->ops->encode(b->c, b->in, b->p, &out, err, sizeof err) != 0;
        codec_output_free(&out);
    }
}

/* The check described in timing.h, over every time of the pattern. */
static int check_poses(const codec *c, codec_sampler *s, const anim_clip *dec, const double *times, int count,
                       char *err, size_t err_size)
{
    const int nb = dec->rig->bone_count, nv = nb * POSE_STRIDE, n = dec->frame_count;
    double *pose = malloc((size_t)nv * sizeof *pose), *ref = malloc((size_t)nv * 4 * sizeof *ref);
    int rc = 0;
    const bool raw = strcmp(c->name, "raw") == 0;
    for (int i = 0; i < count && rc == 0; i++) {
        const double t = times[i];
        c->ops->sample(s, t, pose);
        const int f0 = (int)floor(t);
        if (t == f0) {
            clip_get_pose(dec, f0, ref);
            for (int v = 0; v < nv; v++)
                if (!(fabs(pose[v] - ref[v]) <= (raw ? 1e-6 : 1e-9))) {
                    snprintf(err, err_size, "%s: pose at frame %d value %d is %.9g, the full decode has %.9g", c->name,
                             f0, v, pose[v], ref[v]);
                    rc = -1;
                    break;
                }
            continue;
        }
        int fr[4];
        for (int k = 0; k < 4; k++) {
            fr[k] = f0 - 1 + k;
            fr[k] = fr[k] < 0 ? 0 : fr[k] >= n ? n - 1 : fr[k];
            clip_get_pose(dec, fr[k], ref + (size_t)k * nv);
        }
        for (int v = 0; v < nv && rc == 0; v++) {
            double lo = INFINITY, hi = -INFINITY;
            for (int k = 0; k < 4; k++) {
                double x = ref[(size_t)k * nv + v];
                if (v % POSE_STRIDE >= 3 && v % POSE_STRIDE < 7) /* rotations: either sign */
                    lo = fmin(lo, -fabs(x)), hi = fmax(hi, fabs(x));
                else
                    lo = fmin(lo, x), hi = fmax(hi, x);
            }
            double slack = (hi - lo) + 1e-9;
            /* s'(t) * s_parent(t), both interpolated: the spine of the squashing jump reaches
             * 1.0000254 between frames where every frame has 1 (ACL's own world scale is this product) */
            if ((c->flags & CODEC_COMPOSED_SCALE) && v % POSE_STRIDE >= 7)
                slack += 1e-3 * fmax(fabs(lo), fabs(hi));
            if (c->flags & CODEC_FLOAT_DECODE) /* 8 float32 ulps */
                slack += 1e-6 * fmax(fabs(lo), fabs(hi));
            if (!(pose[v] >= lo - slack && pose[v] <= hi + slack)) {
                snprintf(err, err_size, "%s: pose at t = %.4f value %d is %.9g, outside [%.9g, %.9g] around the full "
                         "decode", c->name, t, v, pose[v], lo - slack, hi + slack);
                rc = -1;
            }
        }
        for (int b = 0; b < nb && rc == 0 && !raw; b++) {
            const double *q = pose + b * POSE_STRIDE + 3;
            const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(fabs(len - 1) < 1e-9)) {
                snprintf(err, err_size, "%s: rotation of bone %d at t = %.4f has length %.12g", c->name, b, t, len);
                rc = -1;
            }
        }
    }
    free(pose);
    free(ref);
    return rc;
}

int time_codec(const measured_clip *mc, const codec *c, const codec_params *p, const timer_config *tc,
               unsigned what, codec_timings *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    bytes_init(&out->stream);
    const anim_clip *clip = mc->source->clip;
    const anim_rig *rig = clip->rig;
    const codec_input in = {clip, mc->view, false};
    codec_output enc;
    codec_output_init(&enc);
    char msg[256] = "";
    if (c->ops->encode(c, &in, p, &enc, msg, sizeof msg) != 0) {
        snprintf(err, err_size, "%s: encoding failed: %s", c->name, msg);
        codec_output_free(&enc);
        return -1;
    }
    out->frames = clip->frame_count;
    out->bones = rig->bone_count;
    double *times = malloc(STUDY_TIME_COUNT * sizeof *times);
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    int rc = 0;
    if (!times || !pose || !bytes_append(&out->stream, enc.bytes.data, enc.bytes.size)) {
        snprintf(err, err_size, "out of memory");
        rc = -1;
    }
    /* what the sampler holds, over a pass of the playback pattern, before anything is timed */
    if (rc == 0) {
        pattern_times(PATTERN_PLAYBACK, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
        rc = runtime_sampler_memory(c, enc.bytes.data, enc.bytes.size, rig, clip->frame_count, times,
                                    STUDY_TIME_COUNT, &out->memory, msg, sizeof msg);
        if (rc != 0)
            snprintf(err, err_size, "%s: %s", c->name, msg);
    }
    anim_clip *dec = rc == 0 ? c->ops->decode(c, enc.bytes.data, enc.bytes.size, rig, msg, sizeof msg) : NULL;
    codec_sampler *s = dec ? c->ops->sampler_create(c, enc.bytes.data, enc.bytes.size, rig, msg, sizeof msg) : NULL;
    if (rc == 0 && (!dec || !s)) {
        snprintf(err, err_size, "%s: %s", c->name, msg[0] ? msg : "out of memory");
        rc = -1;
    }
    for (int pat = 0; pat < PATTERN_COUNT && rc == 0; pat++) {
        if (!(what & (1u << pat)))
            continue;
        pattern_times((time_pattern)pat, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
        pose_bench b = {c, s, times, STUDY_TIME_COUNT - 1, 0, pose, 0};
        if (timer_measure(pose_bench_run, &b, tc, &out->pattern[pat]) != 0) {
            snprintf(err, err_size, "cannot pin to CPU %d", tc->pin_cpu);
            rc = -1;
        }
        if (rc == 0)
            rc = check_poses(c, s, dec, times, STUDY_TIME_COUNT, err, err_size);
        out->timed |= 1u << pat;
    }
    if (rc == 0 && (what & TIME_FIRST_POSE)) {
        pattern_times(PATTERN_SEEK, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
        rc = runtime_time_first_pose(c, enc.bytes.data, enc.bytes.size, rig, times, STUDY_TIME_COUNT, tc,
                                     &out->first_pose, err, err_size);
        out->timed |= TIME_FIRST_POSE;
    }
    timer_config whole = *tc;
    if (rc == 0 && (what & TIME_WHOLE_CLIP)) {
        decode_bench d = {c, enc.bytes.data, enc.bytes.size, rig, 0};
        timer_measure(decode_bench_run, &d, &whole, &out->whole_clip);
        if (d.failures) {
            snprintf(err, err_size, "%s: the decoder failed during timing", c->name);
            rc = -1;
        }
        out->ns_per_joint_sample = out->whole_clip.median_ns / ((double)clip->frame_count * rig->bone_count);
        out->timed |= TIME_WHOLE_CLIP;
    }
    if (rc == 0 && (what & TIME_ENCODE)) {
        encode_bench e = {c, &in, p, 0};
        timer_measure(encode_bench_run, &e, &whole, &out->encode);
        if (e.failures) {
            snprintf(err, err_size, "%s: the encoder failed during timing", c->name);
            rc = -1;
        }
        out->timed |= TIME_ENCODE;
    }
    free(times);
    free(pose);
    if (s)
        c->ops->sampler_free(s);
    clip_free(dec);
    codec_output_free(&enc);
    return rc;
}

int codec_timings_merge(codec_timings *into, const codec_timings *more, char *err, size_t err_size)
{
    if (into->timed != more->timed || into->frames != more->frames || into->bones != more->bones) {
        snprintf(err, err_size, "the rounds timed different things");
        return -1;
    }
    /* a deterministic encoder writes the same bytes every round: anything else is a defect to report,
     * not a timing to average */
    size_t same = 0;
    while (same < into->stream.size && same < more->stream.size && into->stream.data[same] == more->stream.data[same])
        same++;
    if (same < into->stream.size || same < more->stream.size) {
        snprintf(err, err_size,
                 "the encoder wrote different bytes in two rounds (%zu and %zu bytes, first differing at byte %zu)",
                 into->stream.size, more->stream.size, same);
        return -1;
    }
    timer_result *parts[PATTERN_COUNT + 3];
    const timer_result *from[PATTERN_COUNT + 3];
    for (int p = 0; p < PATTERN_COUNT; p++) {
        parts[p] = &into->pattern[p];
        from[p] = &more->pattern[p];
    }
    parts[PATTERN_COUNT] = &into->first_pose, from[PATTERN_COUNT] = &more->first_pose;
    parts[PATTERN_COUNT + 1] = &into->whole_clip, from[PATTERN_COUNT + 1] = &more->whole_clip;
    parts[PATTERN_COUNT + 2] = &into->encode, from[PATTERN_COUNT + 2] = &more->encode;
    for (int i = 0; i < PATTERN_COUNT + 3; i++)
        if ((into->timed & (1u << i)) && timer_merge(parts[i], from[i]) != 0) {
            snprintf(err, err_size, "more than %d runs in all", TIMER_MAX_RUNS);
            return -1;
        }
    if (into->timed & TIME_WHOLE_CLIP)
        into->ns_per_joint_sample = into->whole_clip.median_ns / ((double)into->frames * into->bones);
    return 0;
}

/* ------------------------------------------------------------- ceilings */

typedef struct raw_frames {
    const float *frames; /* frame_count * values */
    int frame_count, values;
    const double *times;
    unsigned mask, next;
    float *out;
    double sink;
} raw_frames;

static void copy_pose_run(void *payload, size_t reps)
{
    raw_frames *r = payload;
    unsigned i = r->next;
    for (size_t k = 0; k < reps; k++) {
        const int f = (int)r->times[i];
        memcpy(r->out, r->frames + (size_t)f * r->values, (size_t)r->values * sizeof *r->out);
        r->sink += r->out[0];
        i = (i + 1) & r->mask;
    }
    r->next = i;
}

HOT_KERNEL static void lerp_kernel(float *restrict out, const float *restrict a, const float *restrict b, float u, int n)
{
    for (int v = 0; v < n; v++)
        out[v] = a[v] + (b[v] - a[v]) * u;
}

static void lerp_pose_run(void *payload, size_t reps)
{
    raw_frames *r = payload;
    unsigned i = r->next;
    for (size_t k = 0; k < reps; k++) {
        const double t = r->times[i];
        const int f0 = (int)t, f1 = f0 + 1 < r->frame_count ? f0 + 1 : f0;
        lerp_kernel(r->out, r->frames + (size_t)f0 * r->values, r->frames + (size_t)f1 * r->values,
                    (float)(t - f0), r->values);
        r->sink += r->out[0];
        i = (i + 1) & r->mask;
    }
    r->next = i;
}

int time_ceilings(const measured_clip *mc, const timer_config *tc, timer_result *copy, timer_result *lerp,
                  char *err, size_t err_size)
{
    const anim_clip *clip = mc->source->clip;
    const int nv = clip->rig->bone_count * POSE_STRIDE;
    float *frames = malloc((size_t)clip->frame_count * nv * sizeof *frames);
    float *out = malloc((size_t)nv * sizeof *out);
    double *pose = malloc((size_t)nv * sizeof *pose);
    double *times = malloc(STUDY_TIME_COUNT * sizeof *times);
    if (!frames || !out || !pose || !times) {
        free(frames), free(out), free(pose), free(times);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (int f = 0; f < clip->frame_count; f++) {
        clip_get_pose(clip, f, pose);
        for (int v = 0; v < nv; v++)
            frames[(size_t)f * nv + v] = (float)pose[v];
    }
    pattern_times(PATTERN_STUDY, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
    raw_frames r = {frames, clip->frame_count, nv, times, STUDY_TIME_COUNT - 1, 0, out, 0};
    int rc = timer_measure(copy_pose_run, &r, tc, copy);
    if (rc == 0)
        rc = timer_measure(lerp_pose_run, &r, tc, lerp);
    if (rc != 0)
        snprintf(err, err_size, "cannot pin to CPU %d", tc->pin_cpu);
    free(frames), free(out), free(pose), free(times);
    return rc;
}

cJSON *timer_result_json(const timer_result *r, const char *unit)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "unit", unit);
    cJSON_AddNumberToObject(j, "median_ns", r->median_ns);
    cJSON_AddNumberToObject(j, "min_ns", r->min_ns);
    cJSON_AddNumberToObject(j, "max_ns", r->max_ns);
    cJSON_AddNumberToObject(j, "reps_per_run", (double)r->reps_per_run);
    cJSON_AddNumberToObject(j, "max_over_min", timer_spread(r));
    cJSON_AddBoolToObject(j, "noisy", !(timer_spread(r) <= TIMER_NOISY_SPREAD));
    /* of the timed runs' wall time: the timing thread's wait for its CPU, the pinned CPU's steal, and
     * the other work on the machine in CPUs (bench_timer.h) */
    if (isnan(r->waited_share))
        cJSON_AddNullToObject(j, "waited_share");
    else
        cJSON_AddNumberToObject(j, "waited_share", r->waited_share);
    if (isnan(r->steal_share))
        cJSON_AddNullToObject(j, "steal_share");
    else
        cJSON_AddNumberToObject(j, "steal_share", r->steal_share);
    if (isnan(r->others_busy_cpus))
        cJSON_AddNullToObject(j, "others_busy_cpus");
    else
        cJSON_AddNumberToObject(j, "others_busy_cpus", r->others_busy_cpus);
    cJSON_AddBoolToObject(j, "contended", timer_contended(r));
    cJSON *runs = cJSON_AddArrayToObject(j, "runs_ns");
    for (int i = 0; i < r->runs; i++)
        cJSON_AddItemToArray(runs, cJSON_CreateNumber(r->ns[i]));
    return j;
}

/* --------------------------------------------------- the study's tables */

/* The study's line, with our note on the runs' spread inside its brackets. */
static void print_timing_line(FILE *out, const char *label, const timer_result *r, int pinned_cpu)
{
    char med[JSFMT_MAX], note[96];
    timer_noise_note(r, pinned_cpu, note, sizeof note);
    fprintf(out, "%-46s %5s ns per skeleton sample   (min %.0f, max %.0f, %d runs%s%s)\n", label,
            js_to_fixed(r->median_ns, 0, med), r->min_ns, r->max_ns, r->runs, note[0] ? "; " : "", note);
}

static void build_warning(FILE *out)
{
    if (!timer_build_optimised())
        fprintf(out, "(warning: this build is not optimised; these timings do not mean much)\n");
}

int study_timings_print_decode(FILE *out, const study_timing_input *in, char *err, size_t err_size)
{
    static const struct {
        const char *label, *codec;
    } ROWS[] = {
        {"raw float32, lerp between two frames", "raw"},
        {"linear keyframes, binary search + lerp", "linear"},
        {"cubic keyframes, binary search + Hermite", "cubic"},
        {"quantised cubic keys, dequantise + Hermite", "cubic-q-sc"},
    };
    const codec_params p = {in->tol_mm, in->lever_m, 2, {0}};
    timer_result rows[4];
    for (int i = 0; i < 4; i++) {
        codec_timings t;
        const int rc = time_codec(in->walk, codec_find(ROWS[i].codec), &p, &in->timer, 1u << PATTERN_STUDY, &t, err,
                                  err_size);
        bytes_free(&t.stream);
        if (rc != 0)
            return -1;
        rows[i] = t.pattern[PATTERN_STUDY];
    }
    fprintf(out, "\n### decode cost, one full %d-bone pose (%d values)\n", in->walk->source->clip->rig->bone_count,
            in->walk->source->clip->rig->bone_count * 10);
    build_warning(out);
    for (int i = 0; i < 4; i++)
        print_timing_line(out, ROWS[i].label, &rows[i], in->timer.pin_cpu);
    return 0;
}

/* The study's sequential-playback comparison: the cubic plan's scalar
 * channels (decoded, as the study does, by lerp), a binary search per track
 * against a per-track cursor that advances forward. */
typedef struct scalar_playback {
    const track_sampler *s;
    int tracks;
    const int *animated; /* indices of the animated channels */
    int animated_count;
    int *cursor;
    double *out;
    const double *times;
    unsigned mask, next;
    double sink;
} scalar_playback;

static inline double lerp_keys(const key_frame *f, const double *v, int c, double t)
{
    return v[c] + (v[c + 1] - v[c]) * ((t - f[c]) / (f[c + 1] - f[c]));
}

/* Both loops copy the constant channels from the decoder's constant values
 * and search only the animated ones: the comparison is about the search. */
HOT_KERNEL static void playback_binary(void *payload, size_t reps)
{
    scalar_playback *p = payload;
    unsigned i = p->next;
    for (size_t r = 0; r < reps; r++) {
        const double t = p->times[i];
        memcpy(p->out, p->s->all_constant, (size_t)p->tracks * sizeof *p->out);
        for (int a = 0; a < p->animated_count; a++) {
            const int k = p->animated[a];
            const key_frame *f = p->s->frames + p->s->all_offset[k];
            p->out[k] = lerp_keys(f, p->s->values + p->s->all_offset[k], track_find_pair(f, p->s->all_count[k], t), t);
        }
        p->sink += p->out[0];
        i = (i + 1) & p->mask;
    }
    p->next = i;
}

HOT_KERNEL static void playback_cursor(void *payload, size_t reps)
{
    scalar_playback *p = payload;
    unsigned i = p->next;
    for (size_t r = 0; r < reps; r++) {
        const double t = p->times[i];
        memcpy(p->out, p->s->all_constant, (size_t)p->tracks * sizeof *p->out);
        for (int a = 0; a < p->animated_count; a++) {
            const int k = p->animated[a], n = p->s->all_count[k];
            const key_frame *f = p->s->frames + p->s->all_offset[k];
            int c = p->cursor[k];
            if (f[c] > t)
                c = 0;
            while (c + 2 < n && f[c + 1] <= t)
                c++;
            p->cursor[k] = c;
            p->out[k] = lerp_keys(f, p->s->values + p->s->all_offset[k], c, t);
        }
        p->sink += p->out[0];
        i = (i + 1) & p->mask;
    }
    p->next = i;
}

int study_timings_print_playback(FILE *out, const study_timing_input *in, char *err, size_t err_size)
{
    const anim_clip *clip = in->walk->source->clip;
    const codec *c = codec_find("cubic");
    const codec_params p = {in->tol_mm, in->lever_m, 2, {0}};
    const codec_input ci = {clip, in->walk->view, false};
    codec_output enc;
    codec_output_init(&enc);
    char msg[256] = "";
    codec_sampler *s = NULL;
    if (c->ops->encode(c, &ci, &p, &enc, msg, sizeof msg) == 0)
        s = c->ops->sampler_create(c, enc.bytes.data, enc.bytes.size, clip->rig, msg, sizeof msg);
    if (!s) {
        snprintf(err, err_size, "cubic on walk: %s", msg);
        codec_output_free(&enc);
        return -1;
    }
    const track_sampler *ts = track_codec_sampler_tracks(s);
    const int tracks = clip->rig->bone_count * 6;
    double *times = malloc(STUDY_TIME_COUNT * sizeof *times), *vals = malloc((size_t)tracks * sizeof *vals);
    int *cursor = calloc((size_t)tracks, sizeof *cursor);
    int *animated = calloc((size_t)tracks, sizeof *animated), animated_count = 0;
    for (int k = 0; k < tracks; k++)
        if (ts->all_count[k])
            animated[animated_count++] = k;
    pattern_times(PATTERN_STUDY, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
    scalar_playback a = {ts, tracks, animated, animated_count, cursor, vals, times, STUDY_TIME_COUNT - 1, 0, 0}, b = a;
    timer_result bin, cur;
    int rc = timer_measure(playback_binary, &a, &in->timer, &bin) | timer_measure(playback_cursor, &b, &in->timer, &cur);
    if (rc != 0)
        snprintf(err, err_size, "cannot pin to CPU %d", in->timer.pin_cpu);
    else {
        fprintf(out, "\n### sequential playback, %d scalar channels only\n", tracks);
        build_warning(out);
        print_timing_line(out, "binary search per track", &bin, in->timer.pin_cpu);
        print_timing_line(out, "cached cursor, advance forward", &cur, in->timer.pin_cpu);
    }
    free(times);
    free(vals);
    free(cursor);
    free(animated);
    c->ops->sampler_free(s);
    codec_output_free(&enc);
    return rc;
}
