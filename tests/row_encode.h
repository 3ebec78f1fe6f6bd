/* A registry row's encoder on a measured clip at a tol_mm, for tests that
 * look at the stream itself (test_key_select.c, test_shellpack*.c): the
 * test fails, naming the row, when the encoder refuses. */
#ifndef ANIMBENCH_TESTS_ROW_ENCODE_H
#define ANIMBENCH_TESTS_ROW_ENCODE_H

#include "codecs/codec.h"
#include "codecs/shellpack/shellpack_costs.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"

codec_output encode_row(const measured_clip *m, const char *row, double tol_mm);

/* A clip source by name (walk and jump at `seconds` when above 0, else the defaults), and a
 * measured clip from a source (which it takes); the test fails, saying why, when either cannot. */
clip_source *row_source(const char *name, double seconds);
measured_clip *row_measured_clip(clip_source *s);
/* A row's point at tol_mm, measured by the harness from the decoded bytes; the test fails when the
 * row refuses or its bytes do not decode. */
point_result measure_row(const measured_clip *m, const char *row, double tol_mm);
/* The same at parameters p (a row's other parameters, e.g. shellpack-ra's section length). */
point_result measure_row_params(const measured_clip *m, const codec *c, const codec_params *p);
/* ACL's shell distance of the clip the harness decodes from each row's bytes, max over every joint
 * and frame, within the target (1 and 0.1 mm), and the encoder's own report that same figure, for
 * every row on every clip (walk and jump at 1.5 s); prints the first row's figures. */
void assert_contract_on_decoded_clips(const char *const *clips, size_t clip_count, const char *const *rows,
                                      size_t row_count);

/* The estimated bits of every animated curve of a shellpack encoder's plan, with tables t (one per
 * sub-track type, sp_tabulate_costs): the tests of the step exchanges. */
uint64_t plan_estimate(const sp_encoder *e, const sp_residual_costs *t);

#endif
