/* Key selection by fit-and-refine, the study's fit(): start from the first
 * and last frame, reconstruct, insert the frame with the largest error (the
 * first such frame on ties), repeat until every frame is within tolerance or
 * every frame is a key.
 *
 * Inserting a key changes only nearby segments (linear: the two halves of
 * the split; cubic: two more on each side, whose tangents moved), so errors
 * are recomputed only there, and the worst frame is found in a max-tree.
 * The result is bit-identical to refitting the whole channel each time,
 * which is what the study does, in n log n time where the study's is n^2. */
#ifndef ANIMBENCH_REFINE_H
#define ANIMBENCH_REFINE_H

#include <stdbool.h>
#include <stddef.h>

#define REFINE_BLOCK 16
/* Doubles of err_scratch that refine needs for a channel of n frames
 * (errors, a max-tree over blocks of them, and a list of keys): about 1.6 n. */
size_t refine_err_scratch(int frame_count);

/* Scalar channel: error is |reconstructed - original|.  keys must hold
 * frame_count ints; recon_scratch frame_count doubles and err_scratch
 * refine_err_scratch(frame_count).  Returns the key count. */
int refine_scalar(const double *values, int frame_count, double eps, bool cubic, int *keys,
                  double *recon_scratch, double *err_scratch);

/* Rotation track (frame_count * 4, hemisphere-aligned): each component is
 * reconstructed as a scalar, the result renormalised, and the error is the
 * angle to the original in degrees.  recon_scratch holds frame_count * 4. */
int refine_rotation(const double *quats, int frame_count, double eps_deg, bool cubic, int *keys,
                    double *recon_scratch, double *err_scratch);

#endif
