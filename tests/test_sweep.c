/* Sweeps: resume after a kill, skip what is on disk, refuse a broken
 * results file without touching it, write no temporary files, keep other
 * definitions' points, lock the output, write linearly, report what does not
 * decode, refuse malformed definitions with a message naming the fault;
 * split into shards that merge into the one-process file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codecs/codec.h"
#include "harness/measure/provenance.h"
#include "codecs/study/raw_codec.h"
#include "harness/commands/commands.h"
#include "harness/measure/match.h"
#include "harness/sweep/results.h"
#include "table_compare.h"
#include "harness/sweep/sweep.h"

static char dir[256];
static const sweep_options NORMAL = {.force = false}, FORCE = {.force = true};

/* Expected error messages are not test output: stderr goes to /dev/null
 * for the call and comes back after (cmocka reports on stderr). */
static int quiet_begin(void)
{
    fflush(stderr);
    const int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* stderr of one call, captured into buf. */
static int capture_begin(const char *path)
{
    fflush(stderr);
    const int saved = dup(2), f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(f, 2);
    close(f);
    return saved;
}

static char *capture_end(int saved, const char *path)
{
    quiet_end(saved);
    FILE *f = fopen(path, "r");
    static char buf[8192];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int count_points(const char *path)
{
    int missing;
    char err[256];
    cJSON *doc = results_read(path, &missing, err, sizeof err);
    if (!doc)
        return -1;
    const int n = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "points"));
    cJSON_Delete(doc);
    return n;
}

static int temp_files_left(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

static void definition(const char *path, const char *output, const char *tolerances)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"name\": \"t\", \"output\": \"%s\", \"runs\": [\n"
             " {\"clips\": [\"walk\", \"mocap\"], \"codecs\": [\"linear\", \"cubic\"], \"tol_mm\": [%s]},\n"
             " {\"clips\": [\"walk\"], \"codecs\": [\"raw\"]}]}\n",
             output, tolerances);
    write_text(path, text);
}

static void test_resume_measures_only_missing(void **state)
{
    (void)state;
    char def[300], out[300];
    snprintf(def, sizeof def, "%s/a.json", dir);
    snprintf(out, sizeof out, "%s/a_results.json", dir);
    char *argv[] = {"test"};
    sweep_stats st;
    definition(def, out, "1, 2");
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(st.points, 9);
    assert_int_equal(st.measured, 9);
    assert_int_equal(count_points(out), 9);
    definition(def, out, "0.5, 1, 2, 5");
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(st.points, 17);
    assert_int_equal(st.on_disk, 9);
    assert_int_equal(st.measured, 8);
    assert_int_equal(count_points(out), 17);
    assert_int_equal(sweep_run(def, &FORCE, 1, argv, &st), 0); /* --force */
    assert_int_equal(st.measured, 17);
    assert_int_equal(temp_files_left(), 0);
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* The points a killed run's journal holds whole: every newline-terminated
 * line that parses as an object with a key (the header has none; a line the
 * kill cut does not parse).  Read by the test, not by the sweep's reader, so
 * the rerun's count of recovered points has an independent expected side. */
static int journal_whole_points(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static char text[1 << 20];
    const size_t len = fread(text, 1, sizeof text, f);
    assert_true(len < sizeof text);
    fclose(f);
    int n = 0;
    for (char *line = text, *nl; (nl = memchr(line, '\n', len - (size_t)(line - text))); line = nl + 1) {
        cJSON *point = cJSON_ParseWithLength(line, (size_t)(nl - line));
        n += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(point, "key"));
        cJSON_Delete(point);
    }
    return n;
}

/* A sweep killed with SIGKILL at several moments: the output is always
 * either absent or whole, the journal keeps what was measured, and the
 * rerun measures exactly the points nobody measured before. */
