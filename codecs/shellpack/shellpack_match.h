/* shellpack-match (issue 23): the smallest of a few streams of one clip, so that a periodic clip's
 * repeats cost what they cost under deflate or less, and nothing else gets bigger.
 *
 * Each source row (shellpack-exchange, shellpack-allkeys) encodes the clip as shellpack does and
 * verifies its stream by decoding.  Each of those plans is written again with its residuals through
 * a long-range match model (codecs/entropy/match_model.h) in front of the same residual coder, read
 * back by this row's decoder alone and checked integer for integer against the plan.  The row
 * keeps the smallest stream, the first on a tie (or, with a margin, a stream with the match model
 * only where it is smaller than every stream without it by more than the margin):
 *
 *   a shellpack stream ("SP", read by shellpack's decoder), or
 *   a match stream: "SM", u8 version 1, u8 flags, then shellpack's header fields (u32 frames,
 *   f64 fps, f32 target, f32 shell distance, u32 rig checksum), six section sizes as LEB128
 *   varints (folding, constants, steps and predictors, rotation, translation and scale residuals:
 *   shellpack's sections without key masks; every frame is coded), the first three as shellpack
 *   writes them, each residual section a varint length, a range-coded stream with the match
 *   model's flags, and the raw bits beside it.
 *
 * Flags 0: every residual model starts at 1/2 with nothing seen.  A row with priors (shellpack-trained,
 * issue 23's "knowing the data before seeing it") also offers flags 1 (each type's residual model
 * starts from the row's built-in states, shellpack_priors.h) and 3 (those states, and the residuals
 * straight to the residual coder without the match model, for clips without repeats); its decoder
 * reads flags 0, 1 and 3, shellpack-match's reads 0.  A row with signs (shellpack-comp-trained)
 * offers each of those again with flag 4 (every residual's sign coded in its own context,
 * codecs/entropy/residual_signs.h; from the priors, the sign states of SP_SIGN_PRIORS): its decoder
 * reads flags 0, 1, 3, 4, 5 and 7. */
#ifndef ANIMBENCH_SHELLPACK_MATCH_H
#define ANIMBENCH_SHELLPACK_MATCH_H

#include <stdbool.h>

#include "codecs/codec.h"
#include "codecs/entropy/range_coder.h"

#define SHELLPACK_MATCH_SOURCES_MAX 5

typedef struct shellpack_match_config {
    const char *sources[SHELLPACK_MATCH_SOURCES_MAX]; /* rows of the registry whose plans it codes */
    const rc_prob (*priors)[sizeof(residual_model) / sizeof(rc_prob)]; /* [SP_TYPES] states, or NULL */
    /* 0: the smallest stream.  Otherwise a stream with the match model is kept only when it is smaller
     * than every stream without it by more than this many thousandths: the match model's decoder
     * looks up a hash table at every value, which on a clip without repeats costs more decode time
     * than a few bytes are worth (issue 23's decode goal; docs/shellpack.md). */
    int match_margin_permille;
    bool signs; /* also the streams with each sign in its own context (flag 4) */
} shellpack_match_config;

extern const codec_ops SHELLPACK_MATCH_OPS;

#endif
