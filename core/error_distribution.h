/* Statistics of an error over every joint-sample: max, mean, median and
 * 99th percentile (nearest rank: the smallest value with at least p% of
 * the values at or below it), and where the maximum is (first occurrence). */
#ifndef ANIMBENCH_ERROR_DISTRIBUTION_H
#define ANIMBENCH_ERROR_DISTRIBUTION_H

typedef struct error_distribution {
    long count;
    double max, mean, median, p99;
    int worst_joint, worst_sample;
} error_distribution;

/* values: samples * joints, [sample][joint].  scratch: as many doubles.
 * joint_mask (or NULL for all): which joints count. */
void error_distribution_of(const double *values, int samples, int joints, const unsigned char *joint_mask,
                           double *scratch, error_distribution *out);
/* Nearest-rank percentile of n sorted values, p in (0, 100]. */
double percentile_sorted(const double *sorted, long n, double p);

#endif
