/* shellpack: issue 11's codec, designed from seed 001's findings (CurveCodec 2)
 * and written for ACL's worst-case contract: every joint's shell distance
 * (virtual vertices at 30 mm) within a target at every frame of the decoded
 * clip.
 *
 * Each sub-track (rotation, translation, scale of a joint) is folded to the
 * rig's rest value, folded to a constant, or animated: a curve per
 * component (rotations as log-map vectors, three numbers) quantised with its
 * own step 2^(-i/16), optionally coded only at some frames (linear in
 * between), predicted from its own past by one of four predictors and
 * entropy coded by an adaptive binary range coder with context modelling
 * (range_coder.h).  The encoder chooses folds, steps and omitted frames in a
 * closed loop on the shell distance of each joint's whole subtree, then
 * decodes its own bytes and measures them: a stream over its target is never
 * emitted.
 *
 * This header is the stream format shared by the encoder (shellpack.c) and
 * the decoder (shellpack_format.c). */
#ifndef ANIMBENCH_SHELLPACK_H
#define ANIMBENCH_SHELLPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "codecs/entropy/range_coder.h"

/* A row's fixed settings: the full codec, or one idea taken out (the ablation). */
typedef struct shellpack_config {
    bool quaternion;  /* rotations as four quaternion components instead of the log map */
    bool per_channel; /* steps and omissions from a tolerance per channel: no closed loop */
    bool keys;        /* frames left out by rate and distortion */
    bool predict;     /* per-curve predictors (off: every value coded as it is) */
    bool gzip;        /* residuals as zlib-deflated varints instead of the range coder */
    bool random_access; /* sections that decode alone, rANS coded, a sampler from the bytes (shellpack_ra.c) */
} shellpack_config;

extern const codec_ops SHELLPACK_OPS;

enum { SP_ROT, SP_POS, SP_SCL, SP_TYPES };
enum { SP_REST, SP_CONST, SP_ANIM }; /* a sub-track's mode: two bits in the stream */
enum { SP_PRED_NONE, SP_PRED_PREVIOUS, SP_PRED_LINEAR, SP_PRED_ADAPTIVE, SP_PREDICTORS };

#define SP_STEP_INDEX_MAX 1023 /* step 2^(-i/16): 1 down to 2^-63.9 */
#define SP_MAX_COMPS 4
#define SP_HALF_ANGLE_MAX 4.0 /* a log-map vector decodes only up to 8 radians (an encoder writes <= 2 pi + a step) */

/* Everything a stream says, in integers: what the encoder chooses and the
 * decoder reads back. */
typedef struct sp_track {
    uint8_t mode;
    uint8_t predictor[SP_MAX_COMPS];
    uint16_t step_index[SP_MAX_COMPS]; /* per component: a rotation's twist can be coarser than its swing */
    float constant[SP_MAX_COMPS]; /* SP_CONST: the value of each component */
} sp_track;

typedef struct sp_plan {
    int bones, frames;
    int rot_comps; /* 3 (log map) or 4 (quaternion) */
    sp_track *tracks; /* [bone][type] */
    uint8_t *kept;    /* [bone][frame]: 1 where a joint's animated values are coded */
    int32_t *q;       /* [bone][type][comp][frame]: quantised values, at kept frames */
} sp_plan;

static inline int sp_comps(const sp_plan *p, int type)
{
    return type == SP_ROT ? p->rot_comps : 3;
}
static inline sp_track *sp_track_at(const sp_plan *p, int bone, int type)
{
    return p->tracks + (size_t)bone * SP_TYPES + type;
}
static inline int32_t *sp_curve(const sp_plan *p, int bone, int type, int comp)
{
    return p->q + (((size_t)bone * SP_TYPES + type) * SP_MAX_COMPS + comp) * (size_t)p->frames;
}
static inline uint8_t *sp_kept(const sp_plan *p, int bone)
{
    return p->kept + (size_t)bone * p->frames;
}

int sp_plan_init(sp_plan *p, int bones, int frames, int rot_comps);
void sp_plan_free(sp_plan *p);

/* 2^(-index/16), exactly as every decoder computes it. */
double sp_step(int index);

/* The values of one animated sub-track's components at frames f0..f1 (linear
 * in the left-out frames), into out[(f - f0) * comps + c]. */
void sp_track_values(const sp_plan *p, int bone, int type, int f0, int f1, double *out);

/* The decoded local pose (10 doubles: position, rotation x y z w, scale)
 * of `bone` at frames f0..f1, into out[(f - f0) * 10]. */
void sp_decode_local(const sp_plan *p, const anim_rig *rig, int bone, int f0, int f1, double *out);
/* The same for one sub-track's fields only (the others in out are left as they are). */
void sp_decode_track(const sp_plan *p, const anim_rig *rig, int bone, int type, int f0, int f1, double *out);

/* A checksum of what decoding depends on in a rig: bone count, parents, rest offsets. */
uint32_t sp_rig_checksum(const anim_rig *rig);

/* The stream header's fields besides the plan. */
typedef struct sp_header {
    uint8_t flags; /* SP_FLAG_* */
    double fps;
    float target_mm, shell_mm;
} sp_header;
#define SP_FLAG_QUATERNION 1u
#define SP_FLAG_GZIP 2u

/* Writes the stream; parts (CODEC_PARTS_MAX) get the byte breakdown.
 * Returns 0, or -1 with a message. */
