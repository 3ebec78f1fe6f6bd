/* `animbench list` and `animbench run`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/study/study_plan.h"
#include "generators/scene_import.h"
#include "harness/commands/commands.h"
#include "harness/measure/runtime.h"
#include "harness/measure/timing.h"
#include "harness/commands/cli_flags.h"
#include "harness/sweep/results.h"

int cmd_list(int argc, char **argv)
{
    if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        printf("usage: animbench list\n  The codecs of the registry, the clips and the metrics.\n");
        return 0;
    }
    if (argc > 0) {
        fprintf(stderr, "animbench list: takes no arguments, found '%s'\n", argv[0]);
        return 2;
    }
    printf("codecs (codecs/registry.c), with the parameters each declares (run --param NAME=VALUE):\n");
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        printf("  %-12s %s\n", c->name, c->description);
        for (int k = 0; k < c->param_count; k++) {
            char what[400];
            codec_param_describe(&c->params[k], what, sizeof what);
            printf("  %-12s   %s: %s\n  %-12s     (%s)\n", "", c->params[k].name, c->params[k].doc, "", what);
        }
        if (c->flags & CODEC_DECODES_AHEAD)
            printf("  %-12s decodes ahead: its sampler holds more than its stream plus a small context (run, bench)\n", "");
        else
            printf("  %-12s random access: its sampler holds its stream and a small context, decoding what a pose needs\n", "");
        if (c->flags & CODEC_UNAVAILABLE)
            printf("  %-12s UNAVAILABLE: %s\n", "", codec_unavailable_reason(c));
    }
    if (!scene_available())
        printf("  %-12s UNAVAILABLE: %s\n", "scene files", scene_missing());
    printf("clips:\n"
           "  walk         study: 1 Hz gait, 3 s at 60 fps, 30 bones (--walk-seconds, --fps)\n"
           "  jump         study: piecewise jump with squash and stretch, 2 s (--jump-seconds, --fps)\n"
           "  mocap        study: the walk plus LCG jitter, +-0.12 deg and +-0.4 mm (--seed)\n"
           "  FILE.bvh     motion capture (generators/bvh.h; a folder: its .bvh files; --unit-m, --up)\n"
           "  FILE.fbx     also .gltf .glb .dae .x .smd .b3d .ase .csm, or assimp:FILE for any file: through assimp\n"
           "               (generators/scene_import.h; FILE#N or FILE#NAME: one of its animations; animbench scene FILE)\n"
           "metrics (core/), each reported for every point:\n"
           "  joint displacement  world-space joint displacement after FK, mm: the study's (error_joint.c, error_shell.c)\n"
           "  rotation error      world-space joint rotation angle, degrees (error_joint.c)\n"
           "  shell distance      ACL's: 3 virtual vertices at 3 cm along each joint's axes, mm; share above 0.01 cm\n"
           "                      (error_shell.c)\n"
           "  between frames      both of the above at 3 sub-steps inside every frame interval (metrics.c)\n"
           "  distribution        max, mean, median, 99th percentile, worst joint and frame (error_distribution.c)\n"
           "  end effectors       leaves, hands, feet, head; the max per limb (error_effectors.c)\n"
           "  foot contact        slide and sink of the decoded feet where the original plants them (error_contact.c)\n"
           "  rate                bits per joint-sample; ratio to raw in ACL's convention (rate.c)\n");
    return 0;
}

/* Flags shared by run and sweep for a clip and a codec point. */
typedef struct run_options {
    const char *clip, *codec, *json;
    clip_params clip_params;
    cli_codec_params given;
    metric_params metrics;
} run_options;

#define RUN_USAGE                                                                                              \
    "usage: animbench run --clip NAME --codec NAME [--param NAME=VALUE ...] [--json FILE]\n"                    \
    "                     [--tol-mm X] [--lever-m X] [--step N]  (the study's parameters, where declared)\n"   \
    "                     " CLI_CLIP_FLAGS_USAGE "\n"                                                          \
    "                     [--shell-mm 30] [--precision-mm 0.1] [--substeps 4]\n"                               \
    "                     [--contact-height-mm 60] [--contact-speed 0.5]\n"                                    \
    "  Encodes one clip (walk, jump, mocap, a .bvh file or a folder of them) with one codec, decodes the\n"     \
    "  bytes and reports size, errors and every metric; --json writes the point as a results file.\n"

