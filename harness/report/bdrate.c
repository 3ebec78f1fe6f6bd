#include "harness/report/bdrate.h"

#include <math.h>
#include <stdlib.h>

typedef struct rd {
    double x, y; /* log10 error, ln bytes */
} rd;

static int by_x(const void *a, const void *b)
{
    const rd *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 : p->y > q->y;
}

static int by_x_double(const void *a, const void *b)
{
    const double p = *(const double *)a, q = *(const double *)b;
    return (p > q) - (p < q);
}

/* The lower frontier, by increasing error and strictly decreasing bytes. */
static int frontier(const double *mm, const double *bytes, int n, rd *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (mm[i] > 0 && bytes[i] > 0 && isfinite(mm[i]) && isfinite(bytes[i]))
            out[k++] = (rd){log10(mm[i]), log(bytes[i])};
    qsort(out, (size_t)k, sizeof *out, by_x);
    int m = 0;
    for (int i = 0; i < k; i++)
        if (m == 0 || out[i].y < out[m - 1].y) {
            if (m > 0 && out[i].x == out[m - 1].x)
                continue; /* same error: the first (fewest bytes) was kept */
            out[m++] = out[i];
        }
    return m;
}

static double at(const rd *c, int n, double x)
{
    int i = 0;
    while (i + 2 < n && c[i + 1].x < x)
        i++;
    const double t = (x - c[i].x) / (c[i + 1].x - c[i].x);
    return c[i].y + t * (c[i + 1].y - c[i].y);
}

int bd_rate(const double *test_mm, const double *test_bytes, int test_count, const double *ref_mm,
            const double *ref_bytes, int ref_count, bd_result *out)
{
    rd *a = malloc(((size_t)test_count + 1) * sizeof *a), *b = malloc(((size_t)ref_count + 1) * sizeof *b);
    int rc = -1;
    out->rate = NAN;
    out->overlap_lo_mm = out->overlap_hi_mm = NAN;
    out->test_points = out->reference_points = 0;
    if (!a || !b)
        goto done;
    const int na = frontier(test_mm, test_bytes, test_count, a), nb = frontier(ref_mm, ref_bytes, ref_count, b);
    out->test_points = na;
    out->reference_points = nb;
    if (na < 2 || nb < 2)
        goto done;
    const double lo = fmax(a[0].x, b[0].x), hi = fmin(a[na - 1].x, b[nb - 1].x);
    out->overlap_lo_mm = pow(10, lo);
    out->overlap_hi_mm = pow(10, hi);
    if (!(hi > lo))
        goto done;
    /* both curves are linear between the union of their breakpoints: the
     * trapezoid rule on that union is the exact integral */
    double *xs = malloc(((size_t)na + (size_t)nb + 2) * sizeof *xs);
    if (!xs)
        goto done;
    int nx = 0;
    xs[nx++] = lo;
    for (int i = 0; i < na; i++)
        if (a[i].x > lo && a[i].x < hi)
            xs[nx++] = a[i].x;
    for (int i = 0; i < nb; i++)
        if (b[i].x > lo && b[i].x < hi)
            xs[nx++] = b[i].x;
    xs[nx++] = hi;
    qsort(xs, (size_t)nx, sizeof *xs, by_x_double);
    double area = 0;
    for (int i = 0; i + 1 < nx; i++) {
        const double d0 = at(a, na, xs[i]) - at(b, nb, xs[i]), d1 = at(a, na, xs[i + 1]) - at(b, nb, xs[i + 1]);
        area += (xs[i + 1] - xs[i]) * (d0 + d1) / 2;
    }
    free(xs);
    out->rate = exp(area / (hi - lo)) - 1;
    rc = 0;
done:
    free(a);
    free(b);
    return rc;
}
