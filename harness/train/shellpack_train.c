/* Training the residual coder's initial states (shellpack_train.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/train/shellpack_train.h"

sp_trainer *sp_trainer_create(void)
{
    sp_trainer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    for (int type = 0; type < SP_TYPES; type++) {
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
            bit_trace_init(&t->trace[type][i]);
        for (size_t i = 0; i < SP_SIGN_SLOTS; i++)
            bit_trace_init(&t->sign_trace[type][i]);
    }
    rc_cost_table_init(&t->costs);
    residual_model_init(&t->probe);
    return t;
}

void sp_trainer_free(sp_trainer *t)
{
    if (!t)
        return;
    for (int type = 0; type < SP_TYPES; type++) {
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
            bit_trace_free(&t->trace[type][i]);
        for (size_t i = 0; i < SP_SIGN_SLOTS; i++)
            bit_trace_free(&t->sign_trace[type][i]);
    }
    free(t);
}

/* Which bits coding r in context ctx meets, and their values, are read off the coder itself: the
 * probe model starts every bit at 1/2 with nothing seen, residual_cost steps the bits it codes (as
 * coding does), and a bit it met has seen one value, moved up for a 0 and down for a 1.  So the
 * trainer follows the coder's binarisation without a copy of it.  The bits a context can meet are
 * its own nonzero, sign, direction and class bits and the shared bits below a leading one.  The sign
 * bit goes to the sign context's trace too. */
static void trace_residual(sp_trainer *t, int type, int ctx, int sctx, int32_t r)
{
    residual_model *m = &t->probe;
    (void)residual_cost(&t->costs, m, ctx, r);
    rc_prob *const base = (rc_prob *)m;
    rc_prob *const own[] = {&m->nonzero[ctx], &m->negative[ctx], &m->at_least[ctx]};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (own[i]->seen) {
            bit_trace_add(&t->trace[type][own[i] - base], t->plans, own[i]->p < RC_PROB_INIT.p);
            if (own[i] == &m->negative[ctx])
                bit_trace_add(&t->sign_trace[type][ctx * SIGN_CONTEXTS + sctx], t->plans, own[i]->p < RC_PROB_INIT.p);
            *own[i] = RC_PROB_INIT;
        }
    for (int c = 0; c < RESIDUAL_CLASSES; c++) {
        rc_prob *const group[] = {&m->cls[ctx][c], &m->top[c]};
        for (int g = 0; g < 2; g++)
            if (group[g]->seen) {
                bit_trace_add(&t->trace[type][group[g] - base], t->plans, group[g]->p < RC_PROB_INIT.p);
                *group[g] = RC_PROB_INIT;
            }
    }
}

int sp_trainer_add_plan(sp_trainer *t, const sp_plan *p)
{
    if (p->rot_comps != 3)
        return -1;
    for (size_t i = 0; i < (size_t)p->bones * (size_t)p->frames; i++)
        if (!p->kept[i])
            return -1;
    for (int type = 0; type < SP_TYPES; type++)
        for (int b = 0; b < p->bones; b++) {
            const sp_track *tr = sp_track_at(p, b, type);
            if (tr->mode != SP_ANIM)
                continue;
            for (int c = 0; c < sp_comps(p, type); c++) {
                const int32_t *k = sp_curve(p, b, type, c);
                sp_predictor_state s;
                sp_predictor_reset(&s);
                uint32_t m1 = 0, m2 = 0;
                int32_t previous = 0;
                for (int f = 0; f < p->frames; f++) {
                    const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(tr->predictor[c], &s));
                    trace_residual(t, type, sp_curve_context(m1, m2),
                                   sign_context(previous, s.seen >= 2 ? s.k1 - s.k2 : 0), r);
                    previous = r;
                    sp_predictor_update(tr->predictor[c], &s, k[f], r);
                    m2 = m1;
                    m1 = sp_magnitude(r);
                }
                t->residuals[type] += (uint64_t)p->frames;
            }
        }
    t->plans++;
    for (int type = 0; type < SP_TYPES; type++) {
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
            if (t->trace[type][i].failed)
                return -1;
        for (size_t i = 0; i < SP_SIGN_SLOTS; i++)
            if (t->sign_trace[type][i].failed)
                return -1;
    }
    return 0;
}

void sp_trainer_fit(const sp_trainer *t, rc_prob out[SP_TYPES][SP_PRIOR_SLOTS])
{
    for (int type = 0; type < SP_TYPES; type++)
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
            out[type][i] = bit_trace_fit(&t->trace[type][i], &t->costs);
}

