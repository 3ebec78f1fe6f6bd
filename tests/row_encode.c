#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "row_encode.h"

codec_output encode_row(const measured_clip *m, const char *row, double tol_mm)
{
    const codec *c = codec_find(row);
    if (!c)
        fail_msg("no row %s", row);
    const codec_input in = {m->source->clip, m->view, false};
    codec_params p;
    codec_params_init(c, &p);
    p.tol_mm = tol_mm;
    codec_output out;
    codec_output_init(&out);
    char err[256];
    if (c->ops->encode(c, &in, &p, &out, err, sizeof err) != 0)
        fail_msg("%s: %s", row, err);
    return out;
}

clip_source *row_source(const char *name, double seconds)
{
    clip_params p = CLIP_DEFAULTS;
    if (seconds > 0)
        p.walk_seconds = p.jump_seconds = seconds;
    char err[256];
    clip_source *s = clip_source_load(name, &p, err, sizeof err);
    if (!s)
        fail_msg("%s: %s", name, err);
    return s;
}

measured_clip *row_measured_clip(clip_source *s)
{
    char err[256];
    measured_clip *m = measured_clip_create(s, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

point_result measure_row(const measured_clip *m, const char *row, double tol_mm)
{
    const codec *c = codec_find(row);
    if (!c)
        fail_msg("no row %s", row);
    codec_params p;
    codec_params_init(c, &p);
    p.tol_mm = tol_mm;
    point_result r;
    char err[256];
    if (measure_point(m, c, &p, false, &r, err, sizeof err) != 0)
        fail_msg("%s: %s", row, err);
    if (!r.decoded_ok)
        fail_msg("%s does not decode: %s", row, r.decode_error);
    return r;
}
