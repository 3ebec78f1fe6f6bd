#include "core/bytes.h"

#include <stdlib.h>
#include <string.h>

void bytes_init(byte_buffer *b)
{
    memset(b, 0, sizeof *b);
}

void bytes_free(byte_buffer *b)
{
    free(b->data);
    bytes_init(b);
}

bool bytes_reserve(byte_buffer *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->size + extra <= b->capacity)
        return true;
    size_t cap = b->capacity ? b->capacity : 256;
    while (cap < b->size + extra)
        cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->capacity = cap;
    return true;
}

bool bytes_append(byte_buffer *b, const void *src, size_t n)
{
    if (!bytes_reserve(b, n))
        return false;
    if (n)
        memcpy(b->data + b->size, src, n);
    b->size += n;
    return true;
}

bool bytes_zeros(byte_buffer *b, size_t n)
{
    if (!bytes_reserve(b, n))
        return false;
    memset(b->data + b->size, 0, n);
    b->size += n;
    return true;
}

void store_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void store_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint16_t load_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

float load_f32(const uint8_t *p)
{
    const uint32_t u = load_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

bool bytes_u8(byte_buffer *b, uint8_t v)
{
    return bytes_append(b, &v, 1);
}

bool bytes_u16(byte_buffer *b, uint16_t v)
{
    uint8_t p[2];
    store_u16(p, v);
    return bytes_append(b, p, 2);
}

bool bytes_u32(byte_buffer *b, uint32_t v)
{
    uint8_t p[4];
    store_u32(p, v);
    return bytes_append(b, p, 4);
}

bool bytes_f32(byte_buffer *b, double v)
{
    const float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return bytes_u32(b, u);
}

bool bytes_f64(byte_buffer *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return bytes_u32(b, (uint32_t)u) && bytes_u32(b, (uint32_t)(u >> 32));
}

static bool take(byte_reader *r, size_t n, const uint8_t **p)
{
    if (r->size - r->pos < n)
        return false;
    *p = r->data + r->pos;
    r->pos += n;
    return true;
}

bool read_u8(byte_reader *r, uint8_t *v)
{
    const uint8_t *p;
    if (!take(r, 1, &p))
        return false;
    *v = p[0];
    return true;
}

bool read_u16(byte_reader *r, uint16_t *v)
{
    const uint8_t *p;
    if (!take(r, 2, &p))
        return false;
    *v = load_u16(p);
    return true;
}

bool read_u32(byte_reader *r, uint32_t *v)
{
    const uint8_t *p;
    if (!take(r, 4, &p))
        return false;
    *v = load_u32(p);
    return true;
}

bool read_f32(byte_reader *r, float *v)
{
    const uint8_t *p;
    if (!take(r, 4, &p))
        return false;
    *v = load_f32(p);
    return true;
}

bool read_f64(byte_reader *r, double *v)
{
    const uint8_t *p;
    if (!take(r, 8, &p))
        return false;
    const uint64_t u = (uint64_t)load_u32(p) | ((uint64_t)load_u32(p + 4) << 32);
    memcpy(v, &u, sizeof *v);
    return true;
}

bool read_skip(byte_reader *r, size_t n)
{
    const uint8_t *p;
    return take(r, n, &p);
}

uint64_t bytes_fnv1a64(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
