/*
** value.h — Parquet values in the text forms of DESIGN.md.
**
** Dates, times and timestamps become ISO text (years outside 0000-9999
** signed, a fraction only when non-zero, with the fewest of 3, 6 or 9 digits
** that hold it); decimals their exact text; UUIDs canonical lower-case text;
** FLOAT16 a double. Each formatter writes into a caller buffer of at least
** PQ_TEXT_MAX bytes (decimals: see pq_decimal_text) and returns the length.
*/
#ifndef COLUMNAR_PARQUET_VALUE_H
#define COLUMNAR_PARQUET_VALUE_H

#include <stddef.h>
#include <stdint.h>

#define PQ_TEXT_MAX 64

/* Proleptic Gregorian civil date of a day count since 1970-01-01 (the
** days-from-civil inverse of Howard Hinnant's well-known algorithm). */
void pq_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

int pq_format_date(int64_t days, char *buf);
/* v counted in unit (PQ_UNIT_MILLIS/MICROS/NANOS) since the epoch. */
int pq_format_timestamp(int64_t v, int unit, char *buf);
/* The dates of recent day counts, direct-mapped: a column of timestamps
** spans a few weeks, and the calendar arithmetic per value was most of
** formatting them. Zero-initialize before use. */
typedef struct pq_date_memo {
  int64_t days[64];
  uint8_t used[64];
  char text[64][12];      /* "YYYY-MM-DD" (years 0..9999 only) */
} pq_date_memo;
/* pq_format_timestamp, taking the date part from memo when it has it. */
int pq_format_timestamp_memo(int64_t v, int unit, char *buf, pq_date_memo *memo);
/* v counted in unit since midnight. */
int pq_format_time(int64_t v, int unit, char *buf);
/* 12 bytes: nanoseconds of the day (LE int64) then the Julian day (LE int32). */
int pq_format_int96(const uint8_t *p, char *buf);
int pq_format_uuid(const uint8_t *p, char *buf);
double pq_float16_to_double(uint16_t h);

/* Exact decimal text of an unscaled integer with `scale` digits after the
** point. From an int64, or from n bytes of big-endian two's complement.
** buf must hold cap bytes; returns the length, or -1 when cap is too small
** (n*3+scale+4 always suffices). */
int pq_decimal_text_i64(int64_t v, int scale, char *buf, size_t cap);
int pq_decimal_text_be(const uint8_t *p, size_t n, int scale, char *buf,
                       size_t cap);

#endif
