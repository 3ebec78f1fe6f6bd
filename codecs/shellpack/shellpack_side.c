/* shellpack-side: another row's stream with its side information coded from trained states and its
 * header made smaller; the container and its models are described in shellpack_side.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack_side.h"

#define SC_VERSION 1
enum { INNER_SP, INNER_SM, INNER_SR };
/* The inner streams' layout (shellpack_format.c, shellpack_match.c, shellpack_ra.c): magic, version 1,
 * flags, then u32 frames, f64 fps, f32 target, f32 shell distance, u32 rig checksum; a random-access
 * stream then u16 frames per section and u8 per kind its count of context tables; then section sizes. */
#define INNER_VERSION 1
#define INNER_FIXED 28
#define INNER_SR_FIXED (INNER_FIXED + 2 + SP_TYPES)
#define INNER_SECTIONS_MAX 7
/* A range-coded stream (range_coder.c) starts with its initial cache byte, always 0, and ends with
 * the 4 bytes of its final low: any value from low to low + range decodes the same symbols, and the
 * range is at least 2^24 there, so low's last 3 bytes may as well be 0xFF.  The container leaves the
 * first byte and the last 3 out and the decoder puts 0 and 0xFF back. */
#define CODED_TAIL 3
#define CODED_MIN (1 + 4) /* what rc_encoder_finish writes at least */
enum { SEC_FOLDING, SEC_CONSTANTS, SEC_STEPS, SEC_REST }; /* the first three, in both kinds */

static int inner_sections(int kind)
{
    /* SP: key masks and three residual sections; SM: the residuals; SR: anchors, tables, index, data */
    return kind == INNER_SM ? 6 : 7;
}

static size_t inner_fixed(int kind)
{
    return kind == INNER_SR ? INNER_SR_FIXED : INNER_FIXED;
}

/* A LEB128 varint of the container's, in its shortest form only (sp_get_varint lets a tenth byte's bits
 * above bit 63 go): one stream, one way of writing it. */
static bool get_varint(const uint8_t *data, size_t size, size_t *pos, uint64_t *v)
{
    const size_t at = *pos;
    if (!sp_get_varint(data, size, pos, v))
        return false;
    size_t shortest = 1;
    for (uint64_t x = *v >> 7; x; x >>= 7)
        shortest++;
    return *pos - at == shortest;
}

/* The container's kind byte: 0 a shellpack stream (flags 0), 2 a random-access stream (flags 0: log-map
 * rotations), odd a match stream with its flags in the bits above the lowest.  -1: none of these. */
static int kind_of_byte(uint8_t b, uint8_t *flags)
{
    *flags = (uint8_t)(b >> 1);
    if (b & 1)
        return INNER_SM;
    *flags = 0;
    return b == 0 ? INNER_SP : b == 2 ? INNER_SR : -1;
}

/* A random-access stream's counts of context tables per kind (0, 1, 2, 4, 8 or 16, shellpack_ra.c) as
 * one byte, each count's place in that list a base-6 digit; -1 for a count not in it. */
static int table_count_code(const uint8_t counts[SP_TYPES])
{
    int code = 0;
    for (int k = SP_TYPES - 1; k >= 0; k--) {
        int digit = 0;
        while (digit < 6 && (digit ? 1 << (digit - 1) : 0) != counts[k])
            digit++;
        if (digit == 6)
            return -1;
        code = code * 6 + digit;
    }
    return code;
}

static bool table_counts_of(int code, uint8_t counts[SP_TYPES])
{
    for (int k = 0; k < SP_TYPES; k++, code /= 6)
        counts[k] = (uint8_t)(code % 6 ? 1 << (code % 6 - 1) : 0);
    return code == 0;
}

/* ---- the side information: one coder for both directions, so that they cannot disagree ---- */

typedef struct side_io {
    rc_encoder *e; /* writing, or reading from d */
    rc_decoder *d;
    rc_prob prob[SP_SIDE_SLOTS];
    sp_side_trace trace;
    void *self;
} side_io;

static int side_bit(side_io *io, int slot, int bit)
{
    if (!io->e)
        return rc_decode_bit(io->d, &io->prob[slot]);
    if (io->trace)
        io->trace(io->self, slot, bit);
    rc_encode_bit(io->e, &io->prob[slot], bit);
    return bit;
}

static uint32_t side_raw(side_io *io, uint32_t value, int bits)
{
    if (!io->e)
        return rc_decode_raw(io->d, bits);
    rc_encode_raw(io->e, value, bits);
    return value;
}

