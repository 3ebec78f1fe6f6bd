/* Signs in a context of their own (residual_signs.h).  The residual model is lent the sign context's
 * probability in place of its own sign bit of that context for the call that codes a residual with
 * range_coder.c's binarisation, and the updated probability is taken back: the plain coder codes the
 * sign bit at most once, with m->negative[ctx], so this is exactly the plain coder with another sign
 * model.  Here for a residual alone; through the match model, its encoder (match_model.c) lends it the
 * same way around the residual it codes on a miss (a hit codes no sign), and its decoder
 * (match_decode_at) hands the sign's probability to residual_decode_at instead. */
#include "codecs/entropy/residual_signs.h"

void sign_model_init(sign_model *m)
{
    for (int c = 0; c < RESIDUAL_CONTEXTS; c++)
        for (int s = 0; s < SIGN_CONTEXTS; s++)
            m->negative[c][s] = RC_PROB_INIT;
}

typedef struct lent {
    rc_prob *slot, *from;
    rc_prob kept;
} lent;

static lent lend(residual_model *m, sign_model *s, int ctx, int sctx)
{
    lent l = {&m->negative[ctx], &s->negative[ctx][sctx], m->negative[ctx]};
    *l.slot = *l.from;
    return l;
}

static void give_back(lent l)
{
    *l.from = *l.slot;
    *l.slot = l.kept;
}

void residual_encode_signs(rc_encoder *e, bit_writer *raw, residual_model *m, sign_model *s, int ctx, int sctx,
                           int32_t v)
{
    const lent l = lend(m, s, ctx, sctx);
    residual_encode(e, raw, m, ctx, v);
    give_back(l);
}

int32_t residual_decode_signs(rc_decoder *d, bit_reader *raw, residual_model *m, sign_model *s, int ctx, int sctx)
{
    const lent l = lend(m, s, ctx, sctx);
    const int32_t v = residual_decode(d, raw, m, ctx);
    give_back(l);
    return v;
}

uint32_t residual_cost_signs(const rc_cost_table *t, residual_model *m, sign_model *s, int ctx, int sctx, int32_t v)
{
    const lent l = lend(m, s, ctx, sctx);
    const uint32_t cost = residual_cost(t, m, ctx, v);
    give_back(l);
    return cost;
}

void match_encode_signs(rc_encoder *e, bit_writer *raw, residual_model *m, sign_model *s, match_model *mm, int ctx,
                        int sctx, int32_t v)
{
    match_encode_with_sign(e, raw, m, mm, ctx, &s->negative[ctx][sctx], v); /* lends only where a residual is coded */
}

int32_t match_decode_signs(rc_decoder *d, bit_reader *raw, residual_model *m, sign_model *s, match_model *mm, int ctx,
                           int sctx)
{
    return match_decode_with_sign(d, raw, m, mm, ctx, &s->negative[ctx][sctx]);
}
