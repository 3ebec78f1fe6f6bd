#include "text_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *read_whole_file(const char *path, size_t *size, int *error_number)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *error_number = errno;
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        const size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *bigger = cap < ((size_t)1 << 32) ? realloc(text, cap * 2) : NULL;
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    const int failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        *error_number = text ? EIO : ENOMEM;
        return NULL;
    }
    text[len] = '\0';
    *size = len;
    return text;
}