_Static_assert(2 * SP_STEP_INDEX_MAX < 1u << SP_SIDE_NUMBER_BITS, "a zigzagged difference of two step indices fits a number");

static int bit_length(uint32_t v)
{
    int n = 0;
    while (v >> n)
        n++;
    return n;
}

/* v below 2^SP_SIDE_NUMBER_BITS: its bit length in unary, the bit below its leading one in a context
 * of that length, the rest raw.  Reading, v is ignored and the number read is returned. */
static uint32_t side_number(side_io *io, int set, uint32_t v)
{
    const int slots = SP_SIDE_SLOT_NUMBERS + set * SP_SIDE_NUMBER_SLOTS;
    const int length_in = io->e ? bit_length(v) : 0;
    int length = 0;
    while (length < SP_SIDE_NUMBER_BITS && side_bit(io, slots + length, length < length_in))
        length++;
    if (length < 2)
        return (uint32_t)length; /* 0 or 1 */
    const int below = side_bit(io, slots + SP_SIDE_NUMBER_BITS + length - 2, (int)(v >> (length - 2)) & 1);
    const uint32_t rest = side_raw(io, v & ((1u << (length - 2)) - 1), length - 2);
    return (1u << (length - 1)) | ((uint32_t)below << (length - 2)) | rest;
}

static uint32_t zigzag(int v)
{
    return v >= 0 ? 2u * (uint32_t)v : 2u * (uint32_t)(-v) - 1;
}

static int unzigzag(uint32_t z)
{
    return z & 1 ? -(int)((z + 1) / 2) : (int)(z / 2);
}

/* Codes (or reads into p) every sub-track's mode, constants, steps and predictors.  Reading checks
 * each step index; 0, or -1 with a message. */
static int side_code(side_io *io, sp_plan *p, const int *parents, int *bases, char *err, size_t err_size)
{
    const bool reading = !io->e;
    for (int b = 0; b < p->bones; b++) {
        const int parent = parents[b] >= 0 && parents[b] < b ? parents[b] : -1;
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(p, b, type);
            const int context = type * 4 + (parent >= 0 ? sp_track_at(p, parent, type)->mode : 3);
            const int animated = side_bit(io, SP_SIDE_SLOT_MODES + context, t->mode == SP_ANIM);
            const int constant =
                animated ? 0 : side_bit(io, SP_SIDE_SLOT_MODES + SP_TYPES * 4 + context, t->mode == SP_CONST);
            if (reading)
                t->mode = animated ? SP_ANIM : constant ? SP_CONST : SP_REST;
        }
    }
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(p, b, type);
            for (int c = 0; t->mode == SP_CONST && c < sp_comps(p, type); c++) {
                uint32_t bits;
                memcpy(&bits, &t->constant[c], sizeof bits);
                bits = side_raw(io, bits, 32);
                if (reading) {
                    memcpy(&t->constant[c], &bits, sizeof bits);
                    if (!isfinite(t->constant[c]))
                        return snprintf(err, err_size, "shellpack-side stream: joint %d's constant is not finite", b), -1;
                }
            }
        }
    int previous[SP_TYPES] = {0, 0, 0};
    for (int b = 0; b < p->bones; b++) {
        const int parent = parents[b] >= 0 && parents[b] < b ? parents[b] : -1;
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(p, b, type);
            if (t->mode != SP_ANIM)
                continue;
            const bool from_parent = parent >= 0 && sp_track_at(p, parent, type)->mode == SP_ANIM;
            const int predicted = from_parent ? bases[parent * SP_TYPES + type] : previous[type];
            int base = t->step_index[0];
            for (int c = 1; c < sp_comps(p, type); c++)
                base = t->step_index[c] < base ? t->step_index[c] : base;
            base = predicted +
                   unzigzag(side_number(io, SP_SIDE_SET_BASE + 2 * type + from_parent, zigzag(base - predicted)));
            if (base < 0 || base > SP_STEP_INDEX_MAX)
                return snprintf(err, err_size, "shellpack-side stream: joint %d: step index %d is not 0 to %d", b, base,
                                SP_STEP_INDEX_MAX),
                       -1;
            bases[b * SP_TYPES + type] = previous[type] = base;
            int before = SP_PREDICTORS; /* the previous component's predictor; none yet */
            for (int c = 0; c < sp_comps(p, type); c++) {
                const uint32_t above = side_number(io, SP_SIDE_SET_SPREAD + type * SP_MAX_COMPS + c,
                                                   (uint32_t)(t->step_index[c] - base));
                if (base + above > SP_STEP_INDEX_MAX)
                    return snprintf(err, err_size, "shellpack-side stream: joint %d: step index %d is not %d to %d", b,
                                    (int)(base + above), base, SP_STEP_INDEX_MAX),
                           -1;
                const int slots = SP_SIDE_SLOT_PREDICTORS + ((type * SP_MAX_COMPS + c) * (SP_PREDICTORS + 1) + before) * 3;
                const int high = side_bit(io, slots, t->predictor[c] >> 1);
                const int low = side_bit(io, slots + 1 + high, t->predictor[c] & 1);
                if (reading) {
                    t->step_index[c] = (uint16_t)(base + above);
                    t->predictor[c] = (uint8_t)(2 * high + low);
                }
                before = 2 * high + low;
            }
        }
    }
    return 0;
}

