/* A growable byte buffer with little-endian writers, and a bounds-checked
 * reader.  Writers return false when out of memory; readers return false
 * when the bytes run out, so a decoder never reads past its input. */
#ifndef ANIMBENCH_BYTES_H
#define ANIMBENCH_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct byte_buffer {
    uint8_t *data;
    size_t size, capacity;
    bool failed; /* sticky: set by the first allocation failure */
} byte_buffer;

void bytes_init(byte_buffer *b);
void bytes_free(byte_buffer *b);
bool bytes_reserve(byte_buffer *b, size_t extra);
bool bytes_append(byte_buffer *b, const void *src, size_t n);
bool bytes_zeros(byte_buffer *b, size_t n);
bool bytes_u8(byte_buffer *b, uint8_t v);
bool bytes_u16(byte_buffer *b, uint16_t v);
bool bytes_u32(byte_buffer *b, uint32_t v);
/* The double rounded to float32 (to nearest, ties to even), as Buffer.writeFloatLE. */
bool bytes_f32(byte_buffer *b, double v);
bool bytes_f64(byte_buffer *b, double v);

typedef struct byte_reader {
    const uint8_t *data;
    size_t size, pos;
} byte_reader;

bool read_u8(byte_reader *r, uint8_t *v);
bool read_u16(byte_reader *r, uint16_t *v);
bool read_u32(byte_reader *r, uint32_t *v);
bool read_f32(byte_reader *r, float *v);
bool read_f64(byte_reader *r, double *v);
bool read_skip(byte_reader *r, size_t n);

void store_u16(uint8_t *p, uint16_t v);
void store_u32(uint8_t *p, uint32_t v);
uint16_t load_u16(const uint8_t *p);
uint32_t load_u32(const uint8_t *p);
float load_f32(const uint8_t *p);

/* FNV-1a, 64 bits: a stream's fingerprint in reports and determinism checks. */
uint64_t bytes_fnv1a64(const void *data, size_t n);

#endif
