/* The smallest of a shellpack-match row's stream and other rows' shellpack streams
 * (shellpack_smallest.h). */
#include "codecs/shellpack/shellpack_smallest.h"

#include <stdio.h>
#include <string.h>

#include "codecs/shellpack/shellpack_match.h"

/* Whether two decoded clips are the same, sample for sample (bits, not tolerances). */
static bool same_clip(const anim_clip *a, const anim_clip *b)
{
    if (a->frame_count != b->frame_count || a->rig->bone_count != b->rig->bone_count)
        return false;
    const size_t n = (size_t)a->rig->bone_count * (size_t)a->frame_count;
    return memcmp(a->pos, b->pos, n * 3 * sizeof *a->pos) == 0 && memcmp(a->rot, b->rot, n * 4 * sizeof *a->rot) == 0 &&
           memcmp(a->scl, b->scl, n * 3 * sizeof *a->scl) == 0;
}

/* 0 when the match row's decoder reads `bytes` to the clip `other`'s decoder rebuilds from them; -1 with
 * a message naming this row when either decoder refuses them or the clips differ. */
static int read_alike(const codec *c, const codec *streams, const codec *other, const byte_buffer *bytes,
                      const anim_rig *rig, char *err, size_t err_size)
{
    char why[256];
    anim_clip *theirs = other->ops->decode(other, bytes->data, bytes->size, rig, why, sizeof why);
    if (!theirs) {
        snprintf(err, err_size, "%s: %s's stream does not decode by its own decoder: %s", c->name, other->name, why);
        return -1;
    }
    anim_clip *ours = SHELLPACK_MATCH_OPS.decode(streams, bytes->data, bytes->size, rig, why, sizeof why);
    const bool same = ours && same_clip(ours, theirs);
    if (!same)
        snprintf(err, err_size, "%s: %s's stream, smaller, %s%s", c->name, other->name,
                 ours ? "decodes to another clip by this row's decoder" : "is refused by this row's decoder: ",
                 ours ? "" : why);
    clip_free(ours);
    clip_free(theirs);
    return same ? 0 : -1;
}

/* The row whose streams, decoder and sampler these are, or NULL with a message. */
static const codec *streams_row(const codec *c, char *err, size_t err_size)
{
    const shellpack_smallest_config *cfg = c->config;
    const codec *streams = cfg->streams ? codec_find(cfg->streams) : NULL;
    if (!streams || streams->ops != &SHELLPACK_MATCH_OPS || streams->param_count != c->param_count) {
        snprintf(err, err_size, "%s: its row %s is not a shellpack-match row with its parameters", c->name,
                 cfg->streams ? cfg->streams : "(none)");
        return NULL;
    }
    return streams;
}

/* Every other row, checked before any encoding: in the registry, with this row's parameters, and not
 * a row of these ops (which would encode itself without end).  0, or -1 with a message. */
static int other_rows(const codec *c, const codec *others[SHELLPACK_SMALLEST_OTHERS_MAX], int *count, char *err,
                      size_t err_size)
{
    const shellpack_smallest_config *cfg = c->config;
    *count = 0;
    for (int i = 0; i < SHELLPACK_SMALLEST_OTHERS_MAX && cfg->others[i]; i++) {
        const codec *other = codec_find(cfg->others[i]);
        if (!other || other->param_count != c->param_count) {
            snprintf(err, err_size, "%s: its source row %s is not in the registry with its parameters", c->name,
                     cfg->others[i]);
            return -1;
        }
        if (other->ops == &SHELLPACK_SMALLEST_OPS) {
            snprintf(err, err_size, "%s: its source row %s keeps the smallest of other rows' streams too (it could "
                     "encode itself without end)", c->name, cfg->others[i]);
            return -1;
        }
        others[(*count)++] = other;
    }
    return 0;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const codec *streams = streams_row(c, err, err_size), *others[SHELLPACK_SMALLEST_OTHERS_MAX];
    int other_count;
    if (!streams || other_rows(c, others, &other_count, err, err_size) != 0)
        return -1;
    codec_output best, trial;
    codec_output_init(&best);
    codec_output_init(&trial);
    int rc = streams->ops->encode(streams, in, p, &best, err, err_size);
    for (int i = 0; i < other_count && rc == 0; i++) {
        codec_output_free(&trial);
        if ((rc = others[i]->ops->encode(others[i], in, p, &trial, err, err_size)) != 0)
            break;
        if (trial.bytes.size >= best.bytes.size)
            continue;
        /* smaller: this row's decoder must read it as its own row's does, or the encode fails (a stream
         * this row keeps decodes, by its decoder alone, to the clip that is measured) */
        if ((rc = read_alike(c, streams, others[i], &trial.bytes, in->clip->rig, err, err_size)) != 0)
            break;
        codec_output_free(&best);
        best = trial;
        codec_output_init(&trial);
    }
    codec_output_free(&trial);
    codec_output_free(out);
    if (rc == 0)
        *out = best;
    else
        codec_output_free(&best);
    return rc;
}

/* The stream is read by the match row: its decoder and sampler, given that row. */
static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    const codec *streams = streams_row(c, err, err_size);
    return streams ? SHELLPACK_MATCH_OPS.decode(streams, bytes, size, rig, err, err_size) : NULL;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    const codec *streams = streams_row(c, err, err_size);
    return streams ? SHELLPACK_MATCH_OPS.sampler_create(streams, bytes, size, rig, err, err_size) : NULL;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    SHELLPACK_MATCH_OPS.sample(s, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    SHELLPACK_MATCH_OPS.sampler_free(s);
}

const codec_ops SHELLPACK_SMALLEST_OPS = {encode, decode, sampler_create, sample, sampler_free};
