/* shellpack's random-access stream (shellpack-ra, issue 22): the values of the whole-clip stream
 * with every frame kept, cut into sections of frames that decode alone, entropy coded by a static
 * rANS coder whose tables are named by three small integers each (codecs/entropy/rans.h,
 * geometric_table.h), so that a sampler decodes at most one section around the time it is asked
 * and keeps a context of a few kilobytes instead of the decoded clip (shellpack_ra_sampler.c).
 *
 * Bytes, little-endian:
 *   "SR", u8 version 1, u8 flags (1: quaternion rotations), u32 frames, f64 fps, f32 target (mm of
 *   shell distance), f32 shell distance (mm), u32 rig checksum, u16 frames per section (L), u8 per
 *   kind (rotation, translation, scale) the count of its context tables (0 when nothing of that
 *   kind is animated, else 1, 2, 4, 8 or 16); then the seven parts' sizes as LEB128 varints:
 *   folding    2 bits per sub-track, as the whole-clip stream's
 *   constants  f32 per component of every constant sub-track
 *   steps      steps and predictors, range coded, as the whole-clip stream's
 *   anchors    range coded: every animated component's value at frame 0
 *   tables     21 bits per table (geometric_table.h), most significant bit first: per animated
 *              kind its context tables, then its restart table
 *   index      per section two varints: the bytes of its rANS stream, of its raw bits
 *   data       per section its rANS stream, then its raw bits
 * A frame's components are every animated component of every joint, grouped by predictor (linear,
 * adaptive, previous, none), then by kind (rotation, translation, scale), then in rig order.  Section s holds frames [s L, (s + 1) L), frame by frame, component by component.  Its
 * first frame restarts every component: section 0's values are the anchors (nothing coded), a later
 * section's are the anchors plus a residual coded with the kind's restart table.  Every later value
 * is its predictor's residual (shellpack.h's predictors, their history restarted with the section),
 * coded with the table of its kind and of the bucket of its context (the bit length of the larger
 * of its curve's last two residuals, 0 after a restart).  A residual is a symbol and raw bits
 * (geometric_table.h).
 *
 * A frame's values need only its section's earlier frames.  The reader checks the stream's
 * structure before anything is decoded (header, part sizes, folding, steps, anchors, tables,
 * index: every read stays within the bytes); a corrupt section then decodes to wrong values,
 * never to a read outside it.  The whole-clip decoder also refuses a section that ends early and a
 * rotation past the exponential's range. */
#include "codecs/shellpack/shellpack_ra.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/range_coder.h"
#include "core/limits.h"

#define SR_VERSION 1
#define SR_FIXED_HEADER 33
static const char *const PART_NAMES[SR_PARTS] = {"folding", "constants", "steps and predictors", "anchors",
                                                 "context tables", "section index", "sections"};

/* The order of a frame's components: grouped by predictor (SR_GROUP_ORDER), then by kind, then in
 * rig order, so a decoder runs one tight loop per group. */
static const uint8_t SR_GROUP_ORDER[SP_PREDICTORS] = {SP_PRED_LINEAR, SP_PRED_ADAPTIVE, SP_PRED_PREVIOUS, SP_PRED_NONE};

/* Lists the animated components in stream order: per component its kind, predictor, step and
 * (when refs) where its curve is; per animated sub-track where its components are (tracks); the
 * groups' starts (group_start, SR_GROUPS + 1).  Returns the count. */
static int list_comps(const sp_plan *p, uint8_t *kind, uint8_t *predictor, double *step, sr_comp_ref *refs,
                      sr_track *tracks, int *ntracks, int *group_start)
{
    int n = 0, t = 0;
    for (int b = 0; b < p->bones && tracks; b++)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(p, b, type)->mode == SP_ANIM)
                tracks[t++] = (sr_track){(uint16_t)b, (uint8_t)type, (uint8_t)sp_comps(p, type), {0, 0, 0, 0}};
    for (int g = 0; g < SR_GROUPS; g++) {
        if (group_start)
            group_start[g] = n;
        const int pred = SR_GROUP_ORDER[g / SP_TYPES], type = g % SP_TYPES;
        for (int b = 0, tr = 0; b < p->bones; b++)
            for (int ty = 0; ty < SP_TYPES; ty++) {
                const sp_track *x = sp_track_at(p, b, ty);
                if (x->mode != SP_ANIM)
                    continue;
                for (int c = 0; c < sp_comps(p, ty) && ty == type; c++) {
                    if (x->predictor[c] != pred)
                        continue;
                    if (kind) {
                        kind[n] = (uint8_t)ty;
                        predictor[n] = (uint8_t)pred;
                        step[n] = sp_step(x->step_index[c]);
                    }
                    if (refs)
                        refs[n] = (sr_comp_ref){(uint16_t)b, (uint8_t)ty, (uint8_t)c};
                    if (tracks)
                        tracks[tr].idx[c] = n;
                    n++;
                }
                tr++;
            }
    }
    if (group_start)
        group_start[SR_GROUPS] = n;
    if (ntracks) {
        t = 0;
        for (int b = 0; b < p->bones; b++)
            for (int ty = 0; ty < SP_TYPES; ty++)
                t += sp_track_at(p, b, ty)->mode == SP_ANIM;
        *ntracks = t;
    }
    return n;
}