int sp_side_write(const sp_plan *p, const int *parents, const rc_prob init[SP_SIDE_SLOTS], byte_buffer *out,
                  sp_side_trace trace, void *self)
{
    int *bases = malloc((size_t)p->bones * SP_TYPES * sizeof *bases);
    if (!bases)
        return -1;
    rc_encoder e;
    rc_encoder_init(&e, out);
    side_io io = {.e = &e, .trace = trace, .self = self};
    memcpy(io.prob, init, sizeof io.prob);
    char unused[8];
    const int rc = side_code(&io, (sp_plan *)p, parents, bases, unused, sizeof unused); /* writing reads p, never changes it */
    rc_encoder_finish(&e);
    free(bases);
    return rc != 0 || out->failed ? -1 : 0;
}

/* A plan of `bones` joints with tracks only: what the side information fills. */
static int side_plan_init(sp_plan *p, int bones)
{
    memset(p, 0, sizeof *p);
    p->bones = bones;
    p->rot_comps = 3;
    p->tracks = calloc((size_t)bones * SP_TYPES, sizeof *p->tracks);
    return p->tracks ? 0 : -1;
}

int sp_side_read(sp_plan *p, const int *parents, const uint8_t *data, size_t size, char *err, size_t err_size)
{
    uint8_t *whole = malloc(size + 1 + CODED_TAIL);
    int *bases = malloc((size_t)p->bones * SP_TYPES * sizeof *bases);
    int rc = -1;
    if (!whole || !bases)
        snprintf(err, err_size, "out of memory");
    else {
        whole[0] = 0;
        if (size)
            memcpy(whole + 1, data, size);
        memset(whole + 1 + size, 0xFF, CODED_TAIL);
        rc_decoder d;
        rc_decoder_init(&d, whole, size + 1 + CODED_TAIL);
        side_io io = {.d = &d};
        memcpy(io.prob, SP_SIDE_PRIORS, sizeof io.prob);
        rc = side_code(&io, p, parents, bases, err, err_size);
        /* the decoder reads exactly the bytes the encoder wrote: fewer or more is not a stream it wrote */
        if (rc == 0 && (d.overrun || d.pos != d.size))
            rc = (snprintf(err, err_size, "shellpack-side stream: its side information (%zu bytes) %s", size,
                           d.overrun ? "ends before its last sub-track" : "has bytes after its last sub-track"), -1);
    }
    free(whole);
    free(bases);
    return rc;
}

/* ---- the container ---- */

typedef struct span {
    const uint8_t *data;
    size_t size;
} span;

/* An inner stream's kind, flags and sections; 0, or -1 with a message. */
static int inner_parse(const uint8_t *bytes, size_t size, int *kind, span sec[INNER_SECTIONS_MAX], char *err,
                       size_t err_size)
{
    if (size < INNER_FIXED || bytes[0] != 'S' || (bytes[1] != 'P' && bytes[1] != 'M' && bytes[1] != 'R') ||
        bytes[2] != INNER_VERSION)
        return snprintf(err, err_size, "shellpack-side: the inner row's stream is not a shellpack, match or "
                                       "random-access stream of version %d", INNER_VERSION),
               -1;
    *kind = bytes[1] == 'P' ? INNER_SP : bytes[1] == 'M' ? INNER_SM : INNER_SR;
    if (*kind == INNER_SM ? bytes[3] > 0x7F : bytes[3] != 0)
        return snprintf(err, err_size, "shellpack-side: the inner row's stream has flags 0x%02x%s", bytes[3],
                        *kind == INNER_SR ? " (quaternion rotations are not carried)" : ""),
               -1;
    if (size < inner_fixed(*kind))
        return snprintf(err, err_size, "shellpack-side: the inner stream's header is cut"), -1;
    size_t pos = inner_fixed(*kind), total = 0;
    const int n = inner_sections(*kind);
    for (int i = 0; i < n; i++) {
        uint64_t v;
        if (!sp_get_varint(bytes, size, &pos, &v) || v > size || (total += v) > size)
            return snprintf(err, err_size, "shellpack-side: the inner stream's section sizes are cut or too large"), -1;
        sec[i].size = (size_t)v;
    }
    if (total != size - pos)
        return snprintf(err, err_size, "shellpack-side: the inner stream's sections do not fill it"), -1;
    for (int i = 0; i < n; i++) {
        sec[i].data = bytes + pos;
        pos += sec[i].size;
    }
    return 0;
}

