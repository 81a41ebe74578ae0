/*
** input.h — a CSV byte stream: a file read in large blocks, gzip or zstd
** decompressed on the fly (detected by magic bytes), or inline data.
**
** Memory is bounded by the caller's buffer plus the decompressor's window:
** nothing here ever holds a whole file.
*/
#ifndef COLUMNAR_CSV_INPUT_H
#define COLUMNAR_CSV_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"

typedef struct csv_input csv_input;

enum { CSV_RAW = 0, CSV_GZIP = 1, CSV_ZSTD = 2 };

/* Open path (or, with path==NULL, the bytes data[0..n), not copied: they
** must outlive the input). name is what error messages call it. */
int csv_input_open(const char *path, const char *data, size_t n,
                   csv_input **out, col_error *err);
/* Read up to cap decompressed bytes into buf: >0 bytes, 0 at end, -1 on
** error (message in err, naming the file). */
long csv_input_read(csv_input *in, char *buf, size_t cap, col_error *err);
/* CSV_RAW, CSV_GZIP or CSV_ZSTD. */
int csv_input_codec(const csv_input *in);
/* Size of the underlying file or data in bytes. */
int64_t csv_input_size(const csv_input *in);
/* Bytes read from the file so far (compressed bytes for gzip/zstd). */
int64_t csv_input_bytes_read(const csv_input *in);
/* The file descriptor of a raw file (for pread by parallel workers), or -1. */
int csv_input_fd(const csv_input *in);
void csv_input_close(csv_input *in);

#endif
