/* shellpack-match: its encoder (the smallest of its sources' streams and their match-coded
 * versions) and its decoder (shellpack's for "SP", this file's for "SM"); shellpack_match.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "codecs/entropy/match_model.h"
#include "codecs/entropy/residual_signs.h"
#include "codecs/shellpack/shellpack.h"
#include "codecs/shellpack/shellpack_match.h"
#include "codecs/shellpack/shellpack_priors.h"

#define SM_VERSION 1
#define SM_FLAG_PRIORS 1u   /* the residual models start from the row's built-in states (shellpack_priors.h) */
#define SM_FLAG_NO_MATCH 2u /* the residuals go straight to the residual coder (with SM_FLAG_PRIORS only) */
#define SM_FLAG_SIGNS 4u    /* each sign coded in its own context (residual_signs.h) */
#define SM_STREAM_KINDS 6   /* flags 0, 1 and 3, and with SM_FLAG_SIGNS 4, 5 and 7 */
#define SM_FIXED_HEADER 28 /* shellpack's: magic, version, flags, frames, fps, target, shell, checksum */
enum { SM_FOLDING, SM_CONSTANTS, SM_STEPS, SM_RESIDUALS, SM_SECTIONS = SM_RESIDUALS + SP_TYPES };
static const char *const SM_SECTION_NAMES[SM_SECTIONS] = {
    "folding", "constants", "steps and predictors", "rotation residuals", "translation residuals", "scale residuals"};
static const char *const TYPE_NAMES[SP_TYPES] = {"rotation", "translation", "scale"};

static bool row_writes(const shellpack_match_config *cfg, int flags);

static bool every_frame_kept(const sp_plan *p)
{
    for (size_t i = 0; i < (size_t)p->bones * (size_t)p->frames; i++)
        if (!p->kept[i])
            return false;
    return true;
}

/* The residuals of sub-track `type` in a match stream: as many as its animated curves have frames. */
static size_t residual_count(const sp_plan *p, int type)
{
    size_t n = 0;
    for (int b = 0; b < p->bones; b++)
        if (sp_track_at(p, b, type)->mode == SP_ANIM)
            n += (size_t)p->frames * (size_t)sp_comps(p, type);
    return n;
}

/* Every curve of `type`, joint by joint, component by component, frame by frame (shellpack's order):
 * the encoder codes the plan's residuals, the decoder fills the plan from them. */
typedef struct residual_coder {
    rc_encoder *e;
    rc_decoder *d;
    bit_writer *w;
    bit_reader *r;
    residual_model model;
    sign_model signs;
    match_model match;
    bool use_match; /* off: every residual straight through the residual coder */
    bool use_signs; /* each sign in its sign context */
} residual_coder;

/* The models a stream with these flags starts from: 1/2 everywhere, or the row's priors. */
static void start_models(residual_coder *rc, const shellpack_match_config *cfg, int flags, int type)
{
    rc->use_match = !(flags & SM_FLAG_NO_MATCH);
    rc->use_signs = (flags & SM_FLAG_SIGNS) != 0;
    if (flags & SM_FLAG_PRIORS) {
        memcpy(&rc->model, cfg->priors[type], sizeof rc->model);
        if (rc->use_signs)
            memcpy(&rc->signs, &SP_SIGN_PRIORS[type], sizeof rc->signs);
    } else {
        residual_model_init(&rc->model);
        sign_model_init(&rc->signs);
    }
}

/* The encoder's loop: the plan's residuals into the stream. */
static void encode_residuals(const sp_plan *p, int type, residual_coder *rc)
{
    for (int b = 0; b < p->bones; b++) {
        const sp_track *t = sp_track_at(p, b, type);
        if (t->mode != SP_ANIM)
            continue;
        for (int c = 0; c < sp_comps(p, type); c++) {
            const int32_t *k = sp_curve(p, b, type, c);
            sp_predictor_state s;
            sp_predictor_reset(&s);
            uint32_t m1 = 0, m2 = 0;
            int32_t r = 0;
            for (int f = 0; f < p->frames; f++) {
                const int64_t predicted = sp_predict(t->predictor[c], &s);
                const int ctx = sp_curve_context(m1, m2);
                const int sctx = rc->use_signs ? sign_context(f ? r : 0, s.seen >= 2 ? s.k1 - s.k2 : 0) : 0;
                r = sp_wrap32((int64_t)k[f] - predicted); /* after the sign context, which reads the last one */
                if (rc->use_signs) {
                    if (rc->use_match)
                        match_encode_signs(rc->e, rc->w, &rc->model, &rc->signs, &rc->match, ctx, sctx, r);
                    else
                        residual_encode_signs(rc->e, rc->w, &rc->model, &rc->signs, ctx, sctx, r);
                } else if (rc->use_match)
                    match_encode(rc->e, rc->w, &rc->model, &rc->match, ctx, r);
                else
                    residual_encode(rc->e, rc->w, &rc->model, ctx, r);
                sp_predictor_update(t->predictor[c], &s, k[f], r);
                m2 = m1;
                m1 = sp_magnitude(r);
            }
        }
    }
}