/* Which of the sections after the steps are range-coded streams, whole (SP's key masks, SR's anchors)
 * or after a varint length (every residual section of SP and SM: the length, the coded stream, raw
 * bits); SR's tables, index and data are not range coded and are carried as they are. */
static bool section_whole_coded(int kind, int i)
{
    return (kind == INNER_SP || kind == INNER_SR) && i == 3;
}

static bool section_plain(int kind, int i)
{
    return kind == INNER_SR && i > 3;
}

/* Where a section's coded stream is: the whole section (the key masks), or after a varint length (a
 * residual section: the length, the coded stream, raw bits).  False when the length is cut or too large. */
static bool coded_part(int kind, int i, span s, size_t *pos, uint64_t *length)
{
    *pos = 0;
    *length = s.size;
    return section_whole_coded(kind, i) || (get_varint(s.data, s.size, pos, length) && *length <= s.size - *pos);
}

/* A section as the container holds it: its coded stream without its first byte and its last
 * CODED_TAIL.  Writing (strip) and reading (restore); 0, or -1 when the section is not what its kind
 * says. */
static int section_strip(int kind, int i, span s, byte_buffer *out)
{
    size_t pos;
    uint64_t length;
    if (s.size == 0)
        return 0;
    if (section_plain(kind, i))
        return bytes_append(out, s.data, s.size) ? 0 : -1;
    if (!coded_part(kind, i, s, &pos, &length) || length < CODED_MIN || s.data[pos] != 0)
        return -1;
    if (!section_whole_coded(kind, i))
        sp_put_varint(out, length - 1 - CODED_TAIL);
    bytes_append(out, s.data + pos + 1, (size_t)length - 1 - CODED_TAIL);
    return bytes_append(out, s.data + pos + length, s.size - pos - (size_t)length) ? 0 : -1;
}

static int section_restore(int kind, int i, span s, byte_buffer *out)
{
    size_t pos;
    uint64_t length;
    if (s.size == 0)
        return 0;
    if (section_plain(kind, i))
        return bytes_append(out, s.data, s.size) ? 0 : -1;
    if (!coded_part(kind, i, s, &pos, &length))
        return -1;
    if (!section_whole_coded(kind, i))
        sp_put_varint(out, length + 1 + CODED_TAIL);
    bytes_u8(out, 0);
    bytes_append(out, s.data + pos, (size_t)length);
    for (int k = 0; k < CODED_TAIL; k++)
        bytes_u8(out, 0xFF);
    return bytes_append(out, s.data + pos + length, s.size - pos - (size_t)length) ? 0 : -1;
}

/* ---- the header's numbers: a short decimal where one gives the same bits ---- */

/* A rate, a target or a shell distance as a file or a command line gave it: m / 10^e (or, for a
 * rate read as a frame time, 1 / (m / 10^e)), with m from 1 to 2^32 - 1 and e from 0 to 15, in
 * double arithmetic, rounded to float32 for a float32 field.  LEB128 ((m * 16 + e) * 2 + reciprocal) + 1,
 * or 0 and the field's raw bytes where no such decimal gives its bits. */
static const double POW10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
#define DECIMAL_M_MAX 0xFFFFFFFFu

static void decimal_bits(uint64_t m, int e, int reciprocal, int width, uint8_t out[8])
{
    double v = (double)m / POW10[e];
    if (reciprocal)
        v = 1.0 / v;
    if (width == 4) {
        const float f = (float)v;
        memcpy(out, &f, 4);
    } else
        memcpy(out, &v, 8);
}