void sp_trainer_fit_signs(const sp_trainer *t, sign_model out[SP_TYPES])
{
    for (int type = 0; type < SP_TYPES; type++)
        for (int ctx = 0; ctx < RESIDUAL_CONTEXTS; ctx++)
            for (int s = 0; s < SIGN_CONTEXTS; s++)
                out[type].negative[ctx][s] = bit_trace_fit(&t->sign_trace[type][ctx * SIGN_CONTEXTS + s], &t->costs);
}

void sp_trainer_sign_bits(const sp_trainer *t, const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS],
                          const sign_model signs[SP_TYPES], double plain[SP_TYPES], double in_context[SP_TYPES])
{
    const residual_model *layout = &t->probe; /* where each context's sign bit sits among the slots */
    for (int type = 0; type < SP_TYPES; type++) {
        uint64_t a = 0, b = 0;
        for (int ctx = 0; ctx < RESIDUAL_CONTEXTS; ctx++) {
            const size_t slot = (size_t)(&layout->negative[ctx] - (const rc_prob *)layout);
            a += bit_trace_cost(&t->trace[type][slot], &t->costs, states[type][slot]);
            for (int s = 0; s < SIGN_CONTEXTS; s++)
                b += bit_trace_cost(&t->sign_trace[type][ctx * SIGN_CONTEXTS + s], &t->costs,
                                    signs[type].negative[ctx][s]);
        }
        plain[type] = (double)a / RC_COST_SCALE;
        in_context[type] = (double)b / RC_COST_SCALE;
    }
}

void sp_trainer_cost_bits(const sp_trainer *t, const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], double bits[SP_TYPES])
{
    for (int type = 0; type < SP_TYPES; type++) {
        uint64_t cost = 0;
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
            cost += bit_trace_cost(&t->trace[type][i], &t->costs, states[type][i]);
        bits[type] = (double)cost / RC_COST_SCALE;
    }
}

static void put(byte_buffer *out, const char *text)
{
    bytes_append(out, text, strlen(text));
}

int sp_priors_source(const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], const sign_model signs[SP_TYPES], const char *about,
                     byte_buffer *out)
{
    static const char *const TYPE_NAMES[SP_TYPES] = {"rotation", "translation", "scale"};
    out->size = 0;
    put(out, "/* Generated by `animbench train-priors` (harness/commands/cmd_train.c): do not edit.  `make priors`\n"
             " * writes it again; `make check` fails when this file and the program disagree.  Each entry is an\n"
             " * adaptive bit's initial state {probability of a 0 in 2^-15, bits seen}, in the order of\n"
             " * residual_model's fields (codecs/entropy/range_coder.h). */\n"
             "#include \"codecs/shellpack/shellpack_priors.h\"\n\n"
             "const char SP_PRIORS_ABOUT[] = \"");
    put(out, about);
    put(out, "\";\n\nconst rc_prob SP_PRIORS[SP_TYPES][SP_PRIOR_SLOTS] = {\n");
    char cell[40];
    for (int type = 0; type < SP_TYPES; type++) {
        snprintf(cell, sizeof cell, "    { /* %s */\n", TYPE_NAMES[type]);
        put(out, cell);
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++) {
            snprintf(cell, sizeof cell, "%s{%u, %u},%s", i % 8 == 0 ? "        " : " ", (unsigned)states[type][i].p,
                     (unsigned)states[type][i].seen, i % 8 == 7 || i + 1 == SP_PRIOR_SLOTS ? "\n" : "");
            put(out, cell);
        }
        put(out, "    },\n");
    }
    put(out, "};\n\n/* The sign contexts' states (residual_signs.h): [residual context][sign context]. */\n"
             "const sign_model SP_SIGN_PRIORS[SP_TYPES] = {\n");
    for (int type = 0; type < SP_TYPES; type++) {
        snprintf(cell, sizeof cell, "    {{ /* %s */\n", TYPE_NAMES[type]);
        put(out, cell);
        for (int ctx = 0; ctx < RESIDUAL_CONTEXTS; ctx++) {
            put(out, "        {");
            for (int s = 0; s < SIGN_CONTEXTS; s++) {
                snprintf(cell, sizeof cell, "%s{%u, %u}", s ? ", " : "", (unsigned)signs[type].negative[ctx][s].p,
                         (unsigned)signs[type].negative[ctx][s].seen);
                put(out, cell);
            }
            put(out, "},\n");
        }
        put(out, "    }},\n");
    }
    put(out, "};\n");
    return out->failed ? -1 : 0;
}
