#include "harness/measure/match.h"

#include <cjson/cJSON.h>


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
    int knob;  /* the declared parameter searched, or -1 */
    int dir;   /* its direction: +1 when a larger value is coarser (fewer bytes) */
    char *err;
    size_t err_size;
} search;

/* Encodes, decodes and measures at one knob setting; keeps the point when it
 * is the cheapest that met the target so far.  Returns 1 feasible, 0 not,
 * -1 on an encoding error. */
static int evaluate(search *s, double knob)
{
    codec_params p = s->base;
    if (s->knob >= 0 && codec_param_set(s->c, &p, s->knob, knob, s->err, s->err_size) != 0)
        return -1;
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
    /* on equal bytes, the coarser setting */
    const bool coarser = s->dir > 0 ? knob > o->knob : knob < o->knob;
    if (ok && (!s->have_best || r.bytes < o->point.bytes || (r.bytes == o->point.bytes && coarser))) {
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

/* The search runs on a coarseness x (larger: fewer bytes) that maps to the
 * knob: x itself for a knob whose larger values are coarser, 1/x for one
 * whose larger values are finer (a real knob) or its mirror lo + hi - x (an
 * integer knob). */
static double knob_of(const search *s, double x)
{
    const codec_param_decl *d = &s->c->params[s->knob];
    if (s->dir > 0)
        return x;
    return d->type == PARAM_REAL ? 1 / x : d->lo + (d->type == PARAM_CHOICE ? 0 : d->hi) - x;
}

static double coarseness_of(const search *s, double knob)
{
    return knob_of(s, knob); /* each map is its own inverse */
}

/* The coarsest setting that met the target, and the nearest coarser one
 * tried (which missed it, or the first would be coarser). */
static void bracket(const search *s, const bool *met, double *lo, double *hi)
{
    const match_result *o = s->out;
    *lo = NAN;
    *hi = NAN;
    for (int i = 0; i < o->trail_count; i++) {
        const double x = coarseness_of(s, o->trail[i].knob);
        if (met[i] && (isnan(*lo) || x > *lo))
            *lo = x;
    }
    for (int i = 0; i < o->trail_count; i++) {
        const double x = coarseness_of(s, o->trail[i].knob);
        if (x > *lo && (isnan(*hi) || x < *hi))
            *hi = x;
    }
}

/* A real knob within its declared range: an evaluation at x, or 0 without
 * one when x maps outside the range (met[] marks the trail's entries). */
static int evaluate_x(search *s, double x, bool *met, bool *outside)
{
    const codec_param_decl *d = &s->c->params[s->knob];
    const double k = knob_of(s, x);
    *outside = !(d->lo_open ? k > d->lo : k >= d->lo) || k > d->hi || !isfinite(k);
    if (*outside)
        return 0;
    const int f = evaluate(s, k);
    if (f >= 0)
        met[s->out->trail_count - 1] = f;
    return f;
}

static int search_real(search *s)
{
    const codec_param_decl *d = &s->c->params[s->knob];
    bool met[MATCH_TRAIL_MAX] = {false};
    bool any = false, outside;
    int f;
    /* a tolerance in mm starts at the target; another knob at its default */
    const bool tolerance_mm = d->unit && strcmp(d->unit, "mm") == 0 && s->dir > 0;
    const double x0 = tolerance_mm ? s->target : coarseness_of(s, d->def);
    /* Coarser in octaves until the error is far past the target (16x): a dip
     * of a non-monotone curve on this grid is found, not skipped. */
    double x = x0;
    for (int i = 0; i < 14; i++, x *= 2) {
        if ((f = evaluate_x(s, x, met, &outside)) < 0)
            return -1;
        if (outside)
            break;
        any |= f;
        const double v = s->out->trail[s->out->trail_count - 1].value_mm;
        if (!f && v > 16 * s->target)
            break;
    }
    for (int i = 0; i < 24 && !any; i++) {
        if ((f = evaluate_x(s, x0 / (double)(2 << i), met, &outside)) < 0)
            return -1;
        if (outside)
            break;
        any |= f;
    }
    if (!any)
        return 0; /* unreachable: floor recorded */
    double lo, hi;
    bracket(s, met, &lo, &hi);
    for (int i = 0; i < 12 && !isnan(hi); i++) {
        const double mid = sqrt(lo * hi);
        if ((f = evaluate_x(s, mid, met, &outside)) < 0)
            return -1;
        if (outside)
            break;
        if (f)
            lo = mid;
        else
            hi = mid;
    }
    return 0;
}

/* An integer knob: the finest setting, then coarser ones doubling, then the
 * integers between the last that met the target and the first that missed. */
static int search_int(search *s)
{
    const codec_param_decl *d = &s->c->params[s->knob];
    const double top = d->type == PARAM_CHOICE ? 0 : d->hi;
    double count = 0;
    while (d->type == PARAM_CHOICE && d->choices && d->choices[(int)count])
        count++;
    const long first = d->type == PARAM_CHOICE ? 0 : (long)d->lo;
    const long last = d->type == PARAM_CHOICE ? (long)count - 1 : (long)top;
    /* x runs from first (the finest) to last (the coarsest) */
    int f = evaluate(s, s->dir > 0 ? first : (double)(first + last - first));
    if (f <= 0)
        return f;
    long lo = first, hi = -1;
    for (long step = 1; hi < 0; step *= 2) {
        const long x = first >= 1 ? first * 2 * step : first + 2 * step - 1;
        const long clamped = x > last ? last : x;
        if (clamped <= lo)
            break;
        if ((f = evaluate(s, s->dir > 0 ? clamped : (double)(first + last - clamped))) < 0)
            return -1;
        if (f)
            lo = clamped;
        else
            hi = clamped;
    }
    while (hi > lo + 1) {
        const long mid = lo + (hi - lo) / 2;
        if ((f = evaluate(s, s->dir > 0 ? mid : (double)(first + last - mid))) < 0)
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
    const int knob = codec_knob(c);
    search s = {mc, c, *base, metric, target_mm, out, false, knob, knob >= 0 ? c->params[knob].knob : 0, err,
                err_size};
    int rc = 0;
    const bool real = knob >= 0 && c->params[knob].type == PARAM_REAL;
    codec_params scratch = *base;
    char ignored[8];
    const bool hint_ok = knob >= 0 && isfinite(hint) &&
                         codec_param_set(c, &scratch, knob, real ? hint : floor(hint), ignored, sizeof ignored) == 0;
    if (hint_ok && evaluate(&s, real ? hint : floor(hint)) < 0)
        rc = -1;
    else if (real)
        rc = search_real(&s);
    else if (knob >= 0)
        rc = search_int(&s);
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
