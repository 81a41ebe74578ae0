/*
** encoding.h — Parquet value and level encodings, as pure buffer decoders.
**
** Each decoder validates its input against the buffer it was given, once at
** the boundary of a block/run, and then runs a loop without checks. They know
** nothing of pages, schemas or SQLite. All return COL_OK or COL_ERROR (with
** a message saying what was malformed and at which byte offset of buf), never
** read outside [buf, buf+len), never write outside what the caller sized.
**
**   rle.c                RLE / bit-packed hybrid (levels, dictionary indexes,
**                        booleans), deprecated BIT_PACKED (levels)
**   plain.c              PLAIN for every physical type
**   delta.c              DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
**                        DELTA_BYTE_ARRAY
**   byte_stream_split.c  BYTE_STREAM_SPLIT for every width
*/
#ifndef COLUMNAR_PARQUET_ENCODING_H
#define COLUMNAR_PARQUET_ENCODING_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"
#include "../vector.h"
#include "../arena.h"

/* ---- rle.c -------------------------------------------------------------- */

/* RLE/bit-packed hybrid with bit width bw (0..32), no length prefix: decode
** exactly n values into out. A stream that ends early is an error (but a
** final bit-packed group may be padded: values past n are ignored). With
** bw==0 every value is 0. *consumed (may be NULL) gets the bytes used. */
int pq_rle_decode(const uint8_t *buf, size_t len, int bw, uint32_t *out,
                  size_t n, size_t *consumed, col_error *err);

/* Same for booleans/levels narrower than a byte into uint8_t (bw<=8). */
int pq_rle_decode_u8(const uint8_t *buf, size_t len, int bw, uint8_t *out,
                     size_t n, size_t *consumed, col_error *err);

/* The largest of n levels, and in *at_max how many equal m (the non-null
** values of a definition level stream whose maximum is m). */
uint8_t pq_levels_scan(const uint8_t *lv, int64_t n, uint8_t m, int64_t *at_max);

/* Deprecated BIT_PACKED encoding (levels only): n values of bw bits packed
** MSB first, (n*bw+7)/8 bytes. */
int pq_bitpacked_msb_decode(const uint8_t *buf, size_t len, int bw,
                            uint8_t *out, size_t n, col_error *err);

/* Dictionary indexes of a data page: one byte of bit width then the hybrid
** stream. Every index is checked < dict_size. */
int pq_dict_indexes_decode(const uint8_t *buf, size_t len, uint32_t *out,
                           size_t n, uint32_t dict_size, col_error *err);

/* ---- plain.c ------------------------------------------------------------ */

/* PLAIN fixed-width values: copies n*width bytes (little-endian on disk, and
** we only build for little-endian hosts). *consumed gets n*width. */
int pq_plain_fixed_decode(const uint8_t *buf, size_t len, size_t width,
                          void *out, size_t n, size_t *consumed,
                          col_error *err);
/* PLAIN BOOLEAN: n bits, LSB first, into bytes 0/1. */
int pq_plain_bool_decode(const uint8_t *buf, size_t len, uint8_t *out,
                         size_t n, size_t *consumed, col_error *err);
/* PLAIN BYTE_ARRAY: n (u32 length, bytes) pairs; out[i] points into buf. */
int pq_plain_byte_array_decode(const uint8_t *buf, size_t len, cv_str *out,
                               size_t n, size_t *consumed, col_error *err);
/* PLAIN FIXED_LEN_BYTE_ARRAY of width w; out[i] points into buf. */
int pq_plain_flba_decode(const uint8_t *buf, size_t len, uint32_t w,
                         cv_str *out, size_t n, size_t *consumed,
                         col_error *err);

/* ---- delta.c ------------------------------------------------------------ */

/* DELTA_BINARY_PACKED into int64 (for INT32 columns the caller narrows; the
** arithmetic wraps as the spec says). Exactly n values are produced; the
** header's total count must be >= n. */
int pq_delta_binary_decode(const uint8_t *buf, size_t len, int64_t *out,
                           size_t n, size_t *consumed, col_error *err);
/* DELTA_LENGTH_BYTE_ARRAY: lengths (delta-binary) then the bytes; out[i]
** points into buf. */
int pq_delta_length_decode(const uint8_t *buf, size_t len, cv_str *out,
                           size_t n, size_t *consumed, col_error *err);
/* DELTA_BYTE_ARRAY: prefix lengths, suffixes (delta-length); the rebuilt
** values are written into arena. */
int pq_delta_byte_array_decode(const uint8_t *buf, size_t len, cv_str *out,
                               size_t n, col_arena *arena, col_error *err);

/* ---- byte_stream_split.c ------------------------------------------------ */

/* BYTE_STREAM_SPLIT with element width w (2, 4, 8 or any FLBA width): n
** values from w streams of n bytes each into out (n*w bytes). len must be
** exactly... at least n*w. */
int pq_byte_stream_split_decode(const uint8_t *buf, size_t len, size_t w,
                                uint8_t *out, size_t n, col_error *err);

#endif
