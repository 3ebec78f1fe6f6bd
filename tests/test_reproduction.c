/* The reproduction test: `animbench tables` against the study's published
 * output (seeds/000, copied to tests/data/study_published.txt) and against
 * the study's own script run with other constants (tests/data/variants/,
 * produced by scripts/study_variant.js; see tests/data/README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/study_tables.h"
#include "table_compare.h"

static char *run_tables(int argc, char **argv)
{
    study_settings s;
    study_settings_default(&s);
    s.timings = false;
    char err[512];
    if (study_settings_parse(&s, argc, argv, err, sizeof err) != 0)
        fail_msg("flags rejected: %s", err);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    const int rc = study_tables_print(out, &s, err, sizeof err);
    fclose(out);
    if (rc != 0)
        fail_msg("tables failed: %s", err);
    return text;
}

static void check_against(const char *expected_path, int argc, char **argv)
{
    char *expected = read_text_file(expected_path);
    if (!expected)
        fail_msg("cannot read %s (run the tests from the repository root)", expected_path);
    char *actual = run_tables(argc, argv);
    compare_report r;
    const int rc = compare_tables(expected, actual, &r);
    printf("  %s: %d lines compared; gzip fields %d, %d identical, %ld bytes apart in total\n", expected_path,
           r.lines_compared, r.gzip_fields, r.gzip_equal, r.gzip_abs_diff);
    if (rc != 0)
        fail_msg("%d mismatches; first at %s", r.mismatches, r.first_mismatch);
    assert_true(r.lines_compared >= 60);
    free(expected);
    free(actual);
}

static void test_published_defaults(void **state)
{
    (void)state;
    check_against("tests/data/study_published.txt", 0, NULL);
}

/* Variants: one per line of tests/data/variants/FLAGS. */
static void test_variants(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/variants/FLAGS", "r");
    assert_non_null(f);
    char line[512];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *argv[32];
        int argc = 0;
        for (char *save = NULL, *tok = strtok_r(line, " \t\n", &save); tok && argc < 32;
             tok = strtok_r(NULL, " \t\n", &save))
            argv[argc++] = tok;
        char path[256];
        snprintf(path, sizeof path, "tests/data/variants/%s.txt", argv[0]);
        check_against(path, argc - 1, argv + 1);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 6);
}

/* The comparator itself must catch a one-digit change in a deterministic
 * field and must not flag a change in a gzip field. */
static void test_comparator_catches_changes(void **state)
{
    (void)state;
    const char *base = "4 constant removal + linear keyframes       24068    8023    8132    2711      4.69   0.508\n";
    const char *err_changed = "4 constant removal + linear keyframes       24068    8023    8132    2711      4.70   0.508\n";
    const char *gzip_changed = "4 constant removal + linear keyframes       24068    8023    8145    2715      4.69   0.508\n";
    const char *bytes_changed = "4 constant removal + linear keyframes       24069    8023    8132    2711      4.69   0.508\n";
    compare_report r;
    assert_int_equal(compare_tables(base, base, &r), 0);
    assert_int_not_equal(compare_tables(base, err_changed, &r), 0);
    assert_int_not_equal(compare_tables(base, bytes_changed, &r), 0);
    assert_int_equal(compare_tables(base, gzip_changed, &r), 0);
    assert_int_equal(r.gzip_fields, 2);
    assert_int_equal(r.gzip_equal, 0);
    const char *rec = "float32 keys: constant 1616 B -> 544 B (2.97x), animated 15854 B -> 6138 B (2.58x), whole 17470 B -> 6733 B (2.59x)\n";
    const char *rec_gz = "float32 keys: constant 1616 B -> 539 B (3.00x), animated 15854 B -> 6144 B (2.58x), whole 17470 B -> 6737 B (2.59x)\n";
    const char *rec_bytes = "float32 keys: constant 1617 B -> 544 B (2.97x), animated 15854 B -> 6138 B (2.58x), whole 17470 B -> 6733 B (2.59x)\n";
    assert_int_equal(compare_tables(rec, rec_gz, &r), 0);
    assert_int_not_equal(compare_tables(rec, rec_bytes, &r), 0);
    const char *sweep = "lin       0.1    0.016    3365   55544  18515   15077       0.32   0.044\n";
    const char *sweep_keys = "lin       0.1    0.016    3366   55544  18515   15077       0.32   0.044\n";
    assert_int_not_equal(compare_tables(sweep, sweep_keys, &r), 0);
    assert_int_not_equal(compare_tables(sweep, "", &r), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comparator_catches_changes),
        cmocka_unit_test(test_published_defaults),
        cmocka_unit_test(test_variants),
    };
    return cmocka_run_group_tests_name("reproduction", tests, NULL, NULL);
}