static void test_killed_sweep_loses_nothing(void **state)
{
    (void)state;
    char def[300], out[300], journal[320];
    snprintf(def, sizeof def, "%s/k.json", dir);
    snprintf(out, sizeof out, "%s/k_results.json", dir);
    snprintf(journal, sizeof journal, "%s.journal", out);
    definition(def, out, "0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30");
    /* fixed delays hit wherever the machine's load puts them (a kill before the first whole batch
     * leaves nothing to recover); the last kill (-1) waits until the journal holds a whole point, so
     * recovery is exercised however slow the machine is */
    const int delays_ms[] = {5, 40, 80, 160, 320, -1};
    for (size_t k = 0; k < sizeof delays_ms / sizeof delays_ms[0]; k++) {
        const pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0) {
            char *argv[] = {"child"};
            sweep_stats st;
            quiet_begin(); /* the child's progress lines */
            _exit(sweep_run(def, &NORMAL, 1, argv, &st));
        }
        if (delays_ms[k] >= 0) {
            usleep(delays_ms[k] * 1000);
        } else {
            /* 81 points in batches of a few: the sweep cannot finish between two polls 1 ms apart */
            for (int waited = 0; journal_whole_points(journal) == 0; waited++) {
                assert_int_equal(waitpid(child, NULL, WNOHANG), 0); /* still running */
                assert_true(waited < 600000);                       /* ten minutes */
                usleep(1000);
            }
        }
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        if (exists(out))
            assert_true(count_points(out) >= 1); /* whole JSON, whatever moment the kill hit */
        const int in_journal = journal_whole_points(journal);
        if (delays_ms[k] < 0)
            assert_true(in_journal > 0);
        char *argv[] = {"test"};
        sweep_stats st;
        const int saved = quiet_begin();
        /* measuring nothing: a definition that names only what is stored would hide the recovery, so
         * the rerun is the full definition, and it must account for every point */
        const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
        quiet_end(saved);
        assert_int_equal(rc, 0);
        assert_int_equal(st.on_disk + st.measured, st.points);
        assert_int_equal(count_points(out), st.points);
        assert_false(exists(journal));
        assert_int_equal(st.recovered, in_journal); /* every whole journalled point, none invented */
        print_message("  killed after %d ms (-1: a whole point journalled): %d points recovered from the journal, %d stored, %d measured\n",
                      delays_ms[k], st.recovered, st.on_disk, st.measured);
        unlink(out); /* the next kill starts from nothing */
    }
    assert_int_equal(temp_files_left(), 0);
}

static void test_broken_results_file_is_refused_and_kept(void **state)
{
    (void)state;
    char def[300], out[300];
    snprintf(def, sizeof def, "%s/b.json", dir);
    snprintf(out, sizeof out, "%s/b_results.json", dir);
    definition(def, out, "1");
    write_text(out, "{\"points\": [ {\"key\": ");
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = quiet_begin();
    const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
    quiet_end(saved);
    assert_int_not_equal(rc, 0);
    FILE *f = fopen(out, "r");
    char buf[64] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "{\"points\": [ {\"key\": ");
}

static void test_bad_definitions(void **state)
{
    (void)state;
    char def[300], log[320];
    snprintf(def, sizeof def, "%s/bad.json", dir);
    snprintf(log, sizeof log, "%s/bad.log", dir);
    char *argv[] = {"test"};
    sweep_stats st;
#define RUN_RAW "\"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"raw\"]}]"
    const struct {
        const char *text, *message;
    } bad[] = {
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"nope\"]}]}",
         "unknown codec 'nope'"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"nowhere\"], \"codecs\": [\"raw\"]}]}",
         "unknown clip 'nowhere'"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": []}", "non-empty \"runs\""},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"linear\"], \"tol_mm\": [-1]}]}",
         "\"tol_mm\"[0]: expected a number above 0, found -1"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [ ", "bad.json:1:"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"clip_params\": {\"fsp\": 30}, " RUN_RAW "}",
         "clip_params: unknown field \"fsp\""},
        /* issue 14, finding 6, one by one */
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"every-nth\"], \"step\": [1e10]}]}",
         "\"step\"[0]: expected an integer from 1 to 65536, found 10000000000"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"clip_params\": {\"seed\": 1e12}, " RUN_RAW "}",
         "clip_params.seed: expected an integer from 0 to 4294967295, found 1000000000000"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"clip_params\": {\"fps\": 0}, " RUN_RAW "}",
         "clip_params.fps: expected a number from 0.1 to 10000, found 0"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"every-nth\"], \"step\": [2.9]}]}",
         "\"step\"[0]: expected an integer from 1 to 65536, found 2.9"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"linear\"], \"tol\": [2]}]}",
         "run 1: unknown field \"tol\""},
        {"{\"name\": \"x\", \"output\": \"o.json\", " RUN_RAW "} {}", "bad.json:1:85: text after the end of the JSON document"},
        {"{\"name\": \"x\", \"name\": \"y\", \"output\": \"o.json\", " RUN_RAW "}", "key \"name\" appears twice"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"raw\"], \"codecs\": [\"const\"]}]}",
         "key runs[0].\"codecs\" appears twice"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"clip_params\": {\"walk_seconds\": 100000}, " RUN_RAW "}",
         "6000000 frames: a clip has 2 to 4194304"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"raw\"], \"key_histogram\": 1}]}",
         "\"key_histogram\" is true or false"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"metrics\": {\"substeps\": 4.5}, " RUN_RAW "}",
         "metrics.substeps: expected an integer from 1 to 64, found 4.5"},
        {"{\"name\": \"x\", \"output\": \"o.json\", \"extra\": 1, " RUN_RAW "}", "the definition: unknown field \"extra\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(def, bad[i].text);
        const int saved = capture_begin(log);
        const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
        const char *msg = capture_end(saved, log);
        if (rc == 0 || !strstr(msg, bad[i].message))
            fail_msg("definition %zu: exit %d, message\n%s\nlacks \"%s\"", i, rc, msg, bad[i].message);
    }
    assert_false(exists("o.json"));
}