/* The decoder's loop, the plan's curves from the stream, with the coder's, the raw bits' and the
 * match model's state in locals and every call inline: they stay in registers from one value to the
 * next instead of going through memory (the walk's match stream decoded in 0.88x the time;
 * docs/shellpack.md).  Inlined into each of decode_residuals's four calls, so that it is compiled
 * once per kind of stream (with or without signs and the match model), its flags constants. */
RC_ALWAYS_INLINE void decode_residuals_as(sp_plan *p, int type, residual_coder *rc, const bool use_signs,
                                       const bool use_match)
{
    rc_decoder d = *rc->d;
    bit_reader raw = *rc->r;
    match_model match = rc->match;
    for (int b = 0; b < p->bones; b++) {
        const sp_track *t = sp_track_at(p, b, type);
        if (t->mode != SP_ANIM)
            continue;
        for (int c = 0; c < sp_comps(p, type); c++) {
            int32_t *k = sp_curve(p, b, type, c);
            const int predictor = t->predictor[c];
            sp_predictor_state s;
            sp_predictor_reset(&s);
            uint32_t m1 = 0, m2 = 0;
            int32_t r = 0;
            for (int f = 0; f < p->frames; f++) {
                const int64_t predicted = sp_predict(predictor, &s);
                const int ctx = sp_curve_context(m1, m2);
                /* the residual's sign in its sign context, or the residual model's own (NULL) */
                rc_prob *sign = use_signs
                                    ? &rc->signs.negative[ctx][sign_context(f ? r : 0, s.seen >= 2 ? s.k1 - s.k2 : 0)]
                                    : NULL;
                r = use_match ? match_decode_at(&d, &raw, &rc->model, &match, ctx, sign)
                              : residual_decode_at(&d, &raw, &rc->model, ctx, sign);
                k[f] = sp_wrap32(predicted + r);
                sp_predictor_update(predictor, &s, k[f], r);
                m2 = m1;
                m1 = sp_magnitude(r);
            }
        }
    }
    *rc->d = d;
    *rc->r = raw;
    rc->match = match;
}

static void decode_residuals(sp_plan *p, int type, residual_coder *rc)
{
    if (rc->use_signs && rc->use_match)
        decode_residuals_as(p, type, rc, true, true);
    else if (rc->use_signs)
        decode_residuals_as(p, type, rc, true, false);
    else if (rc->use_match)
        decode_residuals_as(p, type, rc, false, true);
    else
        decode_residuals_as(p, type, rc, false, false);
}

static int write_match_residuals(const sp_plan *p, int type, const shellpack_match_config *cfg, int flags,
                                 byte_buffer *out)
{
    const size_t count = residual_count(p, type);
    if (count == 0)
        return 0;
    byte_buffer coded, raw_bits;
    bytes_init(&coded);
    bytes_init(&raw_bits);
    rc_encoder e;
    bit_writer w;
    rc_encoder_init(&e, &coded);
    bit_writer_init(&w, &raw_bits);
    residual_coder rc = {.e = &e, .w = &w};
    start_models(&rc, cfg, flags, type);
    int result = match_model_init(&rc.match, rc.use_match ? count : 0);
    if (result == 0) {
        encode_residuals(p, type, &rc);
        rc_encoder_finish(&e);
        bit_writer_finish(&w);
        sp_put_varint(out, coded.size);
        bytes_append(out, coded.data, coded.size);
        bytes_append(out, raw_bits.data, raw_bits.size);
        result = coded.failed || raw_bits.failed ? -1 : 0;
    }
    match_model_free(&rc.match);
    bytes_free(&coded);
    bytes_free(&raw_bits);
    return result;
}

/* The match stream of a plan with every frame kept, its header fields from the shellpack stream it
 * was read from; parts get the breakdown.  0, or -1 when out of memory. */
