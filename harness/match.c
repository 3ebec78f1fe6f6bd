#include "match.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const MATCH_METRIC_NAMES[MATCH_METRIC_COUNT] = {
    "joint_max_mm",  "joint_p99_mm",          "shell_max_mm",    "shell_p99_mm",
    "between_max_mm", "between_shell_max_mm", "effector_max_mm",
};

int match_metric_find(const char *name)
{
    for (int i = 0; i < MATCH_METRIC_COUNT; i++)
        if (strcmp(name, MATCH_METRIC_NAMES[i]) == 0)
            return i;
    return -1;
}

double match_metric_mm(const point_result *r, match_metric m)
{
    if (!r->decoded_ok)
        return NAN;
    if (m == MATCH_JOINT_MAX)
        return r->decoded.max_m * 1000;
    if (!r->has_metrics)
        return NAN;
    const metrics_report *x = &r->metrics;
    switch (m) {
    case MATCH_JOINT_P99: return x->joint_m.p99 * 1000;
    case MATCH_SHELL_MAX: return x->shell_m.max * 1000;
    case MATCH_SHELL_P99: return x->shell_m.p99 * 1000;
    case MATCH_BETWEEN_MAX: return x->substeps > 1 ? x->between_joint_m.max * 1000 : NAN;
    case MATCH_BETWEEN_SHELL_MAX: return x->substeps > 1 ? x->between_shell_m.max * 1000 : NAN;
    case MATCH_EFFECTOR_MAX: return x->effector_count > 0 ? x->effector_m.max * 1000 : NAN;
    default: return NAN;
    }
}

typedef struct search {
    const measured_clip *mc;
    const codec *c;
    codec_params base;
    match_metric metric;
    double target;
    match_result *out;
    bool have_best;
    char *err;
    size_t err_size;
} search;

/* Encodes, decodes and measures at one knob setting; keeps the point when it
 * is the cheapest that met the target so far.  Returns 1 feasible, 0 not,
 * -1 on an encoding error. */
static int evaluate(search *s, double knob)
{
    codec_params p = s->base;
    if (s->c->flags & CODEC_USES_TOLERANCE)
        p.tol_mm = knob;
    else if (s->c->flags & CODEC_USES_STEP)
        p.step = (int)knob;
    point_result r;
    if (measure_point(s->mc, s->c, &p, false, &r, s->err, s->err_size) != 0)
        return -1;
    match_result *o = s->out;
    const double v = match_metric_mm(&r, s->metric);
    o->encodes++;
    if (o->trail_count < MATCH_TRAIL_MAX)
        o->trail[o->trail_count++] = (match_step){knob, r.bytes, v};
    const bool ok = v <= s->target; /* NaN (no decode, no metric) never meets it */
    if (isnan(v))
        o->decode_failures += !r.decoded_ok;
    else if (isnan(o->floor_mm) || v < o->floor_mm) {
        o->floor_mm = v;
        o->finest_knob = knob;
    }
    if (ok && (!s->have_best || r.bytes < o->point.bytes || (r.bytes == o->point.bytes && knob > o->knob))) {
        if (s->have_best)
            point_result_free(&o->point);
        o->point = r;
        o->knob = knob;
        s->have_best = true;
        return 1;
    }
    point_result_free(&r);
    return ok;
}

/* The loosest knob that met the target, and the nearest looser one tried
 * (which missed it, or the first would be looser). */
static void bracket(const match_result *o, const bool *met, double *lo, double *hi)
{
    *lo = NAN;
    *hi = NAN;
    for (int i = 0; i < o->trail_count; i++)
        if (met[i] && (isnan(*lo) || o->trail[i].knob > *lo))
            *lo = o->trail[i].knob;
    for (int i = 0; i < o->trail_count; i++)
        if (o->trail[i].knob > *lo && (isnan(*hi) || o->trail[i].knob < *hi))
            *hi = o->trail[i].knob;
}

static int search_real(search *s)
{
    bool met[MATCH_TRAIL_MAX] = {false};
    bool any = false;
    int f;
    /* Upward in octaves from the target until the error is far past it (16x):
     * a dip of a non-monotone curve on this grid is found, not skipped. */
    double k = s->target;
    for (int i = 0; i < 14; i++, k *= 2) {
        if ((f = evaluate(s, k)) < 0)
            return -1;
        met[s->out->trail_count - 1] = f;
        any |= f;
        const double v = s->out->trail[s->out->trail_count - 1].value_mm;
        if (!f && v > 16 * s->target)
            break;
    }
    for (int i = 0; i < 24 && !any; i++) {
        k = s->target / (double)(2 << i);
        if ((f = evaluate(s, k)) < 0)
            return -1;
        met[s->out->trail_count - 1] = f;
        any |= f;
    }
    if (!any)
        return 0; /* unreachable: floor recorded */
    double lo, hi;
    bracket(s->out, met, &lo, &hi);
    for (int i = 0; i < 12 && !isnan(hi); i++) {
        const double mid = sqrt(lo * hi);
        if ((f = evaluate(s, mid)) < 0)
            return -1;
        met[s->out->trail_count - 1] = f;
        if (f)
            lo = mid;
        else
            hi = mid;
    }
    return 0;
}

static int search_step(search *s)
{
    int f = evaluate(s, 1);
    if (f <= 0)
        return f;
    int lo = 1, hi = -1;
    const int frames = s->mc->source->clip->frame_count;
    for (int k = 2; hi < 0 && k <= 2 * frames; k *= 2) {
        if ((f = evaluate(s, k)) < 0)
            return -1;
        if (f)
            lo = k;
        else
            hi = k;
    }
    while (hi > lo + 1) {
        const int mid = lo + (hi - lo) / 2;
        if ((f = evaluate(s, mid)) < 0)
            return -1;
        if (f)
            lo = mid;
        else
            hi = mid;
    }
    return 0;
}

int match_search(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                 double target_mm, match_result *out, char *err, size_t err_size)
{
    return match_search_hint(mc, c, base, metric, target_mm, NAN, out, err, err_size);
}

int match_search_hint(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                      double target_mm, double hint, match_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->knob = NAN;
    out->floor_mm = NAN;
    out->finest_knob = NAN;
    if (!(target_mm > 0) || !isfinite(target_mm)) {
        snprintf(err, err_size, "the target must be a positive number of millimetres, got %g", target_mm);
        return -1;
    }
    search s = {mc, c, *base, metric, target_mm, out, false, err, err_size};
    int rc = 0;
    const bool has_knob = c->flags & (CODEC_USES_TOLERANCE | CODEC_USES_STEP);
    if (has_knob && isfinite(hint) && hint > 0 && evaluate(&s, (c->flags & CODEC_USES_TOLERANCE) ? hint : floor(hint)) < 0)
        rc = -1;
    else if (c->flags & CODEC_USES_TOLERANCE)
        rc = search_real(&s);
    else if (c->flags & CODEC_USES_STEP)
        rc = search_step(&s);
    else
        rc = evaluate(&s, NAN) < 0 ? -1 : 0; /* no knob: one point, which meets the target or not */
    out->reachable = s.have_best;
    if (rc < 0) {
        match_result_free(out);
        return -1;
    }
    return 0;
}

void match_result_free(match_result *r)
{
    if (r->reachable)
        point_result_free(&r->point);
    r->reachable = false;
}