/* Issue 14, finding 3: a copy of a definition with its runs edited, on the
 * same output, turned 120 points into 1.  Points of another definition are
 * now kept, and the first definition's rerun finds its points still there. */
static cJSON *read_doc(const char *path)
{
    int missing;
    char err[256];
    cJSON *doc = results_read(path, &missing, err, sizeof err);
    assert_non_null(doc);
    return doc;
}

static void write_doc(const char *path, const cJSON *doc)
{
    char err[256];
    assert_int_equal(results_write(path, doc, err, sizeof err), 0);
}

/* The figures of a results file: its points less their provenance (clock,
 * commit), without the context block. */
static cJSON *figures_of(const char *path)
{
    cJSON *doc = read_doc(path);
    cJSON_DeleteItemFromObject(doc, "context");
    cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "points")) cJSON_DeleteItemFromObject(p, "provenance");
    return doc;
}

static int merge(const char *out, const char *a, const char *b, const char *c, const char *must_say)
{
    char *args[] = {(char *)a, (char *)b, (char *)c, "--out", (char *)out};
    char *full[] = {"test"};
    char cap[300];
    snprintf(cap, sizeof cap, "%s/merge_stderr.txt", dir);
    const int saved = capture_begin(cap);
    const int rc = cmd_merge(5, args, 1, full);
    const char *said = capture_end(saved, cap);
    if (must_say && !strstr(said, must_say))
        fail_msg("merge said \"%s\", expected \"%s\"", said, must_say);
    return rc;
}

/* Issue 13: three shards and a merge give the one-process file's points, in
 * its order, figure for figure; a merge refuses an incomplete shard, a point
 * in two shards and a shard of another code version, and keeps the points
 * of other definitions that its output held. */
static void test_sharded_sweep_merges_to_one_process(void **state)
{
    (void)state;
    char def[300], out[300], single[300], shard[3][300], other[300];
    snprintf(def, sizeof def, "%s/sharded.json", dir);
    snprintf(out, sizeof out, "%s/sharded_results.json", dir);
    snprintf(single, sizeof single, "%s/single_results.json", dir);
    snprintf(other, sizeof other, "%s/other.json", dir);
    definition(def, out, "1, 2");
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(rename(out, single), 0);
    int total = 0;
    for (int i = 0; i < 3; i++) {
        const sweep_options part = {.shard_index = i + 1, .shard_count = 3};
        assert_int_equal(sweep_run(def, &part, 1, argv, &st), 0);
        total += st.measured;
        assert_int_equal(st.points, 3);
        sweep_shard_path(out, i + 1, 3, shard[i], sizeof shard[i]);
        assert_int_equal(count_points(shard[i]), 3);
    }
    assert_int_equal(total, 9);
    /* a point of another definition in the output before the merge */
    char text[1024];
    snprintf(text, sizeof text, "{\"name\": \"u\", \"output\": \"%s\", \"runs\": [{\"clips\": [\"jump\"], \"codecs\": [\"raw\"]}]}",
             out);
    write_text(other, text);
    assert_int_equal(sweep_run(other, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], NULL), 0);
    assert_int_equal(count_points(out), 10);
    cJSON *merged = figures_of(out), *one = figures_of(single);
    cJSON *foreign = cJSON_DetachItemFromArray(cJSON_GetObjectItem(merged, "points"), 9);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(foreign, "clip"), "name")->valuestring, "jump");
    assert_true(cJSON_Compare(merged, one, true));
    cJSON_Delete(foreign);
    cJSON_Delete(merged);
    cJSON_Delete(one);

    /* refusals: nothing is written */
    cJSON *doc = read_doc(shard[1]);
    cJSON *kept = cJSON_Duplicate(doc, true);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(doc, "points"), 0);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "shard"), "ordinals"), 0);
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "holds 2 of its shard's 3 points"), 2);
    cJSON_Delete(doc);
    doc = cJSON_Duplicate(kept, true); /* a point of shard 1 also in shard 2 */
    cJSON *first = read_doc(shard[0]);
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"),
                         cJSON_Duplicate(cJSON_GetArrayItem(cJSON_GetObjectItem(first, "points"), 0), true));
    cJSON_AddItemToArray(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "shard"), "ordinals"), cJSON_CreateNumber(99));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "shard"), "points_expected", cJSON_CreateNumber(4));
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "is in both"), 2);
    cJSON_Delete(doc);
    cJSON_Delete(first);
    doc = cJSON_Duplicate(kept, true);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "code_version", cJSON_CreateString("0000"));
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "was measured by code version 0000"), 2);
    cJSON_Delete(doc);
    doc = cJSON_Duplicate(kept, true); /* the definition edited between shards */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "shard"), "definition_fnv1a64", cJSON_CreateString("0123"));
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "the definition was edited between shards"), 2);
    cJSON_Delete(doc);
    doc = cJSON_Duplicate(kept, true); /* a place given twice */
    cJSON *ord = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "shard"), "ordinals");
    cJSON_ReplaceItemInArray(ord, 1, cJSON_Duplicate(cJSON_GetArrayItem(ord, 0), true));
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "are not the places 0 to 8, each once"), 2);
    cJSON_Delete(doc);
    doc = cJSON_Duplicate(kept, true); /* "Points": results_read takes it, a shard must not */
    cJSON *pts = cJSON_DetachItemFromObject(doc, "points");
    cJSON_AddItemToObject(doc, "Points", pts);
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "not a shard file"), 2);
    cJSON_Delete(doc);
    doc = cJSON_Duplicate(kept, true);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "shard"), "index", cJSON_CreateNumber(1e300));
    write_doc(shard[1], doc);
    assert_int_equal(merge(out, shard[0], shard[1], shard[2], "not a shard file"), 2);
    cJSON_Delete(doc);
    write_doc(shard[1], kept);
    cJSON_Delete(kept);
    assert_int_equal(merge(shard[0], shard[0], shard[1], shard[2], "is one of the shard files it reads"), 2);
    assert_int_equal(merge(out, shard[0], shard[1], shard[0], "shard 1 of 3 is given twice"), 2);
    assert_int_equal(merge(out, shard[0], shard[1], single, "not a shard file"), 2);
    assert_int_equal(count_points(out), 10);
    assert_int_equal(merge(out, shard[2], shard[0], shard[1], NULL), 0); /* any order */
    assert_int_equal(count_points(out), 10);
}

