/* animbench gate: seed 001's max gate (CurveCodec 2, its Eq. 3), measured.
 *
 * The reference codec runs at precision P; each joint j of the clip then has
 * a bound 1.05 max(P, the reference's largest shell distance on j), and the
 * share of joint-samples above P may exceed the reference's by half a
 * percentage point.  The codec's knob (tol_mm) is searched between P and
 * G = 1.05 max(P, the reference's clip maximum) for a small stream that
 * meets every joint's bound and the share; every candidate is encoded,
 * decoded from its bytes alone and measured joint by joint.  A codec whose
 * contract is its tol_mm (every stream within it) meets the gate at P, so
 * the search starts from a stream known to pass; it then tries G and
 * bisects between the loosest setting that passed and the first that did
 * not, and answers the smallest passing stream among the settings tried
 * (bytes need not fall as tol_mm grows: a smaller one may lie between).
 * Bytes are the codec's own, without the seed's fallback to the
 * reference's stream where that is smaller. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/acl/acl_codec.h"
#include "core/error_shell.h"
#include "core/pose_set.h"
#include "harness/commands/cli_flags.h"
#include "harness/commands/commands.h"
#include "harness/measure/measure.h" /* measured_clip: the original as every metric sees it */

#define GATE_USAGE                                                                                         \
    "usage: animbench gate --clip NAME --codec NAME --precision-mm P [--reference acl] [--tsv]\n"           \
    "                      " CLI_CLIP_FLAGS_USAGE "\n"                                                      \
    "  Seed 001's max gate: the reference at precision P; every joint within 1.05 max(P, the\n"             \
    "  reference's maximum on that joint) and the share of joint-samples above P within the\n"              \
    "  reference's plus 0.5 points.  Searches the codec's tol_mm from P to 1.05 max(P, the\n"                \
    "  reference's clip maximum) for the smallest stream that meets the gate among the settings it\n"      \
    "  tries (P, G, then a bisection), each decoded from its bytes and measured per joint; prints\n"         \
    "  both streams and the ratio, without the seed's fallback to the reference (--tsv: one line:\n"       \
    "  clip P reference ref_bytes ref_max ref_share codec bytes max share tol_mm gate_mm encodes).\n"      \
    "  Exit 3 when the codec's stream at tol_mm P does not meet the gate (its tol_mm is not a\n"           \
    "  bound on its shell distance).\n"

#define GATE_TOLERANCE 1.05     /* the seed's 5 % on each joint's bound */
#define GATE_SHARE_SLACK 0.005  /* and half a percentage point on the share above P */
#define GATE_BISECTIONS 9 /* after P and G: 11 encodes of the codec, one of the reference */

/* What a decoded stream measures, joint by joint. */
typedef struct gate_measure {
    size_t bytes;
    double max_mm;   /* largest shell distance over the clip */
    double share;    /* of joint-samples above P */
    double *joint_max_mm; /* [joint] */
} gate_measure;

/* Encodes with params p, decodes the bytes alone and measures each joint's largest shell distance
 * at the clip's frames.  Returns 0, or -1 with a message (the encode failed, the stream does not
 * decode, out of memory). */