static int parse_run(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    o->clip_params = CLIP_DEFAULTS;
    o->given = (cli_codec_params)CLI_CODEC_PARAMS_INIT;
    metric_params_default(&o->metrics);
    double shell_mm = o->metrics.shell_distance_m * 1000, precision_mm = o->metrics.precision_m * 1000;
    double contact_mm = o->metrics.contact.height_m * 1000;
    const cli_option options[] = {
        {"--clip", CLI_TEXT, &o->clip, 0, 0, 0},
        {"--codec", CLI_TEXT, &o->codec, 0, 0, 0},
        {"--json", CLI_TEXT, &o->json, 0, 0, 0},
        CLI_CODEC_PARAM_OPTIONS(&o->given),
        {"--shell-mm", CLI_REAL, &shell_mm, 0, INFINITY, 1},
        {"--precision-mm", CLI_REAL, &precision_mm, 0, INFINITY, 1},
        {"--substeps", CLI_INT, &o->metrics.substeps, 1, 64, 0},
        {"--contact-height-mm", CLI_REAL, &contact_mm, 0, INFINITY, 0},
        {"--contact-speed", CLI_REAL, &o->metrics.contact.speed_mps, 0, INFINITY, 0},
    };
    const int rc = cli_parse("run", argc, argv, options, (int)(sizeof options / sizeof options[0]), &o->clip_params,
                             RUN_USAGE);
    if (rc != 0)
        return rc;
    o->metrics.shell_distance_m = shell_mm / 1000;
    o->metrics.precision_m = precision_mm / 1000;
    o->metrics.contact.height_m = contact_mm / 1000;
    if (!o->clip || !o->codec) {
        fprintf(stderr, "animbench run: needs --clip and --codec\n%s", RUN_USAGE);
        return -1;
    }
    return 0;
}

static void print_error_line(const char *label, const anim_rig *rig, const joint_error *e)
{
    printf("%-28s max %9.4f mm  mean %8.4f mm  max %7.4f deg  (worst: %s, frame %d)\n", label, e->max_m * 1000,
           e->mean_m * 1000, e->max_deg, rig->names[e->worst_bone], e->worst_frame);
}

static void print_distribution(const char *label, const anim_rig *rig, const error_distribution *d, const char *where)
{
    printf("  %-26s max %8.4f  mean %8.4f  median %8.4f  p99 %8.4f mm  (worst: %s, %s %d)\n", label, d->max * 1000,
           d->mean * 1000, d->median * 1000, d->p99 * 1000, rig->names[d->worst_joint], where, d->worst_sample);
}

static void print_metrics(const measured_clip *mc, const metrics_report *m)
{
    const anim_rig *rig = mc->source->clip->rig;
    const metric_params *p = &mc->metrics;
    printf("metrics of the decoded clip (core/metrics.h):\n");
    print_distribution("joint displacement", rig, &m->joint_m, "frame");
    char label[64];
    snprintf(label, sizeof label, "shell distance, d %g mm", p->shell_distance_m * 1000);
    print_distribution(label, rig, &m->shell_m, "frame");
    printf("  %-26s %.2f%% of joint-samples above %g mm\n", "", m->shell_above_precision * 100, p->precision_m * 1000);
    if (m->substeps > 1) {
        snprintf(label, sizeof label, "between frames, joint (%d)", m->substeps);
        print_distribution(label, rig, &m->between_joint_m, "sample");
        print_distribution("between frames, shell", rig, &m->between_shell_m, "sample");
        printf("  %-26s %.2f%% of joint-samples above %g mm\n", "", m->between_shell_above_precision * 100,
               p->precision_m * 1000);
    }
    snprintf(label, sizeof label, "end effectors (%d)", m->effector_count);
    print_distribution(label, rig, &m->effector_m, "frame");
    printf("  %-26s", "per limb, end effector max");
    for (int i = 0; i < m->limb_count; i++)
        printf("%s %s %.2f", i ? "," : "", rig->names[m->limbs[i].joint], m->limbs[i].max_m * 1000);
    printf(" mm\n");
    const contact_report *ct = &m->contact;
    printf("  %-26s %d feet, %ld planted frames in %d contacts; slide max %.4f mean %.4f mm; sink max %.4f mean "
           "%.4f mm\n",
           "foot contact", ct->feet, ct->planted_frames, ct->contacts, ct->slide_max_m * 1000, ct->slide_mean_m * 1000,
           ct->sink_max_m * 1000, ct->sink_mean_m * 1000);
    printf("  %-26s %.3f bits per joint-sample; %.2fx smaller than raw in ACL's convention (10 floats)\n", "rate",
           m->bits_per_joint_sample, m->acl_raw_ratio);
}

