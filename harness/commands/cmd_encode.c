/* `animbench encode`: one clip through one codec's encoder, and nothing else
 * kept in memory: the clip, its channel view and the stream (no world poses,
 * no decoded clip, no encoder reconstruction).  It is the path for clips too
 * long to measure (up to LIMIT_JOINT_SAMPLES_ENCODE_MAX joint-samples) and
 * the one `make scale` times for long clips.  --verify decodes the stream
 * with the decoder alone (one more clip in memory) and reports how far the
 * decoded local channels are from the clip's; the stream is written after
 * that, so a stream that does not decode is never written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/limits.h"
#include "core/quat.h"
#include "harness/commands/commands.h"
#include "harness/measure/bench_timer.h"
#include "harness/commands/cli_flags.h"
#include "harness/sweep/results.h"

#define ENCODE_USAGE                                                                                        \
    "usage: animbench encode --clip NAME --codec NAME [--param NAME=VALUE ...] [--out FILE] [--verify]\n"    \
    "                        [--tol-mm X] [--lever-m X] [--step N]  (the study's parameters, where declared)\n" \
    "                        " CLI_CLIP_FLAGS_USAGE "\n"                                                     \
    "  Encodes one clip and writes the stream to FILE; prints bytes, keys, encode time and the process's\n" \
    "  peak memory against the clip's size.  Clips up to 16,777,216 joint-samples (the measuring commands\n" \
    "  take 1,048,576).  --verify decodes the stream and reports the largest local difference.\n"

static double seconds_now(void)
{
    return timer_now_ns() * 1e-9;
}

static long peak_rss_kib(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : -1;
}

/* The largest difference of the local channels, position and scale in the
 * clip's units, rotation in degrees. */
static void local_difference(const anim_clip *a, const anim_clip *b, double *pos, double *scl, double *deg)
{
    *pos = *scl = *deg = 0;
    const int n = a->frame_count;
    for (int j = 0; j < a->rig->bone_count; j++)
        for (int axis = 0; axis < 3; axis++) {
            const double *pa = clip_pos_channel(a, j, axis), *pb = clip_pos_channel(b, j, axis);
            const double *sa = clip_scl_channel(a, j, axis), *sb = clip_scl_channel(b, j, axis);
            for (int f = 0; f < n; f++) {
                *pos = fmax(*pos, fabs(pa[f] - pb[f]));
                *scl = fmax(*scl, fabs(sa[f] - sb[f]));
            }
        }
    for (int j = 0; j < a->rig->bone_count; j++) {
        const double *qa = clip_rot_track(a, j), *qb = clip_rot_track(b, j);
        for (int f = 0; f < n; f++) { /* as the metrics do: a stored quaternion is a few ulps off unit */
            double ua[4], ub[4];
            quat_normalize(qa + (size_t)f * 4, ua);
            quat_normalize(qb + (size_t)f * 4, ub);
            *deg = fmax(*deg, quat_angle_deg(ua, ub));
        }
    }
}