static inline int sections_of(int frames, int section_frames)
{
    return (frames + section_frames - 1) / section_frames;
}

/* ---- writing ---- */

/* Every symbol to code, in stream order: its group (a kind's residuals, or 3 + kind: its
 * restarts), context, symbol and raw bits; and where each section starts. */
typedef struct sr_coded {
    uint8_t *group, *ctx, *symbol, *raw_bits;
    uint32_t *raw;
    size_t *first; /* per section its first symbol; first[sections] = count */
    size_t count;
} sr_coded;

static void coded_free(sr_coded *c)
{
    free(c->group);
    free(c->ctx);
    free(c->symbol);
    free(c->raw_bits);
    free(c->raw);
    free(c->first);
}

/* The plan's values as the decoder will see them: the same predictor steps as sr_decode_frame. */
static int collect(const sp_plan *p, const uint8_t *kind, const uint8_t *predictor, const sr_comp_ref *refs,
                   int ncomps, int section_frames, sr_coded *out)
{
    memset(out, 0, sizeof *out);
    const int sections = sections_of(p->frames, section_frames);
    const size_t max = (size_t)ncomps * (size_t)p->frames + 1;
    out->group = malloc(max);
    out->ctx = malloc(max);
    out->symbol = malloc(max);
    out->raw_bits = malloc(max);
    out->raw = malloc(max * sizeof *out->raw);
    out->first = malloc(((size_t)sections + 1) * sizeof *out->first);
    sr_state *st = malloc(((size_t)ncomps + 1) * sizeof *st);
    int32_t **curve = malloc(((size_t)ncomps + 1) * sizeof *curve);
    if (!out->group || !out->ctx || !out->symbol || !out->raw_bits || !out->raw || !out->first || !st || !curve) {
        free(st);
        free(curve);
        coded_free(out);
        return -1;
    }
    for (int i = 0; i < ncomps; i++)
        curve[i] = sp_curve(p, refs[i].bone, refs[i].type, refs[i].comp);
    size_t n = 0;
    for (int s = 0; s < sections; s++) {
        out->first[s] = n;
        const int f0 = s * section_frames, f1 = f0 + section_frames < p->frames ? f0 + section_frames : p->frames;
        for (int f = f0; f < f1; f++) {
            const int k = f - f0;
            for (int i = 0; i < ncomps; i++) {
                sr_state *q = &st[i];
                const int32_t v = curve[i][f];
                int32_t r;
                if (k == 0) {
                    q->mode = (uint8_t)(predictor[i] | kind[i] << 2);
                    sr_restart(q, v);
                    if (s == 0)
                        continue; /* the anchor itself */
                    r = sr_wrap((int64_t)v - curve[i][0]);
                    out->group[n] = (uint8_t)(SP_TYPES + kind[i]);
                    out->ctx[n] = 0;
                } else {
                    r = sr_wrap((int64_t)v - sr_predict(q, k));
                    out->group[n] = kind[i];
                    out->ctx[n] = q->ctx;
                    sr_update(q, k, v, r);
                }
                int bits;
                out->symbol[n] = (uint8_t)gt_symbol(r, &out->raw[n], &bits);
                out->raw_bits[n] = (uint8_t)bits;
                n++;
            }
        }
    }
    out->first[sections] = n;
    out->count = n;
    free(st);
    free(curve);
    return 0;
}

/* The tables: per kind its bucket count and each bucket's parameters; per kind a restart table. */
typedef struct sr_tables {
    int buckets[SP_TYPES];
    gt_params kind[SP_TYPES][SR_BUCKETS_MAX];
    gt_params restart[SP_TYPES];
    rans_table enc_kind[SP_TYPES][SR_BUCKETS_MAX], enc_restart[SP_TYPES];
} sr_tables;