static void put_number(byte_buffer *out, const uint8_t *field, int width, bool may_be_reciprocal)
{
    double v;
    if (width == 4) {
        float f;
        memcpy(&f, field, 4);
        v = f;
    } else
        memcpy(&v, field, 8);
    for (int e = 0; e < 16 && isfinite(v) && v > 0; e++)
        for (int reciprocal = 0; reciprocal <= (int)may_be_reciprocal; reciprocal++) {
            const double scaled = (reciprocal ? 1.0 / v : v) * POW10[e];
            if (!(scaled >= 0.5 && scaled < DECIMAL_M_MAX))
                continue;
            const uint64_t m = (uint64_t)(scaled + 0.5);
            uint8_t bits[8];
            decimal_bits(m, e, reciprocal, width, bits);
            if (memcmp(bits, field, (size_t)width) == 0) {
                sp_put_varint(out, ((m * 16 + (uint64_t)e) * 2 + (uint64_t)reciprocal) + 1);
                return;
            }
        }
    sp_put_varint(out, 0);
    bytes_append(out, field, (size_t)width);
}

/* The field's bytes from a number put_number wrote; false when it is cut or not one it writes. */
static bool get_number(const uint8_t *bytes, size_t size, size_t *pos, int width, bool may_be_reciprocal, uint8_t out[8])
{
    uint64_t code;
    if (!get_varint(bytes, size, pos, &code))
        return false;
    if (code == 0) {
        if (size - *pos < (size_t)width)
            return false;
        memcpy(out, bytes + *pos, (size_t)width);
        *pos += (size_t)width;
        return true;
    }
    const int reciprocal = (int)((code - 1) & 1), e = (int)(((code - 1) >> 1) & 15);
    const uint64_t m = (code - 1) >> 5;
    if (m < 1 || m > DECIMAL_M_MAX || (reciprocal && !may_be_reciprocal))
        return false;
    decimal_bits(m, e, reciprocal, width, out);
    return true;
}

