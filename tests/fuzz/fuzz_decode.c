/* libFuzzer target for every codec's decoder and sampler: arbitrary bytes,
 * with the study's 30-bone rig or an imported 7-joint rig, must give an
 * error message or a clip (never a crash, a read out of bounds or undefined
 * behaviour); a sampler built from bytes the decoder accepts must sample
 * anywhere in the clip.  The first byte picks the codec and the rig; the rest
 * is the stream.  Seeded with real streams of every codec
 * (tests/fuzz/corpus/decode, written by `make fuzz-seeds`). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"
#include "generators/bvh.h"
#include "generators/study_rig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static anim_rig *rigs[2];

static const char IMPORTED_RIG[] =
    "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    "JOINT Spine\n{\nOFFSET 0 10 0\nCHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Head\n{\nOFFSET 0 20 0\n"
    "CHANNELS 3 Zrotation Yrotation Xrotation\nEnd Site\n{\nOFFSET 0 5 0\n}\n}\n}\nJOINT Leg\n{\nOFFSET 8 -5 0\n"
    "CHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Knee\n{\nOFFSET 0 -40 0\nCHANNELS 3 Zrotation Yrotation Xrotation\n"
    "JOINT Foot\n{\nOFFSET 0 -40 0\nCHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Toe\n{\nOFFSET 0 0 10\n"
    "CHANNELS 1 Xrotation\nEnd Site\n{\nOFFSET 0 0 3\n}\n}\n}\n}\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.033333\n"
    "0 90 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n0 90 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

const anim_rig *fuzz_decode_rig(int which);
const anim_rig *fuzz_decode_rig(int which)
{
    if (!rigs[0]) {
        rigs[0] = study_rig_create();
        const bvh_options o = {0.01};
        bvh_result r;
        char err[256];
        if (!rigs[0] || bvh_parse(IMPORTED_RIG, sizeof IMPORTED_RIG - 1, "rig", &o, &r, err, sizeof err) != 0)
            abort();
        rigs[1] = r.rig;
        r.rig = NULL;
        clip_free(r.clip);
    }
    return rigs[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int count = codec_count();
    const codec *c = codec_at(data[0] % count);
    const anim_rig *rig = fuzz_decode_rig((data[0] / count) & 1);
    if (c->flags & CODEC_UNAVAILABLE)
        return 0;
    const uint8_t *bytes = data + 1;
    size -= 1;
    char err[512] = "";
    anim_clip *clip = c->ops->decode(c, bytes, size, rig, err, sizeof err);
    if (!clip) {
        if (!err[0])
            abort(); /* a refusal always says why */
        return 0;
    }
    if (clip->frame_count < 1 || clip->rig != rig)
        abort();
    double sum = 0;
    const size_t n = (size_t)rig->bone_count * (size_t)clip->frame_count;
    for (size_t i = 0; i < n * 3; i++)
        sum += clip->pos[i] + clip->scl[i];
    for (size_t i = 0; i < n * 4; i++)
        sum += clip->rot[i];
    if (c->ops->sampler_create) {
        codec_sampler *s = c->ops->sampler_create(c, bytes, size, rig, err, sizeof err);
        if (s) {
            double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
            if (!pose)
                abort();
            const double last = clip->frame_count - 1;
            const double times[] = {0, last / 3, last / 2 + 0.25, last};
            for (int i = 0; i < 4; i++) {
                c->ops->sample(s, times[i], pose);
                for (int k = 0; k < rig->bone_count * POSE_STRIDE; k++)
                    sum += pose[k];
            }
            free(pose);
            c->ops->sampler_free(s);
        } else if (!err[0]) {
            abort();
        }
    }
    clip_free(clip);
    return sum == 12345.0;
}