#define SR_TABLE_BITS GT_BITS
/* An empty context's table: any serves, the one before is as good as any. */
static const gt_params TABLE_START = {0, 32, 20};

/* Per kind, the bucket count whose fitted tables and their 21 bits each cost least. */
static void choose_tables(const sp_plan *p, const sr_coded *c, sr_tables *t)
{
    static const int OPTIONS[] = {1, 2, 4, 8, 16};
    uint32_t by_ctx[SP_TYPES][SR_CONTEXTS][GT_SYMBOLS];
    uint32_t restarts[SP_TYPES][GT_SYMBOLS];
    memset(by_ctx, 0, sizeof by_ctx);
    memset(restarts, 0, sizeof restarts);
    for (size_t i = 0; i < c->count; i++) {
        if (c->group[i] < SP_TYPES)
            by_ctx[c->group[i]][c->ctx[i]][c->symbol[i]]++;
        else
            restarts[c->group[i] - SP_TYPES][c->symbol[i]]++;
    }
    for (int kind = 0; kind < SP_TYPES; kind++) {
        t->buckets[kind] = 0;
        if (!sp_type_animated(p, kind))
            continue;
        uint64_t best = UINT64_MAX;
        for (int o = 0; o < 5; o++) {
            const int buckets = OPTIONS[o];
            uint32_t counts[SR_BUCKETS_MAX][GT_SYMBOLS];
            memset(counts, 0, sizeof counts);
            for (int ctx = 0; ctx < SR_CONTEXTS; ctx++)
                for (int s = 0; s < GT_SYMBOLS; s++)
                    counts[sr_bucket_of(buckets, ctx)][s] += by_ctx[kind][ctx][s];
            gt_params fit[SR_BUCKETS_MAX];
            uint64_t cost = (uint64_t)buckets * SR_TABLE_BITS * 256;
            for (int b = 0; b < buckets; b++) {
                uint64_t one;
                fit[b] = gt_fit(counts[b], &one);
                bool empty = true;
                for (int s = 0; s < GT_SYMBOLS && empty; s++)
                    empty = counts[b][s] == 0;
                if (empty) /* any table serves a context nothing is coded in: the cheapest, the one before */
                    fit[b] = b > 0 ? fit[b - 1] : TABLE_START;
                cost += one;
            }
            if (cost < best) {
                best = cost;
                t->buckets[kind] = buckets;
                memcpy(t->kind[kind], fit, (size_t)buckets * sizeof *fit);
            }
        }
        for (int b = 0; b < t->buckets[kind]; b++)
            gt_table(t->kind[kind][b], &t->enc_kind[kind][b]);
        uint64_t unused;
        t->restart[kind] = gt_fit(restarts[kind], &unused);
        gt_table(t->restart[kind], &t->enc_restart[kind]);
    }
}

static const rans_table *table_for(const sr_tables *t, int group, int ctx)
{
    if (group >= SP_TYPES)
        return &t->enc_restart[group - SP_TYPES];
    return &t->enc_kind[group][sr_bucket_of(t->buckets[group], ctx)];
}

static void put_params(bit_writer *w, gt_params p)
{
    bit_put(w, p.slope, 8);
    bit_put(w, p.zero, 6);
    bit_put(w, p.last, 7);
}