/* The inner stream an "SC" stream carries, written back into out; 0, or -1 with a message. */
static int inner_of(const uint8_t *bytes, size_t size, const anim_rig *rig, byte_buffer *out, char *err,
                    size_t err_size)
{
    if (size < 4 || bytes[0] != 'S' || bytes[1] != 'C')
        return snprintf(err, err_size, "shellpack-side stream: no SC header"), -1;
    if (bytes[2] != SC_VERSION)
        return snprintf(err, err_size, "shellpack-side stream: version %u, this decoder reads %d", bytes[2], SC_VERSION),
               -1;
    uint8_t flags;
    const int kind = kind_of_byte(bytes[3], &flags);
    if (kind < 0)
        return snprintf(err, err_size, "shellpack-side stream: kind 0x%02x (0 shellpack, 2 random-access, odd a match "
                                       "stream)", bytes[3]),
               -1;
    size_t pos = 4;
    uint64_t frames, side_size;
    uint8_t fps[8], target[8], shell[8];
    if (!get_varint(bytes, size, &pos, &frames) || frames > UINT32_MAX)
        return snprintf(err, err_size, "shellpack-side stream: its frame count is cut, too large or not in its shortest form"), -1;
    if (!get_number(bytes, size, &pos, 8, true, fps) || !get_number(bytes, size, &pos, 4, false, target) ||
        !get_number(bytes, size, &pos, 4, false, shell))
        return snprintf(err, err_size, "shellpack-side stream: its rate, target or shell distance is cut or not a number "
                                       "it writes"),
               -1;
    if (size - pos < 4)
        return snprintf(err, err_size, "shellpack-side stream: its header is cut before the rig checksum"), -1;
    const uint8_t *checksum = bytes + pos;
    pos += 4;
    uint64_t section_frames = 0;
    uint8_t table_counts[SP_TYPES] = {0};
    if (kind == INNER_SR && (!get_varint(bytes, size, &pos, &section_frames) || section_frames > UINT16_MAX ||
                             pos >= size || !table_counts_of(bytes[pos++], table_counts)))
        return snprintf(err, err_size, "shellpack-side stream: its frames per section or its counts of context tables "
                                       "are cut or out of range"),
               -1;
    if (load_u32(checksum) != sp_rig_checksum(rig)) /* before the side information, which is read over the rig */
        return snprintf(err, err_size,
                        "shellpack-side stream: encoded for another rig (checksum %08x, this rig's %08x: bones, parents or "
                        "rest offsets differ)",
                        load_u32(checksum), sp_rig_checksum(rig)),
               -1;
    const int n = inner_sections(kind);
    span sec[INNER_SECTIONS_MAX] = {{0}};
    if (!get_varint(bytes, size, &pos, &side_size))
        return snprintf(err, err_size, "shellpack-side stream: the size of its side information is cut or not in its shortest form"), -1;
    uint64_t total = side_size;
    for (int i = SEC_REST; i < n - 1; i++) {
        uint64_t v;
        if (!get_varint(bytes, size, &pos, &v))
            return snprintf(err, err_size, "shellpack-side stream: the size of section %d is cut or not in its shortest form", i), -1;
        sec[i].size = (size_t)(v < size ? v : size);
        total += v < size ? v : size;
    }
    if (side_size > size || total > size - pos)
        return snprintf(err, err_size, "shellpack-side stream: its section sizes add up past its %zu bytes", size), -1;
    sec[n - 1].size = (size_t)(size - pos - total);
    const uint8_t *side = bytes + pos;
    pos += (size_t)side_size;
    for (int i = SEC_REST; i < n; i++) {
        sec[i].data = bytes + pos;
        pos += sec[i].size;
    }
    sp_plan p;
    if (side_plan_init(&p, rig->bone_count) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    byte_buffer part[INNER_SECTIONS_MAX];
    for (int i = 0; i < INNER_SECTIONS_MAX; i++)
        bytes_init(&part[i]);
    int rc = sp_side_read(&p, rig->parents, side, (size_t)side_size, err, err_size);
    if (rc == 0) {
        sp_write_folding(&p, &part[SEC_FOLDING], &part[SEC_CONSTANTS]);
        sp_write_steps(&p, &part[SEC_STEPS]);
        for (int i = SEC_REST; i < n && rc == 0; i++)
            if (section_restore(kind, i, sec[i], &part[i]) != 0) {
                if (part[i].failed)
                    snprintf(err, err_size, "out of memory");
                else
                    snprintf(err, err_size, "shellpack-side stream: section %d's coded length is cut or too large", i);
                rc = -1;
            }
    }
    if (rc == 0) {
        out->size = 0;
        bytes_append(out, kind == INNER_SP ? "SP" : kind == INNER_SM ? "SM" : "SR", 2);
        bytes_u8(out, INNER_VERSION);
        bytes_u8(out, flags);
        bytes_u32(out, (uint32_t)frames);
        bytes_append(out, fps, 8);
        bytes_append(out, target, 4);
        bytes_append(out, shell, 4);
        bytes_append(out, checksum, 4);
        if (kind == INNER_SR) {
            bytes_u8(out, (uint8_t)(section_frames & 0xFF)); /* u16, little-endian */
            bytes_u8(out, (uint8_t)(section_frames >> 8));
            bytes_append(out, table_counts, SP_TYPES);
        }
        for (int i = 0; i < n; i++)
            sp_put_varint(out, part[i].size);
        for (int i = 0; i < n; i++)
            bytes_append(out, part[i].data, part[i].size);
        for (int i = 0; i < n; i++)
            if (part[i].failed)
                out->failed = true;
        if (out->failed)
            rc = (snprintf(err, err_size, "out of memory"), -1);
    }
    for (int i = 0; i < INNER_SECTIONS_MAX; i++)
        bytes_free(&part[i]);
    sp_plan_free(&p);
    return rc;
}

/* The side information's stream for p without its first byte and its last CODED_TAIL; 0, or -1 with
 * a message. */
static int side_stream(const sp_plan *p, const anim_rig *rig, byte_buffer *out, char *err, size_t err_size)
{
    byte_buffer full;
    bytes_init(&full);
    int rc = sp_side_write(p, rig->parents, SP_SIDE_PRIORS, &full, NULL, NULL);
    if (rc == 0 && (full.size < CODED_MIN || full.data[0] != 0))
        rc = (snprintf(err, err_size, "shellpack-side: its coder's stream does not start with 0"), -1);
    else if (rc != 0 || !bytes_append(out, full.data + 1, full.size - 1 - CODED_TAIL))
        rc = (snprintf(err, err_size, "out of memory"), -1);
    bytes_free(&full);
    return rc;
}

/* The side information of an inner stream's sections into a plan of tracks only; 0, or -1 with a
 * message (the plan is freed). */
static int side_plan_of(const span sec[INNER_SECTIONS_MAX], const anim_rig *rig, sp_plan *p, char *err, size_t err_size)
{
    if (side_plan_init(p, rig->bone_count) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    if (sp_read_folding(p, sec[SEC_FOLDING].data, sec[SEC_FOLDING].size, sec[SEC_CONSTANTS].data,
                        sec[SEC_CONSTANTS].size, err, err_size) != 0 ||
        sp_read_steps(p, sec[SEC_STEPS].data, sec[SEC_STEPS].size, err, err_size) != 0) {
        sp_plan_free(p);
        return -1;
    }
    return 0;
}

int sp_side_plan_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sp_plan *p, char *err, size_t err_size)
{
    int kind;
    span sec[INNER_SECTIONS_MAX];
    if (inner_parse(bytes, size, &kind, sec, err, err_size) != 0)
        return -1;
    return side_plan_of(sec, rig, p, err, err_size);
}

/* The "SC" stream of an inner stream; parts get the breakdown.  0, or -1 with a message. */
static int container_write(const uint8_t *bytes, size_t size, const anim_rig *rig, byte_buffer *out, codec_part *parts,
                           int *part_count, char *err, size_t err_size)
{
    int kind;
    span sec[INNER_SECTIONS_MAX];
    if (inner_parse(bytes, size, &kind, sec, err, err_size) != 0)
        return -1;
    const int n = inner_sections(kind);
    const int table_code = kind == INNER_SR ? table_count_code(bytes + INNER_FIXED + 2) : 0;
    if (table_code < 0)
        return snprintf(err, err_size, "shellpack-side: the random-access stream's counts of context tables are not "
                                       "0, 1, 2, 4, 8 or 16"),
               -1;
    sp_plan p;
    byte_buffer side, part[INNER_SECTIONS_MAX];
    bytes_init(&side);
    for (int i = 0; i < INNER_SECTIONS_MAX; i++)
        bytes_init(&part[i]);
    int rc = side_plan_of(sec, rig, &p, err, err_size);
    if (rc != 0)
        memset(&p, 0, sizeof p); /* freed already: freeing it again below does nothing */
    if (rc == 0)
        rc = side_stream(&p, rig, &side, err, err_size);
    for (int i = SEC_REST; i < n && rc == 0; i++)
        if (section_strip(kind, i, sec[i], &part[i]) != 0) {
            if (part[i].failed)
                snprintf(err, err_size, "out of memory");
            else
                snprintf(err, err_size, "shellpack-side: the inner stream's section %d is not a coded stream that starts "
                                        "with 0", i);
            rc = -1;
        }
    if (rc == 0) {
        out->size = 0;
        bytes_append(out, "SC", 2);
        bytes_u8(out, SC_VERSION);
        bytes_u8(out, (uint8_t)(kind == INNER_SM ? 1 | bytes[3] << 1 : kind == INNER_SR ? 2 : 0));
        sp_put_varint(out, load_u32(bytes + 4));
        put_number(out, bytes + 8, 8, true);   /* fps */
        put_number(out, bytes + 16, 4, false); /* target */
        put_number(out, bytes + 20, 4, false); /* shell distance */
        bytes_append(out, bytes + 24, 4);      /* rig checksum */
        if (kind == INNER_SR) {
            sp_put_varint(out, (uint64_t)bytes[INNER_FIXED] | (uint64_t)bytes[INNER_FIXED + 1] << 8);
            bytes_u8(out, (uint8_t)table_code);
        }
        sp_put_varint(out, side.size);
        for (int i = SEC_REST; i < n - 1; i++)
            sp_put_varint(out, part[i].size);
        parts[0] = (codec_part){"header", (long)out->size};
        parts[1] = (codec_part){"side information", (long)side.size};
        *part_count = 2;
        bytes_append(out, side.data, side.size);
        static const char *const SP_NAMES[] = {"key masks", "rotation residuals", "translation residuals", "scale residuals"};
        static const char *const SR_NAMES[] = {"anchors", "context tables", "section index", "sections"};
        for (int i = SEC_REST; i < n; i++) {
            bytes_append(out, part[i].data, part[i].size);
            if (part[i].size)
                parts[(*part_count)++] = (codec_part){kind == INNER_SR ? SR_NAMES[i - SEC_REST]
                                                                        : SP_NAMES[i - SEC_REST + (kind == INNER_SM)],
                                                      (long)part[i].size};
            if (part[i].failed)
                out->failed = true;
        }
        if (out->failed || side.failed)
            rc = (snprintf(err, err_size, "out of memory"), -1);
    }
    bytes_free(&side);
    for (int i = 0; i < INNER_SECTIONS_MAX; i++)
        bytes_free(&part[i]);
    sp_plan_free(&p);
    return rc;
}

/* ---- the row ---- */

/* The row it carries, which takes this row's parameters as they are (the same declarations). */
static const codec *inner_row(const codec *c, char *err, size_t err_size)
{
    const shellpack_side_config *cfg = c->config;
    const codec *inner = codec_find(cfg->inner);
    if (!inner)
        snprintf(err, err_size, "%s: no row %s", c->name, cfg->inner);
    else if (inner->params != c->params || inner->param_count != c->param_count) {
        snprintf(err, err_size, "%s: its parameters are not those of %s, the row it carries", c->name, cfg->inner);
        inner = NULL;
    }
    return inner;
}

static bool same_clip(const anim_clip *a, const anim_clip *b)
{
    if (!a || !b || a->frame_count != b->frame_count || memcmp(&a->fps, &b->fps, sizeof a->fps) != 0)
        return false;
    const size_t n = (size_t)a->rig->bone_count * (size_t)a->frame_count;
    return memcmp(a->pos, b->pos, 3 * n * sizeof *a->pos) == 0 && memcmp(a->rot, b->rot, 4 * n * sizeof *a->rot) == 0 &&
           memcmp(a->scl, b->scl, 3 * n * sizeof *a->scl) == 0;
}

/* The inner row's stream, then this row's of it, checked by decoding: the stream written back must
 * decode, by the inner row's decoder, to the inner stream's clip bit for bit. */
static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const codec *inner = inner_row(c, err, err_size);
    if (!inner || inner->ops->encode(inner, in, p, out, err, err_size) != 0)
        return -1;
    byte_buffer sc, back;
    bytes_init(&sc);
    bytes_init(&back);
    codec_part parts[CODEC_PARTS_MAX];
    int part_count = 0;
    const anim_rig *rig = in->clip->rig;
    int rc = container_write(out->bytes.data, out->bytes.size, rig, &sc, parts, &part_count, err, err_size);
    if (rc == 0)
        rc = inner_of(sc.data, sc.size, rig, &back, err, err_size);
    if (rc == 0) {
        anim_clip *want = inner->ops->decode(inner, out->bytes.data, out->bytes.size, rig, err, err_size);
        anim_clip *got = want ? inner->ops->decode(inner, back.data, back.size, rig, err, err_size) : NULL;
        if (!got)
            rc = -1;
        else if (!same_clip(want, got))
            rc = (snprintf(err, err_size, "%s: its stream decodes to another clip than %s's stream", c->name,
                           inner->name), -1);
        clip_free(want);
        clip_free(got);
    }
    if (rc == 0) {
        bytes_free(&out->bytes);
        out->bytes = sc;
        bytes_init(&sc);
        memcpy(out->parts, parts, sizeof parts);
        out->part_count = part_count;
    }
    bytes_free(&sc);
    bytes_free(&back);
    return rc;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    const codec *inner = inner_row(c, err, err_size);
    if (!inner)
        return NULL;
    byte_buffer back;
    bytes_init(&back);
    anim_clip *clip = NULL;
    if (inner_of(bytes, size, rig, &back, err, err_size) == 0)
        clip = inner->ops->decode(inner, back.data, back.size, rig, err, err_size);
    bytes_free(&back);
    return clip;
}

