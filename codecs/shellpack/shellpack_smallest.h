/* The smallest of a shellpack-match row's stream and the shellpack streams of other rows, read by that
 * row's decoder alone (issue 23: no row of the harness smaller than shellpack-comp-trained).
 *
 * shellpack-comp-trained's streams (codecs/shellpack/shellpack_match.h) are written from plans that keep
 * every frame, or from them through the match model; a plan that leaves frames out, as
 * shellpack-trellis-keys's does, is only ever offered as its own shellpack stream ("SP"), which the
 * match row's decoder reads as it is (shellpack-comp-keys: shellpack-comp-trained or that stream).  This row encodes the clip with the match row, then with each
 * other row, and keeps the smallest stream, the match row's on a tie.  Before another row's smaller
 * stream is kept, the match row's decoder reads it back and must rebuild the very clip that row's own
 * decoder does, sample for sample, or the encode fails saying so: the bytes decode, by this row's
 * decoder alone, to the clip whose error is measured.  The stream, its decoder and its sampler are the
 * match row's: nothing is added to them.  The rows are named in the registry, whose settings are not
 * in a row's cache key (codec.h): this row's version goes up with theirs. */
#ifndef ANIMBENCH_SHELLPACK_SMALLEST_H
#define ANIMBENCH_SHELLPACK_SMALLEST_H

#include "codecs/codec.h"

#define SHELLPACK_SMALLEST_OTHERS_MAX 4

typedef struct shellpack_smallest_config {
    const char *streams; /* a row of the registry with SHELLPACK_MATCH_OPS */
    const char *others[SHELLPACK_SMALLEST_OTHERS_MAX]; /* rows of the registry writing shellpack streams */
} shellpack_smallest_config;

extern const codec_ops SHELLPACK_SMALLEST_OPS;

#endif
