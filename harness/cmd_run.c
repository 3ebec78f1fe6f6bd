/* `animbench list` and `animbench run`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codecs/study_plan.h"
#include "commands.h"
#include "measure.h"
#include "results.h"

int cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 0) {
        fprintf(stderr, "animbench list: takes no arguments\n");
        return 2;
    }
    printf("codecs (codecs/registry.c):\n");
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        printf("  %-12s %s%s%s\n", c->name, c->description, c->flags & CODEC_USES_TOLERANCE ? " [--tol-mm]" : "",
               c->flags & CODEC_USES_STEP ? " [--step]" : "");
    }
    printf("clips:\n"
           "  walk         study: 1 Hz gait, 3 s at 60 fps, 30 bones (--walk-seconds, --fps)\n"
           "  jump         study: piecewise jump with squash and stretch, 2 s (--jump-seconds, --fps)\n"
           "  mocap        study: the walk plus LCG jitter, +-0.12 deg and +-0.4 mm (--seed)\n"
           "metrics (core/):\n"
           "  max_mm, mean_mm  world-space joint displacement after forward kinematics (error_joint.c)\n"
           "  max_deg          world-space joint rotation error (error_joint.c)\n");
    return 0;
}

/* Flags shared by run and sweep for a clip and a codec point. */
typedef struct run_options {
    const char *clip, *codec, *json;
    study_clip_params clip_params;
    codec_params params;
} run_options;

static int parse_value(const char *flag, const char *text, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !isfinite(*v)) {
        fprintf(stderr, "animbench run: %s: expected a number, found '%s'\n", flag, text);
        return -1;
    }
    return 0;
}

static int parse_run(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    o->clip_params = STUDY_CLIP_DEFAULTS;
    o->params = (codec_params){1.0, 0.35, 2};
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "animbench run: %s needs a value\n", flag);
            return -1;
        }
        const char *val = argv[++i];
        double v = 0;
        if (strcmp(flag, "--clip") == 0)
            o->clip = val;
        else if (strcmp(flag, "--codec") == 0)
            o->codec = val;
        else if (strcmp(flag, "--json") == 0)
            o->json = val;
        else if (parse_value(flag, val, &v) != 0)
            return -1;
        else if (strcmp(flag, "--tol-mm") == 0 && v > 0)
            o->params.tol_mm = v;
        else if (strcmp(flag, "--lever-m") == 0 && v > 0)
            o->params.lever_m = v;
        else if (strcmp(flag, "--step") == 0 && v >= 1 && v <= 1e6 && v == floor(v))
            o->params.step = (int)v;
        else if (strcmp(flag, "--fps") == 0 && v > 0)
            o->clip_params.fps = v;
        else if (strcmp(flag, "--walk-seconds") == 0 && v > 0)
            o->clip_params.walk_seconds = v;
        else if (strcmp(flag, "--jump-seconds") == 0 && v > 0)
            o->clip_params.jump_seconds = v;
        else if (strcmp(flag, "--seed") == 0 && v >= 0 && v <= 4294967295.0 && v == floor(v))
            o->clip_params.seed = (uint32_t)v;
        else {
            fprintf(stderr, "animbench run: %s %s: unknown option or value out of range\n", flag, val);
            return -1;
        }
    }
    if (!o->clip || !o->codec) {
        fprintf(stderr, "usage: animbench run --clip NAME --codec NAME [--tol-mm X] [--lever-m X] [--step N]\n"
                        "                     [--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N] [--json FILE]\n");
        return -1;
    }
    return 0;
}

static void print_error_line(const char *label, const anim_rig *rig, const joint_error *e)
{
    printf("%-28s max %9.4f mm  mean %8.4f mm  max %7.4f deg  (worst: %s, frame %d)\n", label, e->max_m * 1000,
           e->mean_m * 1000, e->max_deg, rig->names[e->worst_bone], e->worst_frame);
}

void print_point_report(const measured_clip *mc, const point_result *r)
{
    const anim_clip *clip = mc->source->clip;
    const double secs = clip->frame_count / clip->fps;
    const codec *c = r->codec;
    printf("clip   %s (%s): %d frames at %g fps, %d bones, samples %016llx\n", mc->source->name,
           mc->source->generator, clip->frame_count, clip->fps, clip->rig->bone_count,
           (unsigned long long)mc->source->sample_hash);
    printf("codec  %s: %s\n", c->name, c->description);
    if (c->flags & CODEC_USES_TOLERANCE)
        printf("params tolerance %g mm, lever %g m (%.4f deg)\n", r->params.tol_mm, r->params.lever_m,
               study_tolerance_deg(r->params.tol_mm, r->params.lever_m));
    if (c->flags & CODEC_USES_STEP)
        printf("params step %d\n", r->params.step);
    printf("bytes  %zu (%.0f B/s), gzip %zu (%.0f B/s), keys %ld\n", r->bytes, r->bytes / secs, r->gzip_bytes,
           r->gzip_bytes / secs, r->keys);
    if (r->decoded_ok)
        print_error_line("error, decoded from bytes:", clip->rig, &r->decoded);
    else
        printf("error, decoded from bytes:   DECODE FAILED: %s\n", r->decode_error);
    if (r->has_encoder) {
        print_error_line("error, encoder's own recon:", clip->rig, &r->encoder);
        if (r->decoded_ok)
            printf("%-28s %+.4f mm in max joint error\n", "decoded minus encoder:",
                   (r->decoded.max_m - r->encoder.max_m) * 1000);
    }
    if (c->flags & CODEC_NOT_SELF_CONTAINED)
        printf("note   this layout is not self-contained: its bytes alone do not decode to the clip whose\n"
               "       error the encoder reports (docs/findings.md)\n");
}

int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
    run_options o;
    if (parse_run(argc, argv, &o) != 0)
        return 2;
    const codec *c = codec_find(o.codec);
    if (!c) {
        fprintf(stderr, "animbench run: unknown codec '%s' (animbench list shows them)\n", o.codec);
        return 2;
    }
    char err[512];
    clip_source *src = clip_source_load(o.clip, &o.clip_params, err, sizeof err);
    measured_clip *mc = src ? measured_clip_create(src, err, sizeof err) : NULL;
    if (!mc) {
        fprintf(stderr, "animbench run: %s\n", err);
        return 2;
    }
    point_result r;
    int rc = measure_point(mc, c, &o.params, false, &r, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "animbench run: %s\n", err);
        measured_clip_free(mc);
        return 1;
    }
    print_point_report(mc, &r);
    if (o.json) {
        cJSON *doc = results_document(full_argc, full_argv);
        cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"), results_point(mc, &r));
        rc = results_write(o.json, doc, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "animbench run: %s\n", err);
        cJSON_Delete(doc);
    }
    point_result_free(&r);
    measured_clip_free(mc);
    return rc == 0 ? (r.decoded_ok ? 0 : 1) : 1;
}