static int write_match_stream(const sp_plan *p, const uint8_t *sp_header_bytes, const shellpack_match_config *cfg,
                              int flags, byte_buffer *out, codec_part *parts, int *part_count)
{
    byte_buffer sec[SM_SECTIONS];
    for (int i = 0; i < SM_SECTIONS; i++)
        bytes_init(&sec[i]);
    sp_write_folding(p, &sec[SM_FOLDING], &sec[SM_CONSTANTS]);
    sp_write_steps(p, &sec[SM_STEPS]);
    int rc = 0;
    for (int type = 0; type < SP_TYPES && rc == 0; type++)
        rc = write_match_residuals(p, type, cfg, flags, &sec[SM_RESIDUALS + type]);
    out->size = 0;
    bytes_append(out, "SM", 2);
    bytes_u8(out, SM_VERSION);
    bytes_u8(out, (uint8_t)flags);
    bytes_append(out, sp_header_bytes + 4, SM_FIXED_HEADER - 4);
    for (int i = 0; i < SM_SECTIONS; i++)
        sp_put_varint(out, sec[i].size);
    parts[0] = (codec_part){"header", (long)out->size};
    *part_count = 1;
    for (int i = 0; i < SM_SECTIONS; i++) {
        bytes_append(out, sec[i].data, sec[i].size);
        if (sec[i].size)
            parts[(*part_count)++] = (codec_part){SM_SECTION_NAMES[i], (long)sec[i].size};
        if (sec[i].failed)
            rc = -1;
        bytes_free(&sec[i]);
    }
    return rc == 0 && !out->failed ? 0 : -1;
}

