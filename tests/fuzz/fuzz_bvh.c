/* libFuzzer target for the import pipeline: any bytes, read as a BVH file,
 * must give an error message or a clip; a clip then goes through a codec,
 * its decoder and every metric (measure_point, as `run` does), and must come
 * out whole.  AddressSanitizer and UndefinedBehaviorSanitizer watch, under
 * libFuzzer's -rss_limit_mb.  `make fuzz` runs it for FUZZ_SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"
#include "generators/bvh.h"
#include "harness/measure/measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The pipeline's cost grows with the clip; the limits themselves are tested
 * at their edges elsewhere (tests/limits.sh), so large clips are parsed but
 * not measured, to keep thousands of executions a second. */
#define PIPELINE_MAX_JOINT_SAMPLES 4000

static uint32_t hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bvh_options o = {0.01};
    bvh_result r;
    char err[512];
    if (bvh_parse((const char *)data, size, "fuzz", &o, &r, err, sizeof err) != 0)
        return strlen(err) == 0 ? (abort(), 0) : 0; /* an error always says something */
    double sum = 0; /* a parsed clip must be whole: touch every sample */
    const size_t n = (size_t)r.rig->bone_count * (size_t)r.clip->frame_count;
    for (size_t i = 0; i < n * 3; i++)
        sum += r.clip->pos[i];
    for (size_t i = 0; i < n * 4; i++)
        sum += r.clip->rot[i];
    if (n > PIPELINE_MAX_JOINT_SAMPLES) {
        bvh_result_free(&r);
        return sum == 12345.0;
    }
    clip_source *src = calloc(1, sizeof *src);
    if (!src)
        abort();
    snprintf(src->name, sizeof src->name, "fuzz");
    snprintf(src->generator, sizeof src->generator, "bvh");
    src->params = CLIP_DEFAULTS;
    src->rig = r.rig;
    src->clip = r.clip;
    src->sample_hash = clip_hash(r.clip);
    measured_clip *mc = measured_clip_create(src, NULL, err, sizeof err);
    if (!mc)
        abort(); /* small clips always fit */
    /* one codec per input, chosen by its bytes, so the corpus covers them all */
    const int available = codec_count();
    const uint32_t h = hash(data, size);
    const codec *c = codec_at((int)(h % (uint32_t)available));
    if (!(c->flags & CODEC_UNAVAILABLE)) {
        static const double TOLERANCES[] = {0, 1e-9, 0.01, 1, 50};
        const codec_params p = {TOLERANCES[(h >> 8) % 5], 0.35, 1 + (int)((h >> 16) % 7), {0}};
        point_result pr;
        if (measure_point(mc, c, &p, (h >> 24) & 1, &pr, err, sizeof err) == 0) {
            /* the encoder's bytes must decode, by its own decoder, to a clip of the same length */
            if (!pr.decoded_ok || pr.decoded_frames != r.clip->frame_count) {
                fprintf(stderr, "fuzz_bvh: %s at tol_mm=%g step=%d: %s (%d of %d frames)\n", c->name, p.tol_mm, p.step,
                        pr.decoded_ok ? "decoded" : pr.decode_error, pr.decoded_frames, r.clip->frame_count);
                abort();
            }
            point_result_free(&pr);
        } else if (strlen(err) == 0) {
            abort();
        }
    }
    measured_clip_free(mc);
    return sum == 12345.0;
}
