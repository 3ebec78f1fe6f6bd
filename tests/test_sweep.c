/* Sweeps: resume after a kill, skip what is on disk, refuse a broken
 * results file without touching it, write no temporary files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness/results.h"
#include "../harness/sweep.h"

static char dir[256];
static const sweep_options NORMAL = {false, false}, FORCE = {true, false};

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

/* A sweep killed with SIGKILL while it runs leaves a results file that
 * parses; rerunning measures exactly the points it lacks. */
static void test_killed_sweep_leaves_whole_file(void **state)
{
    (void)state;
    char def[300], out[300];
    snprintf(def, sizeof def, "%s/k.json", dir);
    snprintf(out, sizeof out, "%s/k_results.json", dir);
    definition(def, out, "0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30");
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        char *argv[] = {"child"};
        sweep_stats st;
        quiet_begin(); /* the child's progress lines */
        for (;;) /* keep rewriting the file until killed */
            sweep_run(def, &FORCE, 1, argv, &st);
    }
    struct stat sb;
    for (int i = 0; i < 2000 && stat(out, &sb) != 0; i++)
        usleep(1000);
    usleep(30000);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    const int kept = count_points(out);
    assert_true(kept >= 1); /* whole JSON, whatever moment the kill hit */
    char *argv[] = {"test"};
    sweep_stats st;
    assert_int_equal(sweep_run(def, &NORMAL, 1, argv, &st), 0);
    assert_int_equal(st.on_disk + st.measured, st.points);
    assert_int_equal(count_points(out), st.points);
    print_message("  killed run left %d points on disk; the rerun measured %d of %d\n", st.on_disk, st.measured,
                  st.points);
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
    char def[300];
    snprintf(def, sizeof def, "%s/bad.json", dir);
    char *argv[] = {"test"};
    sweep_stats st;
    const char *bad[] = {
        "{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"nope\"]}]}",
        "{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"nowhere\"], \"codecs\": [\"raw\"]}]}",
        "{\"name\": \"x\", \"output\": \"o.json\", \"runs\": []}",
        "{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"linear\"], \"tol_mm\": [-1]}]}",
        "{\"name\": \"x\", \"output\": \"o.json\", \"runs\": [ ",
        "{\"name\": \"x\", \"output\": \"o.json\", \"clip_params\": {\"fsp\": 30}, \"runs\": [{\"clips\": [\"walk\"], \"codecs\": [\"raw\"]}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(def, bad[i]);
        const int saved = quiet_begin();
        const int rc = sweep_run(def, &NORMAL, 1, argv, &st);
        quiet_end(saved);
        assert_int_not_equal(rc, 0);
    }
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
        cmocka_unit_test(test_killed_sweep_leaves_whole_file),
        cmocka_unit_test(test_broken_results_file_is_refused_and_kept),
        cmocka_unit_test(test_bad_definitions),
    };
    return cmocka_run_group_tests_name("sweep", tests, setup, teardown);
}