static void test_other_definitions_points_are_kept(void **state)
{
    (void)state;
    char def[300], copy[300], out[300];
    snprintf(def, sizeof def, "%s/mine.json", dir);
    snprintf(copy, sizeof copy, "%s/mine_copy.json", dir);
    snprintf(out, sizeof out, "%s/shared_results.json", dir);
    definition(def, out, "1, 2");
    char text[2048];
    snprintf(text, sizeof text, "{\"name\": \"t\", \"output\": \"%s\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"raw\"]}]}",
             out);
    write_text(copy, text); /* same name and output, other runs */
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(count_points(out), 9);
    assert_int_equal(sweep_run(copy, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(st.points, 1);
    assert_int_equal(st.kept_foreign, 8); /* walk raw is shared: the copy reuses it */
    assert_int_equal(st.on_disk, 1);
    assert_int_equal(count_points(out), 9);
    /* the original shrinks: its own dropped points go, nobody else's */
    definition(def, out, "2");
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved);
    assert_int_equal(st.dropped, 4);
    assert_int_equal(count_points(out), 5);
}

/* The audit's case: A measures cubic at 1 and 2 mm, A2 reuses them (and
 * adds 3 mm); when A stops naming cubic, the points A2 still names stay, and
 * so they do after A2 measured them again with --force. */
static void test_shared_points_outlive_one_owner(void **state)
{
    (void)state;
    char a[300], a2[300], out[300], text[600];
    snprintf(a, sizeof a, "%s/own_a.json", dir);
    snprintf(a2, sizeof a2, "%s/own_a2.json", dir);
    snprintf(out, sizeof out, "%s/own_results.json", dir);
    const char *form = "{\"name\": \"%s\", \"output\": \"%s\", \"metrics\": {\"substeps\": 1}, \"runs\": [{\"clips\": "
                       "[\"walk\"], \"codecs\": [%s], \"tol_mm\": [%s]}]}";
    snprintf(text, sizeof text, form, "a", out, "\"linear\", \"cubic\"", "1, 2");
    write_text(a, text);
    snprintf(text, sizeof text, form, "a2", out, "\"cubic\"", "1, 2, 3");
    write_text(a2, text);
    char *argv[] = {"test"};
    sweep_stats st;
    const sweep_options force = {.force = true};
    for (int pass = 0; pass < 2; pass++) {
        unlink(out);
        snprintf(text, sizeof text, form, "a", out, "\"linear\", \"cubic\"", "1, 2");
        write_text(a, text);
        const int q = quiet_begin();
        assert_int_equal(sweep_run(a, &NORMAL, 1, argv, &st), 0);
        assert_int_equal(sweep_run(a2, pass ? &force : &NORMAL, 1, argv, &st), 0);
        assert_int_equal(st.on_disk + st.measured, 3);
        snprintf(text, sizeof text, form, "a", out, "\"linear\"", "1, 2");
        write_text(a, text);
        assert_int_equal(sweep_run(a, &NORMAL, 1, argv, &st), 0);
        quiet_end(q);
        assert_int_equal(st.dropped, 0);  /* cubic 1 and 2: A2 still names them */
        assert_int_equal(count_points(out), 5); /* linear 1, 2; cubic 1, 2, 3 */
    }
}

/* Two sweeps on one output at once: the second stops with a message that
 * names the output and the holder, and leaves the file alone. */
static void test_second_writer_is_refused(void **state)
{
    (void)state;
    char def[300], out[300], lock[320], log[320];
    snprintf(def, sizeof def, "%s/l.json", dir);
    snprintf(out, sizeof out, "%s/l_results.json", dir);
    snprintf(lock, sizeof lock, "%s.lock", out);
    snprintf(log, sizeof log, "%s/l.log", dir);
    definition(def, out, "1");
    const int fd = open(lock, O_RDWR | O_CREAT, 0644);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    assert_int_equal(pwrite(fd, "4242\n", 5, 0), 5);
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = capture_begin(log);
    const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
    const char *msg = capture_end(saved, log);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(msg, "is being written by another sweep or merge (process 4242"));
    assert_false(exists(out));
    close(fd); /* released: now it runs */
    const int saved2 = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved2);
    assert_int_equal(count_points(out), 5);
}

