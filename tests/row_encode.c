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