static int measure_gate(const measured_clip *mc, const codec *c, const codec_params *p, double precision_mm,
                        gate_measure *out, char *err, size_t err_size)
{
    /* Encoded and decoded once each: measure_point would also decode and take every metric of
     * core/metrics.h (between frames too), none of which the gate reads. */
    const anim_clip *clip = mc->source->clip;
    const codec_input in = {clip, mc->view, true};
    codec_output enc;
    codec_output_init(&enc);
    char msg[256] = "";
    if (c->ops->encode(c, &in, p, &enc, msg, sizeof msg) != 0 || enc.bytes.failed) {
        snprintf(err, err_size, "%s on %.200s: encoding failed: %.200s", c->name, mc->source->name,
                 msg[0] ? msg : "out of memory");
        codec_output_free(&enc);
        return -1;
    }
    out->bytes = enc.bytes.size;
    const anim_rig *rig = clip->rig;
    anim_clip *decoded = c->ops->decode(c, enc.bytes.data, enc.bytes.size, rig, msg, sizeof msg);
    codec_output_free(&enc);
    if (decoded && decoded->frame_count != clip->frame_count) {
        snprintf(msg, sizeof msg, "it decodes to %d frames, the clip has %d", decoded->frame_count, clip->frame_count);
        clip_free(decoded);
        decoded = NULL;
    }
    if (!decoded) {
        snprintf(err, err_size, "%s on %.200s: its stream does not decode: %.200s", c->name, mc->source->name, msg);
        return -1;
    }
    pose_set *frames = pose_set_from_clip(decoded);
    const int joints = rig->bone_count, samples = mc->original_frames->samples;
    double *d = frames ? malloc((size_t)samples * (size_t)joints * sizeof *d) : NULL;
    if (!d) {
        snprintf(err, err_size, "%s on %.200s: out of memory", c->name, mc->source->name);
        pose_set_free(frames);
        clip_free(decoded);
        return -1;
    }
    shell_distance_m(mc->original_frames, frames, mc->metrics.shell_distance_m, d);
    long above = 0;
    out->max_mm = 0;
    for (int j = 0; j < joints; j++)
        out->joint_max_mm[j] = 0;
    for (int s = 0; s < samples; s++)
        for (int j = 0; j < joints; j++) {
            const double mm = d[(size_t)s * joints + j] * 1000;
            const double e = isnan(mm) ? INFINITY : mm; /* a NaN pose is no error of zero */
            above += !(e <= precision_mm);
            out->joint_max_mm[j] = e > out->joint_max_mm[j] ? e : out->joint_max_mm[j];
            out->max_mm = e > out->max_mm ? e : out->max_mm;
        }
    out->share = (double)above / ((double)samples * joints);
    free(d);
    pose_set_free(frames);
    clip_free(decoded);
    return 0;
}

static bool meets_gate(const gate_measure *m, const gate_measure *ref, int joints, double precision_mm)
{
    for (int j = 0; j < joints; j++) {
        const double bound = ref->joint_max_mm[j] > precision_mm ? ref->joint_max_mm[j] : precision_mm;
        if (!(m->joint_max_mm[j] <= GATE_TOLERANCE * bound))
            return false;
    }
    return m->share <= ref->share + GATE_SHARE_SLACK;
}