/* Issue 14, finding 5: the whole file was rewritten every batch.  Now a
 * sweep writes its output once; what it writes is linear in its points. */
static void test_writing_is_linear(void **state)
{
    (void)state;
    char def[300], out[300];
    snprintf(def, sizeof def, "%s/w.json", dir);
    snprintf(out, sizeof out, "%s/w_results.json", dir);
    definition(def, out, "0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5");
    unsigned long long files0, bytes0, files1, bytes1;
    results_write_stats(&files0, &bytes0);
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved);
    results_write_stats(&files1, &bytes1);
    assert_int_equal(st.measured, 41);
    struct stat sb;
    assert_int_equal(stat(out, &sb), 0);
    /* the output once, its tables once (two TSV files, smaller than it) */
    assert_true(files1 - files0 <= 3);
    assert_true(bytes1 - bytes0 <= 2 * (unsigned long long)sb.st_size);
    /* nothing to measure: nothing rewritten, the file's context stays as it was */
    const time_t before = sb.st_mtime;
    const ino_t inode = sb.st_ino;
    const int saved2 = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved2);
    assert_int_equal(stat(out, &sb), 0);
    assert_true(sb.st_ino == inode && sb.st_mtime == before);
}

/* Issue 14, finding 4: a point whose stream does not decode was stored with
 * exit 0 and nothing said.  Now it is printed, counted, and the exit is 1
 * unless --keep-going. */
static void test_undecodable_point_is_an_error(void **state)
{
    (void)state;
    char def[300], out[300], log[320];
    snprintf(def, sizeof def, "%s/u.json", dir);
    snprintf(out, sizeof out, "%s/u_results.json", dir);
    snprintf(log, sizeof log, "%s/u.log", dir);
    definition(def, out, "1");
    char *argv[] = {"test"};
    sweep_stats st;
    int saved = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved);
    /* a stored point that does not decode, as the duplicate-key bug stored them */
    int missing;
    char err[256];
    cJSON *doc = results_read(out, &missing, err, sizeof err);
    cJSON *dec = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "points"), 1), "decoded");
    cJSON_ReplaceItemInObject(dec, "ok", cJSON_CreateFalse());
    assert_int_equal(results_write(out, doc, err, sizeof err), 0);
    cJSON_Delete(doc);
    saved = capture_begin(log);
    const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
    const char *msg = capture_end(saved, log);
    assert_int_equal(rc, 1);
    assert_int_equal(st.undecodable, 1);
    assert_non_null(strstr(msg, "1 stored that do not decode"));
    const sweep_options keep_going = {.keep_going = true};
    saved = quiet_begin();
    assert_int_equal(sweep_run(def, &keep_going, 1, argv, &st), 0);
    quiet_end(saved);
    assert_int_equal(st.undecodable, 1);
}

/* A temporary file left by a killed writer (its process gone) is removed by
 * the next write of the same file. */
static void test_stray_temporary_is_removed(void **state)
{
    (void)state;
    char def[300], out[300], stray[400];
    snprintf(def, sizeof def, "%s/s.json", dir);
    snprintf(out, sizeof out, "%s/s_results.json", dir);
    const pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    snprintf(stray, sizeof stray, "%s.tmp.%ld", out, (long)gone);
    write_text(stray, "{\"half\": ");
    definition(def, out, "1");
    char *argv[] = {"test"};
    sweep_stats st;
    const int saved = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(saved);
    assert_false(exists(stray));
}

/* The point limit at its edge: 100,000 points parse (and then stop at the
 * first clip, which does not exist, so nothing is measured); 100,001 are
 * refused by the count alone. */