int sp_write(const sp_plan *p, const sp_header *h, const anim_rig *rig, byte_buffer *out, codec_part *parts,
             int *part_count, char *err, size_t err_size);
/* Reads a stream into a plan (which it initialises); 0, or -1 with a message. */
int sp_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sp_plan *p, sp_header *h, char *err,
            size_t err_size);
/* The random-access stream (shellpack_ra.c): the same plan (every frame kept), in sections of
 * section_frames frames that decode alone, rANS coded. */
int sp_write_ra(const sp_plan *p, const sp_header *h, const anim_rig *rig, int section_frames, byte_buffer *out,
                codec_part *parts, int *part_count, char *err, size_t err_size);
/* Its whole clip, decoded from the bytes alone; NULL with a message. */
anim_clip *sp_decode_ra(const uint8_t *bytes, size_t size, const anim_rig *rig, char *err, size_t err_size);
/* Its sampler: decodes at most a section around the time asked, keeps a few kilobytes. */
typedef struct sr_sampler sr_sampler;
sr_sampler *sr_sampler_create(const uint8_t *bytes, size_t size, const anim_rig *rig, char *err, size_t err_size);
void sr_sampler_sample(sr_sampler *s, double t, double *pose);
int sr_sampler_frames(const sr_sampler *s);
void sr_sampler_free(sr_sampler *s);

/* The decoded clip of a plan; NULL when out of memory. */
anim_clip *sp_plan_to_clip(const sp_plan *p, const anim_rig *rig, double fps);

/* Pieces both stream formats share (shellpack_format.c). */
void sp_put_varint(byte_buffer *b, uint64_t v);
bool sp_get_varint(const uint8_t *data, size_t size, size_t *pos, uint64_t *v); /* shortest form only */
bool sp_joint_animated(const sp_plan *p, int bone);
bool sp_type_animated(const sp_plan *p, int type);
bool sp_any_animated(const sp_plan *p);
/* Each sub-track's mode (2 bits) and each constant sub-track's values (f32), and back. */
void sp_write_folding(const sp_plan *p, byte_buffer *folding, byte_buffer *constants);
int sp_read_folding(sp_plan *p, const uint8_t *folding_data, size_t folding_size, const uint8_t *constants_data,
                    size_t constants_size, char *err, size_t err_size);
/* Steps and predictors of every animated sub-track, range coded. */
void sp_write_steps(const sp_plan *p, byte_buffer *out);
int sp_read_steps(sp_plan *p, const uint8_t *data, size_t size, char *err, size_t err_size);
/* A rotation's quaternion from its stored components (log map or quaternion). */
void sp_to_rotation(const sp_plan *p, const double *v, double q[4]);
/* Every rotation the plan decodes to within the range the exponential is exact for. */
int sp_check_rotations(const sp_plan *p, char *err, size_t err_size);
static inline uint32_t sp_magnitude(int32_t r)
{
    return r < 0 ? 0u - (uint32_t)r : (uint32_t)r;
}
/* A curve's residual context: the bit length of the larger of its last two residuals' magnitudes. */
static inline int sp_curve_context(uint32_t m1, uint32_t m2)
{
    return residual_context(m1 > m2 ? m1 : m2);
}

/* The predictors, shared by the encoder and the decoder. */
typedef struct sp_predictor_state {
    int64_t k1, k2;
    int seen;
    int weight; /* the adaptive predictor's slope weight, in 1/16 */
} sp_predictor_state;
/* Inline: they run once per coded value in every encoder's cost loop and every decoder. */
static inline void sp_predictor_reset(sp_predictor_state *s)
{
    s->k1 = s->k2 = 0;
    s->seen = 0;
    s->weight = 16;
}

static inline int64_t sp_floor_div16(int64_t x)
{
    return x >= 0 ? x / 16 : -((-x + 15) / 16);
}

static inline int64_t sp_predict(int predictor, const sp_predictor_state *s)
{
    if (predictor == SP_PRED_NONE || s->seen == 0)
        return 0;
    if (predictor == SP_PRED_PREVIOUS || s->seen == 1)
        return s->k1;
    if (predictor == SP_PRED_LINEAR)
        return 2 * s->k1 - s->k2;
    return s->k1 + sp_floor_div16((s->k1 - s->k2) * s->weight);
}

/* The adaptive predictor moves its weight on the slope by 1/16 towards the
 * residual's side (a sign-sign LMS filter), within 0 .. 2. */
static inline void sp_predictor_update(int predictor, sp_predictor_state *s, int32_t value, int32_t residual)
{
    if (predictor == SP_PRED_ADAPTIVE && s->seen >= 2 && residual != 0 && s->k1 != s->k2) {
        const bool same = (residual > 0) == (s->k1 > s->k2);
        s->weight += same ? 1 : -1;
        s->weight = s->weight < 0 ? 0 : s->weight > 32 ? 32 : s->weight;
    }
    s->k2 = s->k1;
    s->k1 = value;
    if (s->seen < 2)
        s->seen++;
}
/* x modulo 2^32 as a signed 32-bit integer */
static inline int32_t sp_wrap32(int64_t x)
{
    const uint32_t u = (uint32_t)((uint64_t)x & 0xFFFFFFFFu);
    return (int32_t)(u <= INT32_MAX ? (int64_t)u : (int64_t)u - 4294967296LL);
}

#endif
