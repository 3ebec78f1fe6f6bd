/* Bjøntegaard delta rate, the video-coding convention for "how many bytes
 * at equal quality", applied to error instead of PSNR.
 *
 * Each codec's curve is its points (error in mm, bytes); only the points on
 * its lower frontier count (a point whose bytes some lower-error point
 * matches or beats says nothing of the trade-off).  On the frontier, the
 * log of the bytes is interpolated linearly in log10 of the error; the two
 * curves' log-rate difference is averaged over the error range both cover;
 * BD-rate = exp(average) - 1: -0.4 means 40 % fewer bytes than the
 * reference at equal error, on average over that range.  Linear rather than
 * the cubic fit of the original: a cubic through a handful of points of a
 * non-monotone codec overshoots, and linear pieces can be checked by hand. */
#ifndef ANIMBENCH_BDRATE_H
#define ANIMBENCH_BDRATE_H

typedef struct bd_result {
    double rate;           /* exp(mean log-rate difference) - 1, test against reference */
    double overlap_lo_mm;  /* the error range both curves cover, where the mean is taken */
    double overlap_hi_mm;
    int test_points, reference_points; /* on each frontier */
} bd_result;

/* Points with an error or bytes of 0, negative or not finite are left out.
 * Returns 0, or -1 when a frontier has fewer than 2 points or the curves'
 * error ranges do not overlap (the result then says what each covers). */
int bd_rate(const double *test_mm, const double *test_bytes, int test_count, const double *ref_mm,
            const double *ref_bytes, int ref_count, bd_result *out);

#endif