int cmd_gate(int argc, char **argv)
{
    const char *clip_name = NULL, *codec_name = NULL, *reference_name = "acl";
    double precision_mm = NAN;
    bool tsv = false;
    clip_params cp = CLIP_DEFAULTS;
    const cli_option table[] = {
        {"--clip", CLI_TEXT, &clip_name, 0, 0, 0},
        {"--codec", CLI_TEXT, &codec_name, 0, 0, 0},
        {"--reference", CLI_TEXT, &reference_name, 0, 0, 0},
        {"--precision-mm", CLI_REAL, &precision_mm, 0, 1000, 1},
        {"--tsv", CLI_SWITCH, &tsv, 0, 0, 0},
    };
    const int parsed = cli_parse("gate", argc, argv, table, (int)(sizeof table / sizeof table[0]), &cp, GATE_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (!clip_name || !codec_name || isnan(precision_mm)) {
        fprintf(stderr, "animbench gate: needs --clip, --codec and --precision-mm\n%s", GATE_USAGE);
        return 2;
    }
    const codec *c = codec_find(codec_name), *ref = codec_find(reference_name);
    const char *missing = !c ? codec_name : !ref ? reference_name : NULL;
    if (missing) {
        fprintf(stderr, "animbench gate: unknown codec '%s' (animbench list shows them)\n", missing);
        return 2;
    }
    const codec *unavailable = c->flags & CODEC_UNAVAILABLE ? c : ref->flags & CODEC_UNAVAILABLE ? ref : NULL;
    if (unavailable) {
        fprintf(stderr, "animbench gate: codec %s: %s\n", unavailable->name, codec_unavailable_reason(unavailable));
        return 2;
    }
    const int knob = codec_knob(c), ref_knob = codec_knob(ref);
    if (knob < 0 || strcmp(c->params[knob].name, "tol_mm") != 0 || ref_knob < 0 ||
        strcmp(ref->params[ref_knob].name, "tol_mm") != 0) {
        fprintf(stderr, "animbench gate: %s and %s must both take tol_mm as their quality knob\n", c->name,
                ref->name);
        return 2;
    }
    char err[512];
    clip_source *src = clip_source_load(clip_name, &cp, err, sizeof err);
    if (src && src->warning[0])
        fprintf(stderr, "animbench gate: warning: %s\n", src->warning);
    measured_clip *mc = src ? measured_clip_create(src, NULL, err, sizeof err) : NULL;
    if (!mc) {
        fprintf(stderr, "animbench gate: %s\n", err);
        return 2;
    }
    const int joints = mc->source->clip->rig->bone_count;
    double *store = calloc((size_t)joints * 3, sizeof *store);
    if (!store) {
        fprintf(stderr, "animbench gate: out of memory\n");
        measured_clip_free(mc);
        return 1;
    }
    gate_measure r = {.joint_max_mm = store}, best = {.joint_max_mm = store + joints},
                 trial = {.joint_max_mm = store + 2 * (size_t)joints};
    int rc = 1, encodes = 0;
    codec_params rp, p;
    if (cli_codec_params_apply(&(cli_codec_params)CLI_CODEC_PARAMS_INIT, ref, &rp, err, sizeof err) != 0 ||
        codec_param_set(ref, &rp, ref_knob, precision_mm, err, sizeof err) != 0 ||
        cli_codec_params_apply(&(cli_codec_params)CLI_CODEC_PARAMS_INIT, c, &p, err, sizeof err) != 0 ||
        measure_gate(mc, ref, &rp, precision_mm, &r, err, sizeof err) != 0) {
        fprintf(stderr, "animbench gate: %s\n", err);
        goto done;
    }
    const double gate_mm = GATE_TOLERANCE * (r.max_mm > precision_mm ? r.max_mm : precision_mm);
    /* lo: a setting whose stream met the gate; hi: the loosest worth trying, or one that failed */
    double lo = precision_mm, hi = gate_mm, best_knob = NAN;
    if (joints < 1 || mc->original_frames->samples < 1) {
        fprintf(stderr, "animbench gate: %s has no joints or no frames to measure\n", mc->source->name);
        free(store);
        measured_clip_free(mc);
        return 2;
    }
    for (int step = -1; step <= GATE_BISECTIONS; step++) {
        const double t = step < 0 ? lo : step == 0 ? hi : sqrt(lo * hi);
        if (codec_param_set(c, &p, knob, t, err, sizeof err) != 0 ||
            measure_gate(mc, c, &p, precision_mm, &trial, err, sizeof err) != 0) {
            fprintf(stderr, "animbench gate: %s\n", err);
            goto done;
        }
        encodes++;
        const bool ok = meets_gate(&trial, &r, joints, precision_mm);
        if (step < 0 && !ok) {
            fprintf(stderr, "animbench gate: cannot reach: %s at tol_mm %g does not meet the gate (max %.4f mm, %.2f %% "
                            "above P): its tol_mm is not a bound on its shell distance\n", c->name, t, trial.max_mm,
                    100 * trial.share);
            rc = 3;
            goto done;
        }
        if (ok && (isnan(best_knob) || trial.bytes < best.bytes)) {
            best.bytes = trial.bytes;
            best.max_mm = trial.max_mm;
            best.share = trial.share;
            best_knob = t;
        }
        if (step == 0 && ok)
            break; /* the loosest setting worth trying passes */
        if (step > 0) {
            if (ok)
                lo = t;
            else
                hi = t;
        }
    }
    if (tsv)
        printf("%s\t%.17g\t%s\t%zu\t%.17g\t%.17g\t%s\t%zu\t%.17g\t%.17g\t%.17g\t%.17g\t%d\n", mc->source->name,
               precision_mm, ref->name, r.bytes, r.max_mm, r.share, c->name, best.bytes, best.max_mm, best.share, best_knob,
               gate_mm, encodes);
    else {
        printf("gate   %s on %s, precision %g mm: every joint within 1.05 max(P, %s's maximum on it), the share "
               "above P within %s's + 0.5 points; %d encodes of it (each decoded and measured per joint)\n",
               c->name, mc->source->name, precision_mm, ref->name, ref->name, encodes);
        printf("%-10s %9zu B  max %.4f mm  above P %.2f %%\n", ref->name, r.bytes, r.max_mm, 100 * r.share);
        printf("%-10s %9zu B  max %.4f mm  above P %.2f %%  (tol_mm %.17g; the gate's clip-wide ceiling %.4f mm)\n",
               c->name, best.bytes, best.max_mm, 100 * best.share, best_knob, gate_mm);
        printf("ratio  %.4fx %s's bytes (the codec's own stream: no fallback to %s's where that is smaller)\n",
               (double)best.bytes / (double)r.bytes, ref->name, ref->name);
    }
    rc = 0;
done:
    free(store);
    measured_clip_free(mc);
    return rc;
}
