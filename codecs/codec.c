#include "codecs/codec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void codec_output_init(codec_output *o)
{
    memset(o, 0, sizeof *o);
    bytes_init(&o->bytes);
    o->keys = -1;
    o->key_time_bytes = -1;
}

void codec_output_free(codec_output *o)
{
    bytes_free(&o->bytes);
    clip_free(o->encoder_recon);
    free(o->key_frames);
    codec_output_init(o);
}

/* The study's parameters live in their own fields (its codecs read them). */
static double *legacy_real(codec_params *p, const char *name)
{
    return strcmp(name, "tol_mm") == 0 ? &p->tol_mm : strcmp(name, "lever_m") == 0 ? &p->lever_m : NULL;
}

void codec_params_init(const codec *c, codec_params *p)
{
    memset(p, 0, sizeof *p);
    p->tol_mm = 1.0;
    p->lever_m = 0.35;
    p->step = 2;
    for (int i = 0; i < c->param_count && i < CODEC_MAX_PARAMS; i++) {
        char err[512];
        codec_param_set(c, p, i, c->params[i].def, err, sizeof err);
    }
}

codec_params codec_params_with(const codec *c, double tol_mm, double lever_m, int step)
{
    codec_params p;
    codec_params_init(c, &p);
    p.tol_mm = tol_mm;
    p.lever_m = lever_m;
    p.step = step;
    return p;
}

int codec_param_index(const codec *c, const char *name)
{
    for (int i = 0; i < c->param_count; i++)
        if (strcmp(c->params[i].name, name) == 0)
            return i;
    return -1;
}

int codec_knob(const codec *c)
{
    for (int i = 0; i < c->param_count; i++)
        if (c->params[i].knob)
            return i;
    return -1;
}

double codec_param_get(const codec *c, const codec_params *p, int index)
{
    const char *name = c->params[index].name;
    if (strcmp(name, "tol_mm") == 0)
        return p->tol_mm;
    if (strcmp(name, "lever_m") == 0)
        return p->lever_m;
    if (strcmp(name, "step") == 0)
        return p->step;
    return p->value[index];
}

static int choice_count(const codec_param_decl *d)
{
    int n = 0;
    while (d->choices && d->choices[n])
        n++;
    return n;
}

void codec_param_describe(const codec_param_decl *d, char *out, size_t n)
{
    char def[64];
    codec_param_text(d, d->def, def, sizeof def);
    int k;
    if (d->type == PARAM_CHOICE) {
        k = snprintf(out, n, "one of");
        for (int i = 0; d->choices && d->choices[i] && k < (int)n; i++)
            k += snprintf(out + k, n - (size_t)k, " %s", d->choices[i]);
    } else if (d->type == PARAM_INT) {
        k = snprintf(out, n, "an integer from %.15g to %.15g", d->lo, d->hi);
    } else if (isinf(d->hi)) {
        k = snprintf(out, n, "a number %s %.15g", d->lo_open ? "above" : "of at least", d->lo);
    } else {
        k = snprintf(out, n, "a number %s %.15g to %.15g", d->lo_open ? "above" : "from", d->lo, d->hi);
    }
    if (k < (int)n && d->unit && d->unit[0])
        k += snprintf(out + k, n - (size_t)k, " %s", d->unit);
    if (k < (int)n)
        k += snprintf(out + k, n - (size_t)k, ", default %s", def);
    if (k < (int)n && d->knob)
        snprintf(out + k, n - (size_t)k, "; the quality knob: larger is %s", d->knob > 0 ? "fewer bytes, more error"
                                                                                     : "more bytes, less error");
}

void codec_param_text(const codec_param_decl *d, double v, char *out, size_t n)
{
    if (d->type == PARAM_CHOICE && v >= 0 && v < choice_count(d) && v == floor(v)) {
        snprintf(out, n, "%s", d->choices[(int)v]);
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) { /* 10, not 1e+01 */
        snprintf(out, n, "%.0f", v);
        return;
    }
    /* the shortest text that reads back as v: 0.35, not 0.34999999999999998 */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(out, n, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
            return;
    }
}

int codec_param_set(const codec *c, codec_params *p, int index, double v, char *err, size_t err_size)
{
    if (index < 0 || index >= c->param_count || index >= CODEC_MAX_PARAMS) {
        snprintf(err, err_size, "codec %s: no parameter number %d", c->name, index);
        return -1;
    }
    const codec_param_decl *d = &c->params[index];
    const double lo = d->type == PARAM_CHOICE ? 0 : d->lo, hi = d->type == PARAM_CHOICE ? choice_count(d) - 1 : d->hi;
    const bool integer = d->type != PARAM_REAL;
    const bool ok = isfinite(v) && (d->lo_open && !integer ? v > lo : v >= lo) && v <= hi && (!integer || v == floor(v));
    if (!ok) {
        char range[300], shown[64];
        codec_param_describe(d, range, sizeof range);
        codec_param_text(&(codec_param_decl){.type = PARAM_REAL}, v, shown, sizeof shown);
        snprintf(err, err_size, "codec %s: parameter %s: %s is %s; it takes %s", c->name, d->name, shown,
                 integer && isfinite(v) && v != floor(v) ? "not an integer" : "out of range", range);
        return -1;
    }
    double *field = legacy_real(p, d->name);
    if (field)
        *field = v;
    else if (strcmp(d->name, "step") == 0)
        p->step = (int)v;
    p->value[index] = v;
    return 0;
}

int codec_param_set_text(const codec *c, codec_params *p, const char *name, const char *text, char *err,
                         size_t err_size)
{
    const int i = codec_param_index(c, name);
    if (i < 0) {
        char names[256] = "";
        size_t k = 0;
        for (int j = 0; j < c->param_count && k < sizeof names; j++)
            k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", j ? ", " : "", c->params[j].name);
        snprintf(err, err_size, "codec %s has no parameter '%s' (%s%s)", c->name, name,
                 c->param_count ? "its parameters: " : "it has none", names);
        return -1;
    }
    const codec_param_decl *d = &c->params[i];
    if (d->type == PARAM_CHOICE)
        for (int j = 0; d->choices && d->choices[j]; j++)
            if (strcmp(d->choices[j], text) == 0)
                return codec_param_set(c, p, i, j, err, err_size);
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    /* decimal only: strtod would also take 0x0a, inf and nan */
    if (end == text || *end != '\0' || errno == ERANGE || strspn(text, "0123456789+-.eE") != strlen(text)) {
        char range[300];
        codec_param_describe(d, range, sizeof range);
        snprintf(err, err_size, "codec %s: parameter %s: expected %s, found '%s'", c->name, name, range, text);
        return -1;
    }
    return codec_param_set(c, p, i, v, err, err_size);
}

void codec_params_format(const codec *c, const codec_params *p, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < c->param_count && k < n; i++) {
        char v[64];
        codec_param_text(&c->params[i], codec_param_get(c, p, i), v, sizeof v);
        k += (size_t)snprintf(out + k, n - k, " %s=%s", c->params[i].name, v);
    }
}