/* The inner row's sampler of the stream written back.  Every sampler of a stream this container carries
 * decodes it or copies it when it is created (shellpack.c's and shellpack_match.c's decode the clip,
 * shellpack-ra's copies its stream: shellpack_ra_sampler.c), so the stream written back is freed then:
 * what the sampler holds is the inner row's sampler alone.  (Were one to keep a pointer into it, the
 * side rows' sampling tests under AddressSanitizer would report it.) */
struct codec_sampler {
    const codec *inner;
    codec_sampler *sampler;
};

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    const codec *inner = inner_row(c, err, err_size);
    codec_sampler *s = inner ? malloc(sizeof *s) : NULL;
    if (!s) {
        if (inner)
            snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->inner = inner;
    byte_buffer stream;
    bytes_init(&stream);
    s->sampler = NULL;
    if (inner_of(bytes, size, rig, &stream, err, err_size) == 0)
        s->sampler = inner->ops->sampler_create(inner, stream.data, stream.size, rig, err, err_size);
    bytes_free(&stream);
    if (!s->sampler) {
        free(s);
        return NULL;
    }
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    s->inner->ops->sample(s->sampler, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    if (s)
        s->inner->ops->sampler_free(s->sampler);
    free(s);
}

const codec_ops SHELLPACK_SIDE_OPS = {encode, decode, sampler_create, sample, sampler_free};