int sp_write_ra(const sp_plan *p, const sp_header *h, const anim_rig *rig, int section_frames, byte_buffer *out,
                codec_part *parts, int *part_count, char *err, size_t err_size)
{
    if (section_frames < 1 || section_frames > 65535) {
        snprintf(err, err_size, "shellpack-ra: %d frames a section (1 to 65,535)", section_frames);
        return -1;
    }
    const int ncomps = list_comps(p, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    uint8_t *kind = malloc((size_t)ncomps + 1), *predictor = malloc((size_t)ncomps + 1);
    double *step = malloc(((size_t)ncomps + 1) * sizeof *step);
    sr_comp_ref *refs = malloc(((size_t)ncomps + 1) * sizeof *refs);
    sr_tables *tables = malloc(sizeof *tables);
    sr_coded coded;
    bool ok = kind && predictor && step && refs && tables;
    if (ok) {
        list_comps(p, kind, predictor, step, refs, NULL, NULL, NULL);
        ok = collect(p, kind, predictor, refs, ncomps, section_frames, &coded) == 0;
    }
    if (!ok) {
        free(refs);
        free(kind);
        free(predictor);
        free(step);
        free(tables);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    choose_tables(p, &coded, tables);
    byte_buffer sec[SR_PARTS];
    for (int i = 0; i < SR_PARTS; i++)
        bytes_init(&sec[i]);
    sp_write_folding(p, &sec[SR_FOLDING], &sec[SR_CONSTANTS]);
    sp_write_steps(p, &sec[SR_STEPS]);
    uint64_t restart_bits = 0; /* the restarts' code length, for the breakdown */
    if (ncomps > 0) {
        rc_encoder e;
        rc_encoder_init(&e, &sec[SR_ANCHORS]);
        residual_model m;
        residual_model_init(&m);
        uint32_t previous = 0;
        for (int i = 0; i < ncomps; i++) {
            const int32_t a = sp_curve(p, refs[i].bone, refs[i].type, refs[i].comp)[0];
            residual_encode(&e, NULL, &m, residual_context(previous), a);
            previous = sp_magnitude(a);
        }
        rc_encoder_finish(&e);
        bit_writer w;
        bit_writer_init(&w, &sec[SR_TABLES]);
        for (int k = 0; k < SP_TYPES; k++) {
            for (int b = 0; b < tables->buckets[k]; b++)
                put_params(&w, tables->kind[k][b]);
            if (tables->buckets[k])
                put_params(&w, tables->restart[k]);
        }
        bit_writer_finish(&w);
    }
    const int sections = sections_of(p->frames, section_frames);
    rans_symbol *syms = malloc((coded.count ? coded.count : 1) * sizeof *syms);
    ok = syms != NULL;
    for (int s = 0; s < sections && ok && ncomps > 0; s++) {
        const size_t a = coded.first[s], z = coded.first[s + 1];
        for (size_t i = a; i < z; i++) {
            syms[i - a] = (rans_symbol){table_for(tables, coded.group[i], coded.ctx[i]), coded.symbol[i]};
            if (coded.group[i] >= SP_TYPES)
                restart_bits += rans_cost(syms[i - a].table, coded.symbol[i]) + 256u * coded.raw_bits[i];
        }
        const size_t before = sec[SR_DATA].size;
        ok = rans_encode(syms, z - a, &sec[SR_DATA]);
        const size_t rans_bytes = sec[SR_DATA].size - before;
        bit_writer w;
        bit_writer_init(&w, &sec[SR_DATA]);
        for (size_t i = a; i < z; i++)
            bit_put(&w, coded.raw[i], coded.raw_bits[i]);
        bit_writer_finish(&w);
        sp_put_varint(&sec[SR_INDEX], rans_bytes);
        sp_put_varint(&sec[SR_INDEX], sec[SR_DATA].size - before - rans_bytes);
    }
    free(syms);
    const size_t start = out->size;
    bytes_append(out, "SR", 2);
    bytes_u8(out, SR_VERSION);
    bytes_u8(out, h->flags & SP_FLAG_QUATERNION);
    bytes_u32(out, (uint32_t)p->frames);
    bytes_f64(out, h->fps);
    bytes_f32(out, h->target_mm);
    bytes_f32(out, h->shell_mm);
    bytes_u32(out, sp_rig_checksum(rig));
    bytes_u16(out, (uint16_t)section_frames);
    for (int k = 0; k < SP_TYPES; k++)
        bytes_u8(out, (uint8_t)(ncomps ? tables->buckets[k] : 0));
    for (int i = 0; i < SR_PARTS; i++)
        sp_put_varint(out, sec[i].size);
    parts[0] = (codec_part){"header", (long)(out->size - start)};
    *part_count = 1;
    for (int i = 0; i < SR_PARTS; i++) {
        bytes_append(out, sec[i].data, sec[i].size);
        if (!sec[i].size)
            continue;
        if (i != SR_DATA) {
            parts[(*part_count)++] = (codec_part){PART_NAMES[i], (long)sec[i].size};
            continue;
        }
        /* what the restarts cost, by their code length: the rest of the sections is the frames' */
        long restarts = (long)((restart_bits + 1024) / 2048);
        restarts = restarts < (long)sec[i].size ? restarts : (long)sec[i].size;
        if (restarts > 0)
            parts[(*part_count)++] = (codec_part){"section restarts (by code length)", restarts};
        if ((long)sec[i].size > restarts)
            parts[(*part_count)++] = (codec_part){"sections' other frames", (long)sec[i].size - restarts};
    }
    for (int i = 0; i < SR_PARTS; i++) {
        ok = ok && !sec[i].failed;
        bytes_free(&sec[i]);
    }
    coded_free(&coded);
    free(refs);
    free(kind);
    free(predictor);
    free(step);
    free(tables);
    if (!ok || out->failed) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    return 0;
}

/* ---- reading ---- */

static int read_header(const uint8_t *bytes, size_t size, const anim_rig *rig, sr_model *m, char *err,
                       size_t err_size)
{
    if (size < SR_FIXED_HEADER || bytes[0] != 'S' || bytes[1] != 'R')
        return snprintf(err, err_size, "shellpack-ra stream: no SR header (%d bytes)", SR_FIXED_HEADER), -1;
    if (bytes[2] != SR_VERSION)
        return snprintf(err, err_size, "shellpack-ra stream: version %u, this decoder reads %d", bytes[2], SR_VERSION),
               -1;
    m->flags = bytes[3];
    if (m->flags > SP_FLAG_QUATERNION)
        return snprintf(err, err_size, "shellpack-ra stream: unknown flags 0x%02x", m->flags), -1;
    const uint32_t frames = load_u32(bytes + 4);
    memcpy(&m->fps, bytes + 8, 8);
    m->target_mm = load_f32(bytes + 16);
    m->shell_mm = load_f32(bytes + 20);
    if (frames < 1 || frames > LIMIT_FRAMES_MAX || !(m->fps > 0) || !isfinite(m->fps))
        return snprintf(err, err_size, "shellpack-ra stream: header says %u frames at %g fps", frames, m->fps), -1;
    if (load_u32(bytes + 24) != sp_rig_checksum(rig))
        return snprintf(err, err_size,
                        "shellpack-ra stream: encoded for another rig (checksum %08x, this rig's %08x: bones, parents "
                        "or rest offsets differ)",
                        load_u32(bytes + 24), sp_rig_checksum(rig)),
               -1;
    if (clip_limits_check_decoded(frames, rig->bone_count, err, err_size) != 0)
        return -1;
    m->frames = (int)frames;
    m->section_frames = load_u16(bytes + 28);
    if (m->section_frames < 1)
        return snprintf(err, err_size, "shellpack-ra stream: 0 frames a section"), -1;
    m->sections = sections_of(m->frames, m->section_frames);
    for (int k = 0; k < SP_TYPES; k++) {
        const int b = bytes[30 + k];
        if (b != 0 && b != 1 && b != 2 && b != 4 && b != 8 && b != 16)
            return snprintf(err, err_size, "shellpack-ra stream: %d context tables for a kind (0, 1, 2, 4, 8 or 16)", b),
                   -1;
        m->buckets[k] = b;
    }
    size_t pos = SR_FIXED_HEADER;
    uint64_t total = 0;
    for (int i = 0; i < SR_PARTS; i++) {
        uint64_t n;
        if (!sp_get_varint(bytes, size, &pos, &n))
            return snprintf(err, err_size, "shellpack-ra stream: the size of part %d (%s) is cut or not in shortest form",
                            i, PART_NAMES[i]),
                   -1;
        if (n > size || (total += n) > size)
            return snprintf(err, err_size, "shellpack-ra stream: its part sizes add up past its %zu bytes", size), -1;
        m->part_size[i] = (size_t)n;
    }
    if (total != size - pos)
        return snprintf(err, err_size, "shellpack-ra stream: its parts add up to %llu bytes, %zu follow the header",
                        (unsigned long long)total, size - pos),
               -1;
    for (int i = 0; i < SR_PARTS; i++) {
        m->part[i] = bytes + pos;
        pos += m->part_size[i];
    }
    return 0;
}

void sr_model_free(sr_model *m)
{
    free(m->shape.tracks);
    free(m->kind);
    free(m->anchor);
    free(m->step);
    free(m->predictor);
    free(m->tracks);
    free(m->table_storage);
    free(m->checkpoint);
    memset(m, 0, sizeof *m);
}

static bool get_params(bit_reader *r, gt_params *p)
{
    p->slope = (uint8_t)bit_get(r, 8);
    p->zero = (uint8_t)bit_get(r, 6);
    p->last = (uint8_t)bit_get(r, 7);
    return p->last < GT_SYMBOLS && !r->overrun;
}

static int read_tables(sr_model *m, char *err, size_t err_size)
{
    uint16_t freqs[SP_TYPES * (SR_BUCKETS_MAX + 1)][RANS_SYMBOLS];
    int n = 0, restarts[SP_TYPES];
    bit_reader r;
    bit_reader_init(&r, m->part[SR_TABLES], m->part_size[SR_TABLES]);
    uint16_t restart_freqs[SP_TYPES][RANS_SYMBOLS];
    for (int k = 0; k < SP_TYPES; k++) {
        gt_params p;
        for (int b = 0; b < m->buckets[k]; b++) {
            if (!get_params(&r, &p))
                return snprintf(err, err_size, "shellpack-ra stream: context table %d of kind %d is cut or out of range", b,
                                k),
                       -1;
            gt_frequencies(p, freqs[n++]);
        }
        if (m->buckets[k] && !get_params(&r, &p))
            return snprintf(err, err_size, "shellpack-ra stream: the restart table of kind %d is cut or out of range", k),
                   -1;
        if (m->buckets[k])
            gt_frequencies(p, restart_freqs[k]);
    }
    for (int k = 0; k < SP_TYPES; k++)
        if (m->buckets[k]) {
            restarts[k] = n;
            memcpy(freqs[n++], restart_freqs[k], sizeof restart_freqs[k]);
        }
    if (r.pos != m->part_size[SR_TABLES])
        return snprintf(err, err_size, "shellpack-ra stream: %zu bytes of tables, %zu read", m->part_size[SR_TABLES],
                        r.pos),
               -1;
    const rans_dtable *built[SP_TYPES * (SR_BUCKETS_MAX + 1)];
    const size_t bytes = rans_dtables_storage((const uint16_t(*)[RANS_SYMBOLS])freqs, n, GT_SYMBOLS);
    m->table_storage = aligned_alloc(64, bytes);
    if (!m->table_storage ||
        rans_dtables_build(built, (const uint16_t(*)[RANS_SYMBOLS])freqs, n, GT_SYMBOLS, m->table_storage) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    n = 0;
    for (int k = 0; k < SP_TYPES; k++) {
        for (int ctx = 0; ctx < SR_CONTEXTS; ctx++)
            m->by_context[k * SR_CONTEXTS + ctx] = m->buckets[k] ? built[n + sr_bucket_of(m->buckets[k], ctx)] : NULL;
        n += m->buckets[k];
    }
    for (int k = 0; k < SP_TYPES; k++)
        m->restart[k] = m->buckets[k] ? built[restarts[k]] : NULL;
    return 0;
}

/* Walks the index: every section's sizes within the data, adding up to it; keeps a checkpoint every
 * SR_CHECKPOINT sections. */
static int read_index(sr_model *m, char *err, size_t err_size)
{
    const size_t checkpoints = (size_t)(m->sections + SR_CHECKPOINT - 1) / SR_CHECKPOINT;
    m->checkpoint = malloc(checkpoints * 2 * sizeof *m->checkpoint);
    if (!m->checkpoint)
        return snprintf(err, err_size, "out of memory"), -1;
    size_t pos = 0, at = 0;
    for (int s = 0; s < m->sections; s++) {
        if (s % SR_CHECKPOINT == 0) {
            m->checkpoint[2 * (s / SR_CHECKPOINT)] = (uint32_t)at;
            m->checkpoint[2 * (s / SR_CHECKPOINT) + 1] = (uint32_t)pos;
        }
        uint64_t r, w;
        if (!sp_get_varint(m->part[SR_INDEX], m->part_size[SR_INDEX], &pos, &r) ||
            !sp_get_varint(m->part[SR_INDEX], m->part_size[SR_INDEX], &pos, &w) || r > m->part_size[SR_DATA] ||
            w > m->part_size[SR_DATA] || at + r + w > m->part_size[SR_DATA])
            return snprintf(err, err_size, "shellpack-ra stream: section %d's sizes are cut or past the data", s), -1;
        at += (size_t)(r + w);
    }
    if (pos != m->part_size[SR_INDEX] || at != m->part_size[SR_DATA])
        return snprintf(err, err_size,
                        "shellpack-ra stream: the index (%zu bytes, %zu of data) does not match the data (%zu bytes)",
                        m->part_size[SR_INDEX], at, m->part_size[SR_DATA]),
               -1;
    return 0;
}

int sr_model_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sr_model *m, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    if (read_header(bytes, size, rig, m, err, err_size) != 0)
        return -1;
    if (size > UINT32_MAX)
        return snprintf(err, err_size, "shellpack-ra stream: %zu bytes (at most 4 GiB)", size), -1;
    sp_plan *p = &m->shape;
    p->bones = rig->bone_count;
    p->frames = m->frames;
    p->rot_comps = m->flags & SP_FLAG_QUATERNION ? 4 : 3;
    p->tracks = calloc((size_t)p->bones * SP_TYPES, sizeof *p->tracks);
    if (!p->tracks)
        return snprintf(err, err_size, "out of memory"), -1;
    if (sp_read_folding(p, m->part[SR_FOLDING], m->part_size[SR_FOLDING], m->part[SR_CONSTANTS],
                        m->part_size[SR_CONSTANTS], err, err_size) != 0 ||
        sp_read_steps(p, m->part[SR_STEPS], m->part_size[SR_STEPS], err, err_size) != 0)
        goto bad;
    for (int k = 0; k < SP_TYPES; k++)
        if ((m->buckets[k] > 0) != sp_type_animated(p, k)) {
            snprintf(err, err_size, "shellpack-ra stream: kind %d has %d context tables and %s animated sub-track", k,
                     m->buckets[k], sp_type_animated(p, k) ? "an" : "no");
            goto bad;
        }
    m->ncomps = list_comps(p, NULL, NULL, NULL, NULL, NULL, &m->ntracks, NULL);
    const size_t n = (size_t)m->ncomps + 1;
    m->kind = malloc(n);
    m->predictor = malloc(n);
    m->anchor = malloc(n * sizeof *m->anchor);
    m->step = malloc(n * sizeof *m->step);
    m->tracks = malloc(((size_t)m->ntracks + 1) * sizeof *m->tracks);
    if (!m->kind || !m->predictor || !m->anchor || !m->step || !m->tracks) {
        snprintf(err, err_size, "out of memory");
        goto bad;
    }
    list_comps(p, m->kind, m->predictor, m->step, NULL, m->tracks, NULL, m->group_start);
    if (m->ncomps == 0) {
        for (int i = SR_ANCHORS; i < SR_PARTS; i++)
            if (m->part_size[i]) {
                snprintf(err, err_size, "shellpack-ra stream: %zu bytes of %s and nothing animated", m->part_size[i],
                         PART_NAMES[i]);
                goto bad;
            }
        return 0;
    }
    rc_decoder d;
    residual_model rm;
    rc_decoder_init(&d, m->part[SR_ANCHORS], m->part_size[SR_ANCHORS]);
    residual_model_init(&rm);
    uint32_t previous = 0;
    for (int i = 0; i < m->ncomps; i++) {
        m->anchor[i] = residual_decode(&d, NULL, &rm, residual_context(previous));
        previous = sp_magnitude(m->anchor[i]);
    }
    if (d.overrun) {
        snprintf(err, err_size, "shellpack-ra stream: the anchors end before their last component");
        goto bad;
    }
    if (read_tables(m, err, err_size) != 0 || read_index(m, err, err_size) != 0)
        goto bad;
    return 0;
bad:
    sr_model_free(m);
    return -1;
}

void sr_model_section(const sr_model *m, int s, const uint8_t **rans, size_t *rans_size, const uint8_t **raw,
                      size_t *raw_size)
{
    size_t at = m->checkpoint[2 * (s / SR_CHECKPOINT)], pos = m->checkpoint[2 * (s / SR_CHECKPOINT) + 1];
    uint64_t r = 0, w = 0;
    for (int i = s - s % SR_CHECKPOINT; i <= s; i++) { /* the index was checked by sr_model_read */
        at += (size_t)(r + w);
        sp_get_varint(m->part[SR_INDEX], m->part_size[SR_INDEX], &pos, &r);
        sp_get_varint(m->part[SR_INDEX], m->part_size[SR_INDEX], &pos, &w);
    }
    *rans = m->part[SR_DATA] + at;
    *rans_size = (size_t)r;
    *raw = *rans + r;
    *raw_size = (size_t)w;
}

void sr_cursor_start(const sr_model *m, sr_cursor *c, int section)
{
    const uint8_t *rans, *raw;
    size_t rans_size, raw_size;
    sr_model_section(m, section, &rans, &rans_size, &raw, &raw_size);
    rans_decoder_init(&c->d, rans, rans_size);
    sr_bits_init(&c->raw, raw, raw_size);
    c->section = section;
    c->next = section * m->section_frames;
}

void sr_model_static_pose(const sr_model *m, const anim_rig *rig, double *pose)
{
    for (int b = 0; b < rig->bone_count; b++) {
        double *o = pose + (size_t)b * POSE_STRIDE;
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&m->shape, b, type)->mode != SP_ANIM)
                sp_decode_track(&m->shape, rig, b, type, 0, 0, o);
            else if (type == SP_ROT) {
                o[3] = o[4] = o[5] = 0;
                o[6] = 1;
            } else
                for (int k = 0; k < 3; k++)
                    o[(type == SP_POS ? 0 : 7) + k] = type == SP_POS ? 0 : 1;
    }
}

