#include "harness/measure/provenance.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "codecs/acl/acl_codec.h"
#include "codecs/ozz/ozz_codec.h"
#include "core/gzip_size.h"
#include "build_info.h"

#ifndef __OPTIMIZE__
#define BUILT_OPTIMISED false
#else
#define BUILT_OPTIMISED true
#endif

static void read_cpu_model(char *out, size_t n)
{
    snprintf(out, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon) {
                snprintf(out, n, "%s", colon + 2);
                out[strcspn(out, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
}

static pthread_once_t machine_once = PTHREAD_ONCE_INIT;
static char machine_cpu[128], machine_os[200];
static int machine_cores;

static void read_machine(void)
{
    read_cpu_model(machine_cpu, sizeof machine_cpu);
    machine_cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(machine_os, sizeof machine_os, "%.60s %.60s %.60s", u.sysname, u.release, u.machine);
}

void provenance_collect(provenance *p)
{
    memset(p, 0, sizeof *p);
    p->version = ANIMBENCH_VERSION;
    p->git_commit = ANIMBENCH_GIT_COMMIT;
    p->source_hash = ANIMBENCH_SOURCE_HASH;
    p->cflags = ANIMBENCH_CFLAGS;
#ifdef __clang__
    p->compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    p->compiler = "gcc " __VERSION__;
#else
    p->compiler = "unknown";
#endif
    /* every measured point records its provenance: the machine is read once */
    pthread_once(&machine_once, read_machine);
    memcpy(p->cpu_model, machine_cpu, sizeof p->cpu_model);
    memcpy(p->os, machine_os, sizeof p->os);
    p->cores = machine_cores;
    p->zlib_version = gzip_zlib_version();
    p->acl_library = acl_codec_library();
    p->ozz_library = ozz_codec_library();
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    p->optimised = BUILT_OPTIMISED;
}

const char *provenance_code_version(void)
{
    return ANIMBENCH_SOURCE_HASH;
}

const char *provenance_measure_version(void)
{
    return ANIMBENCH_MEASURE_HASH;
}

static const source_hash BUILD_FILES[] = {ANIMBENCH_CODEC_FILES};

int provenance_codec_files(const source_hash **files)
{
    *files = BUILD_FILES;
    return (int)(sizeof BUILD_FILES / sizeof BUILD_FILES[0]);
}

static uint64_t fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (h ^ 0xff) * 1099511628211ull; /* a separator: "ab"+"c" differs from "a"+"bc" */
}

int codec_cache_version(const codec *c, const source_hash *files, int file_count, char out[17])
{
    if (!files) {
        files = BUILD_FILES;
        file_count = (int)(sizeof BUILD_FILES / sizeof BUILD_FILES[0]);
    }
    char version[16];
    snprintf(version, sizeof version, "%d", c->version);
    uint64_t h = fnv(fnv(14695981039346656037ull, c->name), version);
    int missing = 0;
    const char *p = c->sources ? c->sources : "";
    while (*p) {
        while (*p == ' ')
            p++;
        const size_t len = strcspn(p, " ");
        if (len == 0)
            break;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        p += len;
        const char *hash = NULL;
        for (int i = 0; i < file_count && !hash; i++)
            if (strcmp(files[i].file, name) == 0)
                hash = files[i].hash;
        missing += !hash;
        h = fnv(fnv(h, name), hash ? hash : "missing");
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return missing;
}