int cmd_encode(int argc, char **argv)
{
    const char *clip_name = NULL, *codec_name = NULL, *out_path = NULL;
    bool verify = false;
    clip_params cp = CLIP_DEFAULTS;
    cli_codec_params given = CLI_CODEC_PARAMS_INIT;
    const cli_option options[] = {
        {"--clip", CLI_TEXT, &clip_name, 0, 0, 0},
        {"--codec", CLI_TEXT, &codec_name, 0, 0, 0},
        {"--out", CLI_TEXT, &out_path, 0, 0, 0},
        {"--verify", CLI_SWITCH, &verify, 0, 0, 0},
        CLI_CODEC_PARAM_OPTIONS(&given),
    };
    const int parsed = cli_parse("encode", argc, argv, options, (int)(sizeof options / sizeof options[0]), &cp,
                                 ENCODE_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (!clip_name || !codec_name) {
        fprintf(stderr, "animbench encode: needs --clip and --codec\n%s", ENCODE_USAGE);
        return 2;
    }
    if (results_check_output("encode", out_path, 1) != 0) /* never over a sweep's results */
        return 2;
    const codec *c = codec_find(codec_name);
    if (!c) {
        fprintf(stderr, "animbench encode: unknown codec '%s' (animbench list shows them)\n", codec_name);
        return 2;
    }
    char err[512];
    codec_params params;
    if (cli_codec_params_apply(&given, c, &params, err, sizeof err) != 0) {
        fprintf(stderr, "animbench encode: %s\n", err);
        return 2;
    }
    if (c->flags & CODEC_UNAVAILABLE) {
        fprintf(stderr, "animbench encode: codec %s is unavailable in this build (animbench list says why)\n", c->name);
        return 2;
    }
    clip_limits_set_joint_samples(LIMIT_JOINT_SAMPLES_ENCODE_MAX);
    const double t_load = seconds_now();
    clip_source *src = clip_source_load(clip_name, &cp, err, sizeof err);
    if (!src) {
        fprintf(stderr, "animbench encode: %s\n", err);
        return 2;
    }
    if (src->warning[0])
        fprintf(stderr, "animbench encode: warning: %s\n", src->warning);
    const anim_clip *clip = src->clip;
    channel_view *view = channels_create(clip);
    if (!view) {
        fprintf(stderr, "animbench encode: out of memory for the channel view\n");
        clip_source_free(src);
        return 1;
    }
    const double t_encode = seconds_now();
    const codec_input in = {clip, view, true};
    codec_output enc;
    codec_output_init(&enc);
    int rc = c->ops->encode(c, &in, &params, &enc, err, sizeof err);
    const double t_done = seconds_now();
    if (rc != 0) {
        fprintf(stderr, "animbench encode: %s on %s: %s\n", c->name, clip_name, err);
        rc = 1;
    }
    const size_t clip_bytes = (size_t)clip->frame_count * (size_t)clip->rig->bone_count * 80;
    if (rc == 0) {
        char p[512];
        codec_params_format(c, &params, p, sizeof p);
        printf("clip    %s: %d frames x %d joints at %g Hz (%.1f MB of doubles)\n", clip_name, clip->frame_count,
               clip->rig->bone_count, clip->fps, clip_bytes / 1e6);
        printf("codec   %s%s\n", c->name, p);
        printf("bytes   %zu, keys %ld\n", enc.bytes.size, enc.keys);
        printf("time    load %.3f s, encode %.6f s (channel view included, one thread)\n", t_encode - t_load,
               t_done - t_encode);
    }
    const long rss_encode = peak_rss_kib();
    if (rc == 0)
        printf("memory  peak RSS %.1f MB after encoding, %.2f x the clip\n", rss_encode * 1024 / 1e6,
               rss_encode * 1024.0 / (double)clip_bytes);
    if (rc == 0 && verify) {
        anim_clip *back = c->ops->decode(c, enc.bytes.data, enc.bytes.size, clip->rig, err, sizeof err);
        if (!back || back->frame_count != clip->frame_count) {
            fprintf(stderr, "animbench encode: the stream does not decode: %s\n",
                    back ? "another frame count" : err);
            rc = 1;
        } else {
            double pos, scl, deg;
            local_difference(clip, back, &pos, &scl, &deg);
            printf("verify  decoded by the decoder alone: %d frames; largest local difference: position %.6g m, "
                   "scale %.6g, rotation %.6g deg (peak RSS now %.1f MB: the decoded clip too)\n",
                   back->frame_count, pos, scl, deg, peak_rss_kib() * 1024 / 1e6);
        }
        clip_free(back);
    }
    if (rc == 0 && out_path && write_file_atomic(out_path, (const char *)enc.bytes.data, enc.bytes.size, err,
                                                 sizeof err) != 0) {
        fprintf(stderr, "animbench encode: %s\n", err);
        rc = 1;
    }
    codec_output_free(&enc);
    channels_free(view);
    clip_source_free(src);
    return rc;
}
