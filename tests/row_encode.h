/* A registry row's encoder on a measured clip at a tol_mm, for tests that
 * look at the stream itself (test_key_select.c, test_shellpack.c): the
 * test fails, naming the row, when the encoder refuses. */
#ifndef ANIMBENCH_TESTS_ROW_ENCODE_H
#define ANIMBENCH_TESTS_ROW_ENCODE_H

#include "codecs/codec.h"
#include "harness/measure/measure.h"

codec_output encode_row(const measured_clip *m, const char *row, double tol_mm);

#endif