static int read_match_residuals(sp_plan *p, int type, const shellpack_match_config *cfg, int flags,
                                const uint8_t *data, size_t size, char *err, size_t err_size)
{
    const size_t count = residual_count(p, type);
    if (count == 0) {
        if (size)
            return snprintf(err, err_size, "shellpack-match stream: %zu bytes of %s residuals, no animated %s", size,
                            TYPE_NAMES[type], TYPE_NAMES[type]),
                   -1;
        return 0;
    }
    size_t pos = 0;
    uint64_t coded;
    if (!sp_get_varint(data, size, &pos, &coded) || coded > size - pos)
        return snprintf(err, err_size,
                        "shellpack-match stream: the %s residuals' coded length is missing or past their %zu bytes",
                        TYPE_NAMES[type], size),
               -1;
    rc_decoder d;
    bit_reader r;
    rc_decoder_init(&d, data + pos, (size_t)coded);
    bit_reader_init(&r, data + pos + coded, size - pos - (size_t)coded);
    residual_coder rc = {.d = &d, .r = &r};
    start_models(&rc, cfg, flags, type);
    if (match_model_init(&rc.match, rc.use_match ? count : 0) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    decode_residuals(p, type, &rc);
    const bool contradicted = rc.match.contradicted;
    match_model_free(&rc.match);
    if (d.overrun || r.overrun)
        return snprintf(err, err_size, "shellpack-match stream: the %s residuals (%zu bytes) end before their last value",
                        TYPE_NAMES[type], size),
               -1;
    /* the decoder reads every byte the encoder wrote, and the raw bits' padding is zeros: anything
     * else is not a stream the encoder wrote */
    if (d.pos != d.size || r.pos != r.size || (r.acc & ((1ull << r.count) - 1)) != 0)
        return snprintf(err, err_size,
                        "shellpack-match stream: the %s residuals leave bytes or bits unread (%zu of %llu coded bytes, "
                        "%zu of %zu raw)",
                        TYPE_NAMES[type], d.pos, (unsigned long long)coded, r.pos, r.size),
               -1;
    if (contradicted)
        return snprintf(err, err_size,
                        "shellpack-match stream: a %s residual flagged as not the expected value is the expected value",
                        TYPE_NAMES[type]),
               -1;
    return 0;
}

/* Reads a match stream into a plan (which it initialises); 0, or -1 with what is wrong and where. */
static int read_match_stream(const uint8_t *bytes, size_t size, const anim_rig *rig, const shellpack_match_config *cfg,
                             sp_plan *p, double *fps, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    if (size < SM_FIXED_HEADER || memcmp(bytes, "SM", 2) != 0)
        return snprintf(err, err_size, "shellpack-match stream: no SM header (%d bytes)", SM_FIXED_HEADER), -1;
    const int flags = bytes[3];
    if (bytes[2] != SM_VERSION || !row_writes(cfg, flags)) {
        char read[32] = "", *at = read; /* the flags it reads: "0, 1 or 3" */
        int listed = 0, total = 0;
        for (int f = 0; f < 8; f++)
            total += row_writes(cfg, f);
        for (int f = 0; f < 8; f++)
            if (row_writes(cfg, f))
                at += snprintf(at, sizeof read - (size_t)(at - read), "%s%d",
                               listed++ == 0 ? "" : listed == total ? " or " : ", ", f);
        return snprintf(err, err_size, "shellpack-match stream: version %u flags 0x%02x, this row's decoder reads version "
                        "%d flags %s", bytes[2], bytes[3], SM_VERSION, read),
               -1;
    }
    const uint32_t frames = load_u32(bytes + 4);
    memcpy(fps, bytes + 8, 8); /* little-endian hosts, as shellpack's */
    if (frames < 1 || frames > LIMIT_FRAMES_MAX || !(*fps >= LIMIT_RATE_MIN_HZ && *fps <= LIMIT_RATE_MAX_HZ))
        return snprintf(err, err_size, "shellpack-match stream: header says %u frames at %g fps (1 to %d frames at %g to %g)",
                        frames, *fps, LIMIT_FRAMES_MAX, LIMIT_RATE_MIN_HZ, LIMIT_RATE_MAX_HZ),
               -1;
    if (!isfinite(load_f32(bytes + 16)) || !isfinite(load_f32(bytes + 20)))
        return snprintf(err, err_size, "shellpack-match stream: its target or shell distance is not a finite number"), -1;
    if (load_u32(bytes + 24) != sp_rig_checksum(rig))
        return snprintf(err, err_size, "shellpack-match stream: encoded for another rig (checksum %08x, this rig's %08x)",
                        load_u32(bytes + 24), sp_rig_checksum(rig)),
               -1;
    if (clip_limits_check_decoded(frames, rig->bone_count, err, err_size) != 0)
        return -1;
    size_t pos = SM_FIXED_HEADER, at[SM_SECTIONS], len[SM_SECTIONS];
    for (int i = 0; i < SM_SECTIONS; i++) {
        uint64_t n;
        if (!sp_get_varint(bytes, size, &pos, &n))
            return snprintf(err, err_size, "shellpack-match stream: the size of its %s is cut or not in shortest form",
                            SM_SECTION_NAMES[i]),
                   -1;
        len[i] = n > size ? size + 1 : (size_t)n; /* over size: caught below without wrapping */
    }
    for (int i = 0; i < SM_SECTIONS; i++) {
        if (len[i] > size - pos)
            return snprintf(err, err_size, "shellpack-match stream: its %s runs past its %zu bytes",
                            SM_SECTION_NAMES[i], size),
                   -1;
        at[i] = pos;
        pos += len[i];
    }
    if (pos != size)
        return snprintf(err, err_size, "shellpack-match stream: %zu bytes follow its last section", size - pos), -1;
    if (sp_plan_init(p, rig->bone_count, (int)frames, 3) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    int rc = sp_read_folding(p, bytes + at[SM_FOLDING], len[SM_FOLDING], bytes + at[SM_CONSTANTS], len[SM_CONSTANTS],
                             err, err_size);
    if (rc == 0)
        rc = sp_read_steps(p, bytes + at[SM_STEPS], len[SM_STEPS], err, err_size);
    for (int type = 0; type < SP_TYPES && rc == 0; type++)
        rc = read_match_residuals(p, type, cfg, flags, bytes + at[SM_RESIDUALS + type], len[SM_RESIDUALS + type], err,
                                  err_size);
    if (rc == 0)
        rc = sp_check_rotations(p, err, err_size);
    if (rc != 0)
        sp_plan_free(p);
    return rc;
}

/* Either stream's plan: shellpack's reader for "SP", this file's for "SM". */
static int read_any(const uint8_t *bytes, size_t size, const anim_rig *rig, const shellpack_match_config *cfg,
                    sp_plan *p, double *fps, char *err, size_t err_size)
{
    if (size >= 2 && memcmp(bytes, "SM", 2) == 0)
        return read_match_stream(bytes, size, rig, cfg, p, fps, err, err_size);
    if (size >= 4 && memcmp(bytes, "SP", 2) == 0 && bytes[3] != 0) /* its sources write log maps, range coded */
        return snprintf(err, err_size, "shellpack-match stream: a shellpack stream with flags 0x%02x; this row's have 0",
                        bytes[3]),
               -1;
    sp_header h;
    if (sp_read(bytes, size, rig, p, &h, err, err_size) != 0)
        return -1;
    *fps = h.fps;
    return 0;
}

static bool same_plan(const sp_plan *a, const sp_plan *b)
{
    if (a->bones != b->bones || a->frames != b->frames || a->rot_comps != b->rot_comps)
        return false;
    for (int j = 0; j < a->bones; j++)
        for (int type = 0; type < SP_TYPES; type++) {
            const sp_track *s = sp_track_at(a, j, type), *t = sp_track_at(b, j, type);
            if (s->mode != t->mode)
                return false;
            for (int c = 0; c < sp_comps(a, type); c++) {
                if (s->mode == SP_CONST && memcmp(&s->constant[c], &t->constant[c], sizeof s->constant[c]) != 0)
                    return false;
                if (s->mode == SP_ANIM &&
                    (s->step_index[c] != t->step_index[c] || s->predictor[c] != t->predictor[c] ||
                     memcmp(sp_curve(a, j, type, c), sp_curve(b, j, type, c), (size_t)a->frames * sizeof(int32_t)) != 0))
                    return false;
            }
        }
    return true;
}

/* The match stream of a source's verified shellpack stream, into `out`, checked by reading it back:
 * 1 written, 0 not possible (a frame left out, or quaternions), -1 failed with a message. */
static int match_version(const codec *c, const codec_output *source, const anim_rig *rig, int flags, codec_output *out,
                         char *err, size_t err_size)
{
    const shellpack_match_config *cfg = c->config;
    sp_plan plan, back;
    double fps;
    if (read_any(source->bytes.data, source->bytes.size, rig, cfg, &plan, &fps, err, err_size) != 0)
        return -1;
    int rc = 0;
    if (plan.rot_comps == 3 && every_frame_kept(&plan)) {
        rc = write_match_stream(&plan, source->bytes.data, cfg, flags, &out->bytes, out->parts, &out->part_count);
        if (rc != 0)
            snprintf(err, err_size, "out of memory");
        else if (read_match_stream(out->bytes.data, out->bytes.size, rig, cfg, &back, &fps, err, err_size) != 0)
            rc = -1;
        else {
            rc = same_plan(&plan, &back) ? 1 : -1;
            if (rc < 0)
                snprintf(err, err_size, "%s: its match stream reads back to other integers than it was written from",
                         c->name);
            sp_plan_free(&back);
        }
    }
    sp_plan_free(&plan);
    return rc;
}

/* Moves `from` into `to` (whose contents are freed); `from` is left empty. */
static void take(codec_output *to, codec_output *from)
{
    codec_output_free(to);
    *to = *from;
    codec_output_init(from);
}

/* Whether a row with this config writes streams with these flags (its decoder reads no others): flags
 * 1 and 3 with priors, 4, 5 and 7 with priors and signs (flag 4 alone with signs). */
static bool row_writes(const shellpack_match_config *cfg, int flags)
{
    const int known = (cfg->priors ? SM_FLAG_PRIORS | SM_FLAG_NO_MATCH : 0) | (cfg->signs ? SM_FLAG_SIGNS : 0);
    return (flags & ~known) == 0 && (flags & 3) != SM_FLAG_NO_MATCH;
}

/* The match streams a row writes of each source's plan, in the order they are offered. */
static const int STREAM_FLAGS[SM_STREAM_KINDS] = {0,
                                                  SM_FLAG_PRIORS,
                                                  SM_FLAG_PRIORS | SM_FLAG_NO_MATCH,
                                                  SM_FLAG_SIGNS,
                                                  SM_FLAG_SIGNS | SM_FLAG_PRIORS,
                                                  SM_FLAG_SIGNS | SM_FLAG_PRIORS | SM_FLAG_NO_MATCH};

/* The smallest stream offered so far of one kind (with the match model, or without it: a shellpack
 * stream or flags 3) and when it was offered, so that a tie goes to the first. */
typedef struct offered {
    codec_output out;
    bool have;
    int order;
} offered;

/* Keeps `from` in `best` when it is the first of its kind or strictly smaller. */
static void offer(offered *best, codec_output *from, int order)
{
    if (!best->have || from->bytes.size < best->out.bytes.size) {
        take(&best->out, from);
        best->have = true;
        best->order = order;
    }
}

/* The stream the row keeps: the smallest, the first on a tie; or, with a margin, the smallest stream
 * with the match model only when it is smaller than every stream without it by more than the margin
 * (its decoder pays a table look-up per value, a cache miss on a clip without repeats). */
static bool keep_matched(const shellpack_match_config *cfg, const offered *plain, const offered *matched)
{
    if (!matched->have)
        return false;
    const size_t m = matched->out.bytes.size, u = plain->out.bytes.size;
    if (cfg->match_margin_permille == 0)
        return m < u || (m == u && matched->order < plain->order);
    return (uint64_t)m * 1000u < (uint64_t)u * (uint64_t)(1000 - cfg->match_margin_permille);
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const shellpack_match_config *cfg = c->config;
    if (cfg->match_margin_permille < 0 || cfg->match_margin_permille >= 1000) {
        snprintf(err, err_size, "%s: a match margin of %d thousandths (0 to 999)", c->name, cfg->match_margin_permille);
        return -1;
    }
    offered plain = {.have = false}, matched = {.have = false};
    codec_output trial, versions[SM_STREAM_KINDS];
    codec_output_init(&plain.out);
    codec_output_init(&matched.out);
    codec_output_init(&trial);
    for (int k = 0; k < SM_STREAM_KINDS; k++)
        codec_output_init(&versions[k]);
    int rc = 0, order = 0;
    for (int i = 0; i < SHELLPACK_MATCH_SOURCES_MAX && cfg->sources[i] && rc == 0; i++) {
        const codec *source = codec_find(cfg->sources[i]);
        if (!source || source->param_count != c->param_count) {
            snprintf(err, err_size, "%s: its source row %s is not in the registry with its parameters", c->name,
                     cfg->sources[i]);
            rc = -1;
            break;
        }
        codec_output_free(&trial);
        if ((rc = source->ops->encode(source, in, p, &trial, err, err_size)) != 0)
            break;
        int written[SM_STREAM_KINDS] = {0};
        for (int k = 0; k < SM_STREAM_KINDS && rc == 0; k++) {
            if (!row_writes(cfg, STREAM_FLAGS[k]))
                continue;
            codec_output_free(&versions[k]);
            versions[k].keys = trial.keys;
            versions[k].key_time_bytes = 0;
            versions[k].has_reported_error = trial.has_reported_error;
            versions[k].reported_error_mm = trial.reported_error_mm;
            versions[k].reported_joint = trial.reported_joint;
            versions[k].reported_frame = trial.reported_frame;
            written[k] = match_version(c, &trial, in->clip->rig, STREAM_FLAGS[k], &versions[k], err, err_size);
            rc = written[k] < 0 ? -1 : 0;
        }
        if (rc != 0)
            break;
        /* in the order offered: the source's own stream, then its versions */
        offer(&plain, &trial, order++);
        for (int k = 0; k < SM_STREAM_KINDS; k++)
            if (written[k] == 1)
                offer(STREAM_FLAGS[k] & SM_FLAG_NO_MATCH ? &plain : &matched, &versions[k], order++);
    }
    if (rc == 0 && !plain.have) {
        snprintf(err, err_size, "%s: no source row", c->name);
        rc = -1;
    }
    if (rc == 0)
        take(out, keep_matched(cfg, &plain, &matched) ? &matched.out : &plain.out);
    codec_output_free(&plain.out);
    codec_output_free(&matched.out);
    codec_output_free(&trial);
    for (int k = 0; k < SM_STREAM_KINDS; k++)
        codec_output_free(&versions[k]);
    return rc;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    sp_plan p;
    double fps;
    if (read_any(bytes, size, rig, c->config, &p, &fps, err, err_size) != 0)
        return NULL;
    anim_clip *clip = sp_plan_to_clip(&p, rig, fps);
    sp_plan_free(&p);
    if (!clip)
        snprintf(err, err_size, "out of memory");
    return clip;
}

/* It decodes ahead, as shellpack's whole-clip rows do: the sampler holds the decoded clip. */
struct codec_sampler {
    anim_clip *clip;
};

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    anim_clip *clip = decode(c, bytes, size, rig, err, err_size);
    codec_sampler *s = clip ? malloc(sizeof *s) : NULL;
    if (!s) {
        if (clip)
            snprintf(err, err_size, "out of memory");
        clip_free(clip);
        return NULL;
    }
    s->clip = clip;
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    clip_interpolate_pose(s->clip, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    if (s)
        clip_free(s->clip);
    free(s);
}

const codec_ops SHELLPACK_MATCH_OPS = {encode, decode, sampler_create, sample, sampler_free};
