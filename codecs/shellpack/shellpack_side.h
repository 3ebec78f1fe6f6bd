/* shellpack-side (issue 23, "knowing the data before seeing it", for what a stream says besides its
 * residuals): another row's stream in a smaller container.  At 1 mm a Bandai clip's stream is a few
 * thousand bytes, of which shellpack's header, folding, constants and step table take about 5 %
 * (shellpack-comp-fast, 174 clips: 36, 17, 7 and 79 bytes on the mean): a fixed 28-byte header
 * (the rate alone 8 bytes, 1 / 0.0333333 s as an f64), two bits a sub-track, and about 23
 * sub-tracks' steps coded from probabilities that start at 1/2, which a coder cannot learn in 23
 * symbols.
 *
 * The row codes the clip with its inner row (a shellpack "SP" stream with flags 0, a match stream
 * "SM", shellpack_match.h, or a random-access stream "SR" with flags 0, shellpack_ra.c: what issue 23
 * asks to carry over to the runtime row), then writes the same stream again as:
 *
 *   "SC", u8 version 1, u8 the inner stream's kind (0 "SP", 1 + 2 x its flags "SM", 2 "SR"),
 *   LEB128 frames; the rate (f64), the target and the shell distance (f32) each as a short decimal
 *   where one gives the field's bits (LEB128 of m, e and whether the rate is 1 over it: m / 10^e,
 *   what a BVH's frame time or a command line said), else 0 and the raw field; u32 rig checksum
 *   (the inner header's fields, bit for bit); for "SR" then LEB128 frames per section and one byte
 *   for its three counts of context tables (each 0, 1, 2, 4, 8 or 16: its place in that list, a
 *   base-6 digit, the rotations' lowest),
 *   LEB128 size of the side information, LEB128 sizes of the inner stream's sections after its
 *   steps but the last (SP: key masks, rotation, translation; SM: rotation, translation; SR:
 *   anchors, context tables, section index), the last's size being what is left;
 *   the side information: one range-coded stream without its first byte (always 0) and its last 3
 *   (0xFF decodes the same: shellpack_side.c), holding every sub-track's mode (in a context of its type and its parent's mode), the constants (32 raw bits
 *   each), every animated sub-track's smallest step index (from its parent's, or the previous one of
 *   its type, in contexts of the type), each component's index above it (a context per type and
 *   component) and its predictor (a context per type, component and the previous component's
 *   predictor): every adaptive bit starts from a state trained on Bandai dataset 1 (SP_SIDE_PRIORS);
 *   the inner stream's other sections as it wrote them, but each range-coded stream's first byte
 *   and last 3 left out in the same way (the key masks, SR's anchors, and each residual section's
 *   coded part, whose length before it is 4 less; SR's tables, index and sections are not range
 *   coded and stay as they are).
 *
 * The decoder writes the inner stream back (byte for byte but for the coded streams' last 3 bytes)
 * and decodes it with the inner row's decoder; the encoder keeps the stream only when that decodes
 * to the inner stream's clip bit for bit.  The sampler writes it back once, when it is created, and
 * hands it to the inner row's sampler, which decodes or copies it (shellpack-ra's keeps a copy of its
 * stream and plays from it), then frees it: it holds what the inner row's sampler holds, and the
 * side information is not read again.  Every varint of the container is in its shortest form. */
#ifndef ANIMBENCH_SHELLPACK_SIDE_H
#define ANIMBENCH_SHELLPACK_SIDE_H

#include "codecs/codec.h"
#include "codecs/entropy/range_coder.h"
#include "codecs/shellpack/shellpack.h"

typedef struct shellpack_side_config {
    const char *inner; /* the registry row whose stream this row carries */
} shellpack_side_config;

extern const codec_ops SHELLPACK_SIDE_OPS;

/* The side information's adaptive bits: each has a slot, its initial state in SP_SIDE_PRIORS. */
#define SP_SIDE_NUMBER_BITS 12 /* numbers below 2^12: a step index (below 1024) or a difference of two, zigzagged */
#define SP_SIDE_NUMBER_SLOTS (2 * SP_SIDE_NUMBER_BITS) /* the bit length in unary, the bit below the leading one */
enum {
    SP_SIDE_SET_BASE = 0,                              /* [type][from the parent or not] */
    SP_SIDE_SET_SPREAD = SP_SIDE_SET_BASE + 2 * SP_TYPES, /* [type][component] */
    SP_SIDE_SETS = SP_SIDE_SET_SPREAD + SP_TYPES * SP_MAX_COMPS
};
enum {
    SP_SIDE_SLOT_MODES = 0, /* [animated, else constant][type][the parent's mode, 3 for none] */
    SP_SIDE_SLOT_NUMBERS = SP_SIDE_SLOT_MODES + 2 * SP_TYPES * 4,
    SP_SIDE_SLOT_PREDICTORS = SP_SIDE_SLOT_NUMBERS + SP_SIDE_SETS * SP_SIDE_NUMBER_SLOTS, /* [type][comp][previous][3] */
    SP_SIDE_SLOTS = SP_SIDE_SLOT_PREDICTORS + SP_TYPES * SP_MAX_COMPS * (SP_PREDICTORS + 1) * 3
};

/* Called with every adaptive bit the side information codes, for training. */
typedef void (*sp_side_trace)(void *self, int slot, int bit);

/* A plan's side information (the tracks' modes, constants, steps and predictors; `parents` the rig's)
 * as a range-coded stream into out, every bit starting from `init`.  0, or -1 when out of memory. */
int sp_side_write(const sp_plan *p, const int *parents, const rc_prob init[SP_SIDE_SLOTS], byte_buffer *out,
                  sp_side_trace trace, void *self);

/* The side information as the container holds it (sp_side_write's stream without its first byte
 * and its last 3) into p's tracks (p's joints, every track's mode and values, are overwritten), the
 * states starting from SP_SIDE_PRIORS; 0, or -1 with a message. */
int sp_side_read(sp_plan *p, const int *parents, const uint8_t *data, size_t size, char *err, size_t err_size);

/* The side information of a shellpack or match stream (its folding, constants, steps and predictors)
 * into p, a plan of the rig's joints with tracks only (sp_plan_free frees it): what training reads.
 * 0, or -1 with a message. */
int sp_side_plan_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sp_plan *p, char *err, size_t err_size);

/* The built-in states (shellpack_side_priors.c, written by `animbench train-priors --side`). */
extern const rc_prob SP_SIDE_PRIORS[SP_SIDE_SLOTS];
extern const char SP_SIDE_PRIORS_ABOUT[];

#endif
