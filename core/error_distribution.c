#include "core/error_distribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double percentile_sorted(const double *sorted, long n, double p)
{
    if (n <= 0)
        return 0;
    long rank = (long)ceil(p / 100.0 * (double)n);
    rank = rank < 1 ? 1 : rank > n ? n : rank;
    return sorted[rank - 1];
}

void error_distribution_of(const double *v, int samples, int joints, const unsigned char *mask, double *scratch,
                           error_distribution *out)
{
    memset(out, 0, sizeof *out);
    double sum = 0;
    long n = 0;
    for (int s = 0; s < samples; s++)
        for (int j = 0; j < joints; j++) {
            if (mask && !mask[j])
                continue;
            const double x = v[(size_t)s * joints + j];
            if (n == 0 || x > out->max) {
                out->max = x;
                out->worst_joint = j;
                out->worst_sample = s;
            }
            sum += x;
            scratch[n++] = x;
        }
    out->count = n;
    if (n == 0)
        return;
    out->mean = sum / n;
    qsort(scratch, (size_t)n, sizeof *scratch, by_value);
    out->median = percentile_sorted(scratch, n, 50);
    out->p99 = percentile_sorted(scratch, n, 99);
}
