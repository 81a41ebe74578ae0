/*
** types.h — CSV value types: parsing a field as each type, and the
** sniffing lattice that picks a column's type from sample values.
*/
#ifndef COLUMNAR_CSV_TYPES_H
#define COLUMNAR_CSV_TYPES_H

#include <stdint.h>

/* Column kinds, in sniffing preference order (lowest viable wins). */
enum { CSV_T_BOOL = 0, CSV_T_INT, CSV_T_REAL, CSV_T_TIME, CSV_T_DATE,
       CSV_T_TS, CSV_T_TEXT, CSV_T_COUNT };
#define CSV_T_ALL ((1u<<CSV_T_COUNT)-1)

/* Longest normalized TIME/DATE/TIMESTAMP text ("YYYY-MM-DD HH:MM:SS.fffffffff"). */
#define CSV_TS_MAX 32

/* Each returns 1 when p[0..n) is a value of the type (storing it), else 0. */
int csv_parse_bool(const char *p, uint32_t n, int64_t *out);
int csv_parse_int(const char *p, uint32_t n, int64_t *out);
/* 1: *out set; 2: NaN (SQLite has no NaN: the caller stores NULL); 0: no. */
int csv_parse_real(const char *p, uint32_t n, double *out);
/* TIME, DATE, TIMESTAMP: out gets the normalized ISO text (DESIGN.md: a
** fraction only when non-zero, 3, 6 or 9 digits), *outn its length. A
** timestamp also accepts a plain date (midnight) and a 'T' separator. */
int csv_parse_time(const char *p, uint32_t n, char *out, uint32_t *outn);
int csv_parse_date(const char *p, uint32_t n, char *out, uint32_t *outn);
int csv_parse_ts(const char *p, uint32_t n, char *out, uint32_t *outn);

/* INT and REAL bits of a mask. */
#define CSV_T_NUMERIC ((1u<<CSV_T_INT)|(1u<<CSV_T_REAL))
/* Does p[0..n) look like a number with a leading zero ("007", "-01.5")? */
int csv_leading_zero(const char *p, uint32_t n);

/* Clear from mask the types that p[0..n) is not a value of. */
unsigned csv_type_narrow(unsigned mask, const char *p, uint32_t n);
/* The preferred type in a viable mask (TEXT when none). */
int csv_type_pick(unsigned mask);
/* "INTEGER", "REAL", "TEXT": the SQL declared type of a kind. */
const char *csv_type_decl(int kind);
/* User spelling (INTEGER, INT, BIGINT, REAL, DOUBLE, FLOAT, TEXT, VARCHAR,
** BOOLEAN, DATE, TIME, TIMESTAMP, case-insensitive) to a kind, -1 if none. */
int csv_type_from_name(const char *p, uint32_t n);
/* "INTEGER" etc. as used in error messages ("'abc' is not a REAL"). */
const char *csv_type_name(int kind);

#endif
