/* libFuzzer target for the BVH parser: any bytes must give a clip or an
 * error message, never a crash or a read out of bounds (AddressSanitizer and
 * UndefinedBehaviorSanitizer watch).  `make fuzz` runs it for FUZZ_SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../generators/bvh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bvh_options o = {0.01};
    bvh_result r;
    char err[512];
    if (bvh_parse((const char *)data, size, "fuzz", &o, &r, err, sizeof err) == 0) {
        /* a parsed clip must be whole: touch every sample */
        double sum = 0;
        const size_t n = (size_t)r.rig->bone_count * (size_t)r.clip->frame_count;
        for (size_t i = 0; i < n * 3; i++)
            sum += r.clip->pos[i];
        for (size_t i = 0; i < n * 4; i++)
            sum += r.clip->rot[i];
        bvh_result_free(&r);
        return sum == 12345.0;
    }
    return strlen(err) == 0; /* an error always says something */
}