/* What the sampler holds (runtime.h), measured over a pass of the playback pattern. */
static int sampler_report(const measured_clip *mc, const codec *c, const byte_buffer *stream, sampler_memory *m,
                          char *err, size_t err_size)
{
    const anim_clip *clip = mc->source->clip;
    double *times = malloc(STUDY_TIME_COUNT * sizeof *times);
    if (!times) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    pattern_times(PATTERN_PLAYBACK, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
    const int rc = runtime_sampler_memory(c, stream->data, stream->size, clip->rig, clip->frame_count, times,
                                          STUDY_TIME_COUNT, m, err, err_size);
    free(times);
    if (rc != 0 || !m->measured)
        return rc;
    printf("sampler  holds %lld B (%.2f B/joint-sample) beside its stream's %zu (%.2f); create peak %lld B in %llu "
           "allocations; %llu allocations in %d poses%s\n",
           m->held_bytes, m->held_bytes / m->joint_samples, m->stream_bytes, m->stream_bytes / m->joint_samples,
           m->create_peak_bytes, m->create_allocations, m->sample_allocations, m->sample_calls,
           m->decodes_ahead ? "; decodes ahead (more than its stream plus a small context)" : "");
    return 0;
}

/* The decoded clip's fingerprint, as the clip's own (clip_hash): the stream decoded once more by the
 * decoder alone, so that bit-exact decoding (scripts/determinism.sh) is checked on every sample, not
 * only through the metrics.  false when it does not decode. */
static bool decoded_fingerprint(const measured_clip *mc, const codec *c, const byte_buffer *stream, uint64_t *hash)
{
    char msg[256];
    anim_clip *decoded = c->ops->decode(c, stream->data, stream->size, mc->source->clip->rig, msg, sizeof msg);
    if (!decoded)
        return false;
    *hash = clip_hash(decoded);
    clip_free(decoded);
    return true;
}

/* decoded_hash: NULL when not known */
static void print_point_report(const measured_clip *mc, const point_result *r, const uint64_t *decoded_hash)
{
    const anim_clip *clip = mc->source->clip;
    const double secs = clip->frame_count / clip->fps;
    const codec *c = r->codec;
    printf("clip   %s (%s): %d frames at %g fps, %d bones, samples %016llx\n", mc->source->name,
           mc->source->generator, clip->frame_count, clip->fps, clip->rig->bone_count,
           (unsigned long long)mc->source->sample_hash);
    printf("codec  %s: %s\n", c->name, c->description);
    if (c->param_count > 0) {
        char text[512];
        codec_params_format(c, &r->params, text, sizeof text);
        printf("params%s", text);
        if (codec_param_index(c, "tol_mm") >= 0 && codec_param_index(c, "lever_m") >= 0)
            printf(" (an angle of %.4f deg)", study_tolerance_deg(r->params.tol_mm, r->params.lever_m));
        printf("\n");
    }
    printf("bytes  %zu (%.0f B/s), gzip %zu (%.0f B/s), keys %ld, stream fnv1a64 %016llx\n", r->bytes, r->bytes / secs,
           r->gzip_bytes, r->gzip_bytes / secs, r->keys, (unsigned long long)r->stream_fnv1a64);
    if (r->key_time_bytes >= 0)
        printf("key times  %ld bytes of the %zu (%.1f%%)\n", r->key_time_bytes, r->bytes,
               r->bytes ? 100.0 * (double)r->key_time_bytes / (double)r->bytes : 0.0);
    if (r->part_count > 0) {
        printf("where the bytes go:");
        for (int i = 0; i < r->part_count; i++)
            printf("%s %s %ld (%.1f%%)", i ? "," : "", r->parts[i].name, r->parts[i].bytes,
                   r->bytes ? 100.0 * (double)r->parts[i].bytes / (double)r->bytes : 0.0);
        printf("\n");
    }
    if (r->decoded_ok) {
        if (decoded_hash)
            printf("decoded samples %016llx (the decoded clip, hashed as the clip's samples above)\n",
                   (unsigned long long)*decoded_hash);
        print_error_line("error, decoded from bytes:", clip->rig, &r->decoded);
    } else
        printf("error, decoded from bytes:   DECODE FAILED: %s\n", r->decode_error);
    if (r->has_encoder) {
        print_error_line("error, encoder's own recon:", clip->rig, &r->encoder);
        if (r->decoded_ok)
            printf("%-28s %+.4f mm in max joint error\n", "decoded minus encoder:",
                   (r->decoded.max_m - r->encoder.max_m) * 1000);
    }
    if (r->has_metrics)
        print_metrics(mc, &r->metrics);
    if (r->has_reported) {
        const int j = r->reported_joint;
        printf("codec's own report           max %8.4f mm of its shell metric (worst: %s, frame %d)", r->reported_error_mm,
               j >= 0 && j < clip->rig->bone_count ? clip->rig->names[j] : "-", r->reported_frame);
        if (r->has_metrics)
            printf("; ours %.4f mm", r->metrics.shell_m.max * 1000);
        printf("\n");
    }
    if (c->flags & CODEC_NOT_SELF_CONTAINED)
        printf("note   this layout is not self-contained: its bytes alone do not decode to the clip whose\n"
               "       error the encoder reports (docs/findings.md)\n");
}

int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
    run_options o;
    const int parsed = parse_run(argc, argv, &o);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (results_check_output("run", o.json, 1) != 0)
        return 2;
    const codec *c = codec_find(o.codec);
    if (!c) {
        fprintf(stderr, "animbench run: unknown codec '%s' (animbench list shows them)\n", o.codec);
        return 2;
    }
    char err[512];
    codec_params params;
    if (cli_codec_params_apply(&o.given, c, &params, err, sizeof err) != 0) {
        fprintf(stderr, "animbench run: %s\n", err);
        return 2;
    }
    char **names;
    const int count = clip_expand(o.clip, &names, err, sizeof err);
    if (count == 0) {
        fprintf(stderr, "animbench run: %s\n", err);
        return 2;
    }
    cJSON *doc = o.json ? results_document(full_argc, full_argv) : NULL;
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        clip_source *src = clip_source_load(names[i], &o.clip_params, err, sizeof err);
        if (src && src->warning[0])
            fprintf(stderr, "animbench run: warning: %s\n", src->warning);
        measured_clip *mc = src ? measured_clip_create(src, &o.metrics, err, sizeof err) : NULL;
        if (!mc) {
            fprintf(stderr, "animbench run: %s\n", err);
            rc = 2;
            break;
        }
        point_result r;
        byte_buffer stream;
        bytes_init(&stream);
        if (measure_point_stream(mc, c, &params, false, &r, &stream, err, sizeof err) != 0) {
            fprintf(stderr, "animbench run: %s\n", err);
            bytes_free(&stream);
            measured_clip_free(mc);
            rc = 1;
            break;
        }
        if (i > 0)
            printf("\n");
        uint64_t decoded_hash;
        const bool hashed = r.decoded_ok && decoded_fingerprint(mc, c, &stream, &decoded_hash);
        print_point_report(mc, &r, hashed ? &decoded_hash : NULL);
        sampler_memory m;
        const bool sampled = r.decoded_ok && sampler_report(mc, c, &stream, &m, err, sizeof err) == 0;
        if (r.decoded_ok && !sampled)
            printf("sampler  REFUSED ITS STREAM: %s\n", err);
        bytes_free(&stream);
        if (doc) {
            cJSON *pj = results_point(mc, &r);
            if (sampled)
                cJSON_AddItemToObject(pj, "memory", runtime_memory_json(&m));
            cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"), pj);
        }
        if (!r.decoded_ok)
            rc = 1;
        point_result_free(&r);
        measured_clip_free(mc);
    }
    if (doc && rc == 0 && results_write(o.json, doc, err, sizeof err) != 0) {
        fprintf(stderr, "animbench run: %s\n", err);
        rc = 1;
    }
    cJSON_Delete(doc);
    clip_names_free(names, count);
    return rc;
}