static void test_point_limit(void **state)
{
    (void)state;
    char def[300], log[320];
    snprintf(def, sizeof def, "%s/many.json", dir);
    snprintf(log, sizeof log, "%s/many.log", dir);
    for (int extra = 0; extra <= 1; extra++) {
        /* 200 clips x 50 tolerances x 10 levers = 100,000 points, plus one run of one point */
        size_t cap = 65536, n = 0;
        char *text = malloc(cap);
        n += (size_t)snprintf(text + n, cap - n, "{\"name\": \"many\", \"output\": \"%s/many_results.json\", \"runs\": [{\"clips\": [", dir);
        for (int c = 0; c < 200; c++)
            n += (size_t)snprintf(text + n, cap - n, "%s\"no_such_clip_%d\"", c ? ", " : "", c);
        n += (size_t)snprintf(text + n, cap - n, "], \"codecs\": [\"linear\"], \"tol_mm\": [");
        for (int t = 0; t < 50; t++)
            n += (size_t)snprintf(text + n, cap - n, "%s%d", t ? ", " : "", t + 1);
        n += (size_t)snprintf(text + n, cap - n, "], \"lever_m\": [");
        for (int l = 0; l < 10; l++)
            n += (size_t)snprintf(text + n, cap - n, "%s%d", l ? ", " : "", l + 1);
        n += (size_t)snprintf(text + n, cap - n, "]}%s]}\n",
                              extra ? ", {\"clips\": [\"walk\"], \"codecs\": [\"raw\"]}" : "");
        write_text(def, text);
        free(text);
        char *argv[] = {"test"};
        sweep_stats st;
        const int saved = capture_begin(log);
        const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
        const char *msg = capture_end(saved, log);
        assert_int_equal(rc, 2);
        if (extra)
            assert_non_null(strstr(msg, "more than 100000 points"));
        else
            assert_non_null(strstr(msg, "unknown clip 'no_such_clip_0'"));
    }
}

/* A point's cache key holds the measuring code's version and its row's
 * own: editing one codec's file changes the key of that codec's rows and
 * of no other row (tests/cache_keys.sh makes a real edit and rebuilds). */
static void test_codec_versions_follow_their_files(void **state)
{
    (void)state;
    const source_hash *build;
    const int n = provenance_codec_files(&build);
    /* every row names only files the build knows, and every codecs/ file belongs to some row */
    for (int i = 0; i < codec_count(); i++) {
        char v[17];
        if (codec_cache_version(codec_at(i), build, n, v) != 0)
            fail_msg("row %s names a source the build does not know: %s", codec_at(i)->name, codec_at(i)->sources);
    }
    for (int f = 0; f < n; f++) {
        bool claimed = false;
        for (int i = 0; i < codec_count() && !claimed; i++)
            claimed = strstr(codec_at(i)->sources, build[f].file) != NULL;
        if (!claimed)
            fail_msg("codecs/%s belongs to no row's sources: editing it would re-measure nothing", build[f].file);
    }
    /* a row that names a file the build does not know (a typo) measures nothing: its key could not
     * follow its edits (the newcomer's "uniform-q.c" for uniform_q.c re-measured 0 points after an edit) */
    const codec typo = {"typo", "a row with a misspelt source", 0, NULL, &RAW_CODEC_OPS, 1, "evry_nth.c", NULL, 0};
    char err[400];
    clip_source *src = clip_source_load("walk", &CLIP_DEFAULTS, err, sizeof err);
    measured_clip *mc = measured_clip_create(src, NULL, err, sizeof err);
    codec_params p;
    codec_params_init(&typo, &p);
    point_result r;
    assert_int_not_equal(measure_point(mc, &typo, &p, false, &r, err, sizeof err), 0);
    assert_non_null(strstr(err, "names a source (\"evry_nth.c\") that is not a file of codecs/"));
    measured_clip_free(mc);
    /* an edit of every_nth.c, then of refine.c */
    source_hash *edited = malloc((size_t)n * sizeof *edited);
    const char *files[] = {"every_nth.c", "refine.c"};
    for (int e = 0; e < 2; e++) {
        memcpy(edited, build, (size_t)n * sizeof *edited);
        for (int f = 0; f < n; f++)
            if (strcmp(edited[f].file, files[e]) == 0)
                edited[f].hash = "0123456789abcdef";
        int changed = 0;
        for (int i = 0; i < codec_count(); i++) {
            const codec *c = codec_at(i);
            char before[17], after[17];
            codec_cache_version(c, build, n, before);
            codec_cache_version(c, edited, n, after);
            const bool uses = strstr(c->sources, files[e]) != NULL;
            if (uses == (strcmp(before, after) == 0))
                fail_msg("edit of %s: row %s %s", files[e], c->name, uses ? "kept its version" : "changed its version");
            changed += uses;
        }
        print_message("  an edit of codecs/%s changes the key of %d of %d rows\n", files[e], changed, codec_count());
        assert_int_equal(changed, e == 0 ? 1 : 27); /* the track rows of registry.c: 11 of the study and its -sc twins, 16 of key selection */
    }
    free(edited);
}

