/* Key selection strategies besides the study's fit-and-refine
 * (codecs/keys/refine.h), for one channel under one tolerance, with the study's
 * error: a scalar frame's |reconstructed - original|, a rotation frame's
 * angle in degrees between the renormalised reconstruction and the original;
 * key frames never count, and a channel is within tolerance when every
 * other frame is.  Reconstruction is core/curve.h's (the decoder's): linear,
 * or Catmull-Rom cubic through the keys.
 *
 *   refine    the study's: insert the worst frame until none exceeds
 *   optimal   the fewest keys (seed 003).  Linear: exact, by dynamic
 *             programming over every segment (a, b) that keeps its interior
 *             within tolerance; scalar segments are found with a cone of
 *             feasible slopes swept forward from each key (O(n) per key at
 *             worst, stopping where the cone closes), rotation segments by
 *             testing each pair, the frame that failed the last pair first.
 *             Cubic: the same programme with each frame's tangent fixed from
 *             the dense samples (a central difference), then the decoder's
 *             Catmull-Rom tangents re-derived from the chosen keys, the
 *             worst frame of every segment that now exceeds inserted until
 *             none does, and every key whose removal keeps its neighbourhood
 *             within tolerance removed; the fewer of that and refine's keys.
 *   greedy    forward extraction (seed 004): from each key, extend the
 *             segment while every interior frame stays within tolerance,
 *             and key the last frame that did.  Cubic: with the dense
 *             tangents, then the repair and reduction of `optimal`.
 *   peucker   Douglas-Peucker: split a segment at its interior frame
 *             farthest from the straight chord (vertically: the value, or
 *             the angle) while that exceeds the tolerance.  For linear keys
 *             this is the study's refine, key for key (a test checks it);
 *             cubic: the chord's keys, then the repair and reduction.
 *
 * Every result starts at frame 0, ends at frame n - 1, and is within
 * tolerance under the row's interpolation (the repair guarantees it). */
#ifndef ANIMBENCH_KEY_SELECT_H
#define ANIMBENCH_KEY_SELECT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum key_strategy { KEYS_REFINE, KEYS_OPTIMAL, KEYS_GREEDY, KEYS_PEUCKER, KEY_STRATEGY_COUNT } key_strategy;

extern const char *const KEY_STRATEGY_NAMES[KEY_STRATEGY_COUNT]; /* "refine", "optimal", ... */

/* Scratch for channels of up to n frames, reused across channels. */
typedef struct key_workspace key_workspace;
key_workspace *key_workspace_create(int n);
void key_workspace_free(key_workspace *w);

/* values: n scalars, or n * 4 hemisphere-aligned quaternion components
 * (rotation).  eps: the channel's tolerance (metres or degrees).  keys must
 * hold n ints.  Returns the key count, or -1 when n exceeds the workspace. */
int select_keys(key_workspace *w, key_strategy s, const double *values, int n, bool rotation, bool cubic,
                double eps, int *keys);

/* Whether every non-key frame of the channel is within eps under keys
 * (the decoder's reconstruction): the tests' and the strategies' check. */
bool keys_within_tolerance(const double *values, int n, bool rotation, bool cubic, double eps, const int *keys,
                           int count, double *recon_scratch);

#endif
