#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

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
    return measure_row_params(m, c, &p);
}

point_result measure_row_params(const measured_clip *m, const codec *c, const codec_params *p)
{
    point_result r;
    char err[256];
    if (measure_point(m, c, p, false, &r, err, sizeof err) != 0)
        fail_msg("%s: %s", c->name, err);
    if (!r.decoded_ok)
        fail_msg("%s does not decode: %s", c->name, r.decode_error);
    return r;
}

void assert_contract_on_decoded_clips(const char *const *clips, size_t clip_count, const char *const *rows,
                                      size_t row_count)
{
    static const double TARGETS[] = {1, 0.1};
    for (size_t k = 0; k < clip_count; k++) {
        measured_clip *m = row_measured_clip(row_source(clips[k], 1.5));
        for (size_t r = 0; r < row_count; r++)
            for (size_t t = 0; t < 2; t++) {
                point_result res = measure_row(m, rows[r], TARGETS[t]);
                const double shell_mm = res.metrics.shell_m.max * 1000;
                if (!(shell_mm <= TARGETS[t]))
                    fail_msg("%s on %s at %g mm: shell max %.6f mm", rows[r], clips[k], TARGETS[t], shell_mm);
                assert_true(res.has_reported);
                assert_true(fabs(res.reported_error_mm - shell_mm) <= 1e-9);
                if (r == 0)
                    print_message("  %-40s %4g mm: %6zu bytes, shell max %.4f mm\n", clips[k], TARGETS[t], res.bytes,
                                  shell_mm);
                point_result_free(&res);
            }
        measured_clip_free(m);
    }
}

uint64_t plan_estimate(const sp_encoder *e, const sp_residual_costs *t)
{
    uint64_t total = 0;
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM)
                for (int c = 0; c < sp_comps(&e->plan, type); c++)
                    total += sp_curve_estimate(e, &t[type], b, type, c, sp_curve(&e->plan, b, type, c));
    return total;
}