/* A codec that exists only in this test build, with one declared parameter
 * ("level", an integer 1 to 8, the quality knob, larger: more bytes): the
 * raw layout padded by 1000 bytes a level, decoded with the root moved by
 * 8 / level mm.  Registered at run time, it must appear in `list`, take its
 * parameter in a sweep ("params") and in `match`, with no other edit. */
static int level_encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                        size_t err_size)
{
    if (RAW_CODEC_OPS.encode(c, in, p, out, err, err_size) != 0)
        return -1;
    const int level = (int)p->value[0];
    const size_t raw = out->bytes.size;
    bytes_zeros(&out->bytes, (size_t)level * 1000);
    bytes_u32(&out->bytes, (uint32_t)level);
    bytes_u32(&out->bytes, (uint32_t)raw);
    return 0;
}

static anim_clip *level_decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                               size_t err_size)
{
    if (size < 8) {
        snprintf(err, err_size, "too short");
        return NULL;
    }
    byte_reader r = {bytes, size, size - 8};
    uint32_t level = 0, raw = 0;
    if (!read_u32(&r, &level) || !read_u32(&r, &raw) || raw > size - 8 || level < 1 || level > 8) {
        snprintf(err, err_size, "bad trailer");
        return NULL;
    }
    anim_clip *clip = RAW_CODEC_OPS.decode(c, bytes, raw, rig, err, err_size);
    for (int f = 0; clip && f < clip->frame_count; f++)
        clip_pos_channel(clip, 0, 0)[f] += 0.008 / level;
    return clip;
}

static const codec_param_decl LEVEL[] = {
    {"level", PARAM_INT, 2, 1, 8, false, "", "how fine (test codec)", NULL, -1},
};
static codec_ops level_ops;
static const codec LEVEL_CODEC = {"test-level", "a codec of the test build", 0, NULL, &level_ops, 1, "", LEVEL, 1};

static void register_level_codec(void)
{
    if (codec_find("test-level"))
        return;
    level_ops = RAW_CODEC_OPS;
    level_ops.encode = level_encode;
    level_ops.decode = level_decode;
    level_ops.sampler_create = NULL;
    assert_int_equal(codec_register(&LEVEL_CODEC), 0);
}

/* A command run with its stdout and stderr sent to /dev/null. */
static int silently(int (*command)(int, char **), int argc, char **argv)
{
    const int saved_err = quiet_begin();
    fflush(stdout);
    const int saved_out = dup(1), null_out = open("/dev/null", O_WRONLY);
    dup2(null_out, 1);
    close(null_out);
    const int rc = command(argc, argv);
    fflush(stdout);
    dup2(saved_out, 1);
    close(saved_out);
    quiet_end(saved_err);
    return rc;
}