/* ---- the whole clip ---- */

static bool rotation_in_range(const double *v)
{
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] <= 4 * SP_HALF_ANGLE_MAX * SP_HALF_ANGLE_MAX;
}

anim_clip *sp_decode_ra(const uint8_t *bytes, size_t size, const anim_rig *rig, char *err, size_t err_size)
{
    sr_model m;
    if (sr_model_read(bytes, size, rig, &m, err, err_size) != 0)
        return NULL;
    anim_clip *clip = clip_create_rest(rig, m.frames, m.fps);
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    sr_state *st = malloc(((size_t)m.ncomps + 1) * sizeof *st);
    if (!clip || !pose || !st) {
        snprintf(err, err_size, "out of memory");
        goto fail;
    }
    const size_t n = (size_t)m.frames;
    sr_model_static_pose(&m, rig, pose);
    for (int b = 0; b < rig->bone_count; b++) {
        const double *o = pose + (size_t)b * POSE_STRIDE;
        double *rot = clip_rot_track(clip, b);
        for (size_t f = 0; f < n; f++) {
            for (int a = 0; a < 3; a++) {
                clip->pos[((size_t)b * 3 + a) * n + f] = o[a];
                clip->scl[((size_t)b * 3 + a) * n + f] = o[7 + a];
            }
            memcpy(rot + f * 4, o + 3, 4 * sizeof *o);
        }
    }
    if (m.flags & SP_FLAG_QUATERNION)
        ; /* quaternion components: any value normalises */
    else
        for (int b = 0; b < rig->bone_count; b++) {
            const sp_track *t = sp_track_at(&m.shape, b, SP_ROT);
            double v[3];
            for (int c = 0; c < 3 && t->mode == SP_CONST; c++)
                v[c] = t->constant[c];
            if (t->mode == SP_CONST && !rotation_in_range(v)) {
                snprintf(err, err_size, "shellpack-ra stream: joint %d's constant rotation is over 8 radians", b);
                goto fail;
            }
        }
    for (int i = 0; i < m.ncomps; i++)
        st[i].mode = (uint8_t)(m.predictor[i] | m.kind[i] << 2);
    sr_cursor c;
    for (int s = 0; s < m.sections && m.ncomps > 0; s++) {
        sr_cursor_start(&m, &c, s);
        const int f1 = (s + 1) * m.section_frames < m.frames ? (s + 1) * m.section_frames : m.frames;
        while (c.next < f1) {
            const size_t f = (size_t)c.next;
            sr_decode_frame(&m, &c, st);
            for (int t = 0; t < m.ntracks; t++) {
                const sr_track *tr = &m.tracks[t];
                double v[SP_MAX_COMPS];
                for (int k = 0; k < tr->comps; k++)
                    v[k] = (double)st[tr->idx[k]].v1 * m.step[tr->idx[k]];
                if (tr->type == SP_ROT) {
                    if (tr->comps == 3 && !rotation_in_range(v)) {
                        snprintf(err, err_size, "shellpack-ra stream: joint %d's rotation at frame %zu is over 8 radians",
                                 tr->bone, f);
                        goto fail;
                    }
                    sp_to_rotation(&m.shape, v, clip_rot_track(clip, tr->bone) + f * 4);
                } else {
                    double *to = tr->type == SP_POS ? clip->pos : clip->scl;
                    for (int a = 0; a < 3; a++)
                        to[((size_t)tr->bone * 3 + a) * n + f] = v[a];
                }
            }
        }
        if (c.d.overrun || c.raw.overrun) {
            snprintf(err, err_size, "shellpack-ra stream: section %d ends before its last value", s);
            goto fail;
        }
    }
    free(st);
    free(pose);
    sr_model_free(&m);
    return clip;
fail:
    clip_free(clip);
    free(st);
    free(pose);
    sr_model_free(&m);
    return NULL;
}