static void test_codec_of_the_test_build(void **state)
{
    (void)state;
    register_level_codec();
    char log[320], def[300], out[300];
    snprintf(log, sizeof log, "%s/list.txt", dir);
    /* list */
    fflush(stdout);
    const int saved = dup(1), f = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(f, 1);
    close(f);
    char *argv0[] = {NULL};
    assert_int_equal(cmd_list(0, argv0), 0);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char *listing = read_text_file(log);
    assert_non_null(strstr(listing, "test-level   a codec of the test build"));
    assert_non_null(strstr(listing, "level: how fine (test codec)"));
    assert_non_null(strstr(listing, "an integer from 1 to 8, default 2; the quality knob: larger is more bytes"));
    free(listing);
    /* a sweep over its parameter */
    snprintf(def, sizeof def, "%s/level.json", dir);
    snprintf(out, sizeof out, "%s/level_results.json", dir);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"name\": \"level\", \"output\": \"%s\", \"metrics\": {\"substeps\": 1}, \"runs\": [{\"clips\": [\"walk\"], "
             "\"codecs\": [\"test-level\"], \"params\": {\"level\": [1, 2, 4, 8]}}]}",
             out);
    write_text(def, text);
    char *argv[] = {"test"};
    sweep_stats st;
    int q = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(q);
    assert_int_equal(st.measured, 4);
    int missing;
    char err[256];
    cJSON *doc = results_read(out, &missing, err, sizeof err);
    assert_non_null(doc);
    const cJSON *pt;
    double bytes_prev = 0;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItem(doc, "points"))
    {
        const cJSON *cod = cJSON_GetObjectItem(pt, "codec");
        assert_string_equal(cJSON_GetObjectItem(cod, "knob")->valuestring, "level");
        const double level = cJSON_GetObjectItem(cJSON_GetObjectItem(cod, "params"), "level")->valuedouble;
        const double bytes = cJSON_GetObjectItem(pt, "bytes")->valuedouble;
        const double max_mm = cJSON_GetObjectItem(cJSON_GetObjectItem(pt, "decoded"), "max_mm")->valuedouble;
        assert_true(bytes > bytes_prev);
        assert_true(fabs(max_mm - 8 / level) < 1e-3);
        bytes_prev = bytes;
    }
    cJSON_Delete(doc);
    /* every figure and table of the file: the codec is in each, with no edit anywhere */
    snprintf(text, sizeof text,
             "{\"name\": \"level\", \"output\": \"%s\", \"metrics\": {\"substeps\": 1}, \"runs\": [{\"clips\": [\"walk\"], "
             "\"codecs\": [\"test-level\", \"raw\"], \"params\": {\"level\": [1, 2, 4, 8]}}, {\"clips\": [\"walk\"], "
             "\"codecs\": [\"test-level\", \"raw\"], \"targets\": {\"metric\": \"joint_max_mm\", \"mm\": [1.5]}}]}",
             out);
    write_text(def, text);
    q = quiet_begin();
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    quiet_end(q);
    char cmd[1200], ratios[320];
    snprintf(ratios, sizeof ratios, "%s/level_results_ratios.tsv", dir);
    char *summary_argv[] = {out, "--baseline", "raw", "--tsv", ratios};
    assert_int_equal(silently(cmd_summary, 5, summary_argv), 0);
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        print_message("  gnuplot not here: the figure check is skipped\n");
    } else {
        snprintf(cmd, sizeof cmd, "scripts/figures.sh %s 2>/dev/null", out);
        assert_int_equal(system(cmd), 0);
        const char *figures[] = {"level_results_rate_distortion_walk.svg", "level_results_equal_error_joint_max_mm_1.5.svg",
                                 "level_results_ratio_joint_max_mm_1.5_mm.svg"};
        for (int i = 0; i < 3; i++) {
            snprintf(cmd, sizeof cmd, "grep -q 'test-level' %s/figures/%s", dir, figures[i]);
            if (system(cmd) != 0)
                fail_msg("the test codec is not in %s", figures[i]);
        }
    }
    char table_log[320];
    snprintf(table_log, sizeof table_log, "%s/table.txt", dir);
    char *table_argv[] = {out, "--columns", "codec,params,bytes", "--out", table_log};
    assert_int_equal(silently(cmd_table, 5, table_argv), 0);
    char *table = read_text_file(table_log);
    assert_non_null(strstr(table, "| test-level | level=4 |"));
    free(table);
    /* a value out of its range names the codec, the parameter and the range */
    snprintf(text, sizeof text,
             "{\"name\": \"level\", \"output\": \"%s\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"test-level\"], "
             "\"params\": {\"level\": [9]}}]}",
             out);
    write_text(def, text);
    q = capture_begin(log);
    const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
    const char *msg = capture_end(q, log);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(msg, "params.level[0]: codec test-level: parameter level: 9 is out of range"));
    /* match: 8 / level <= 1.5 mm from level 6 (1.33 mm; 5 gives 1.6) */
    clip_source *src = clip_source_load("walk", &CLIP_DEFAULTS, err, sizeof err);
    metric_params mp;
    metric_params_default(&mp);
    mp.substeps = 1;
    measured_clip *mc = measured_clip_create(src, &mp, err, sizeof err);
    codec_params base;
    codec_params_init(&LEVEL_CODEC, &base);
    match_result m;
    assert_int_equal(match_search(mc, &LEVEL_CODEC, &base, MATCH_JOINT_MAX, 1.5, &m, err, sizeof err), 0);
    assert_true(m.reachable);
    assert_true(m.knob == 6);
    match_result_free(&m);
    measured_clip_free(mc);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/animbench_test_sweep_%ld", (long)getpid());
    return mkdir(dir, 0700);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_measures_only_missing),
        cmocka_unit_test(test_killed_sweep_loses_nothing),
        cmocka_unit_test(test_broken_results_file_is_refused_and_kept),
        cmocka_unit_test(test_bad_definitions),
        cmocka_unit_test(test_other_definitions_points_are_kept),
        cmocka_unit_test(test_shared_points_outlive_one_owner),
        cmocka_unit_test(test_second_writer_is_refused),
        cmocka_unit_test(test_writing_is_linear),
        cmocka_unit_test(test_undecodable_point_is_an_error),
        cmocka_unit_test(test_stray_temporary_is_removed),
        cmocka_unit_test(test_point_limit),
        cmocka_unit_test(test_sharded_sweep_merges_to_one_process),
        cmocka_unit_test(test_codec_versions_follow_their_files),
        cmocka_unit_test(test_codec_of_the_test_build),
    };
    return cmocka_run_group_tests_name("sweep", tests, setup, teardown);
}
