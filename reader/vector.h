/*
** vector.h — column vectors and batches, the unit every reader produces.
**
** A reader hands SQLite-facing code a col_batch: a row count and one
** col_vector per emitted column. Values are already in SQLite's storage
** classes (INTEGER, REAL, TEXT, BLOB, NULL): the value mapping of DESIGN.md
** (dates as ISO text, nested data as JSON, ...) happens inside the reader,
** so everything above it, predicate evaluation and group_by included, sees
** exactly the values SQLite would see.
**
** A vector comes in three forms (seed 003 explains why all three matter):
**   CV_FLAT   values[i] for row i
**   CV_DICT   dict->values[codes[i]] for row i (dict is itself FLAT)
**   CV_CONST  values[0] for every row
** Null-ness and, for columns whose rows differ in storage class (a UINT64
** above INT64_MAX is REAL, a CSV field kept as TEXT by on_error=text), the
** storage class of each row live in `tags`. tags==NULL means no row is null
** and every row has storage class `type`. For CV_DICT, tags is per row (the
** outer level); a reader's dictionary never holds a NULL entry (those of
** entries computed by agg/expr_eval.c may, and entries no live row names
** there may be unset: agg/expr_eval.c, EX_TAG_UNSET). For
** CV_CONST, tags (when present) has one entry.
**
** Memory: a vector never owns what it points at. The batch (or the reader
** behind it) does, and everything stays valid until the next call to the
** source's next() or close().
*/
#ifndef COLUMNAR_VECTOR_H
#define COLUMNAR_VECTOR_H

#include <stddef.h>
#include <stdint.h>

/* Storage classes. Deliberately not SQLITE_* (reader/ never sees sqlite3.h). */
enum { CV_NULL = 0, CV_INT = 1, CV_REAL = 2, CV_TEXT = 3, CV_BLOB = 4 };

/* Vector forms. */
enum { CV_FLAT = 0, CV_DICT = 1, CV_CONST = 2 };

/* A run of bytes: TEXT (UTF-8, not NUL-terminated) or BLOB. */
typedef struct cv_str {
  const char *p;          /* first byte; may be NULL when n==0 */
  uint32_t n;             /* length in bytes */
} cv_str;

typedef struct col_vector col_vector;
struct col_vector {
  uint8_t type;           /* storage class of non-null rows when tags==NULL or
                          ** the column's usual class when tags mixes classes */
  uint8_t form;           /* CV_FLAT, CV_DICT or CV_CONST */
  uint32_t n;             /* rows in this vector */
  const uint8_t *tags;    /* per-row storage class (CV_NULL..CV_BLOB), or NULL */
  const int64_t *i64;     /* CV_INT values (FLAT: n; CONST: 1) */
  const double *f64;      /* CV_REAL values */
  const cv_str *str;      /* CV_TEXT / CV_BLOB values */
  const uint32_t *codes;  /* CV_DICT: per-row index into dict */
  const col_vector *dict; /* CV_DICT: flat vector of distinct values */
  uint64_t dict_id;       /* CV_DICT: nonzero when it names the dictionary
                          ** for a dataset's life (a Parquet column chunk's:
                          ** every batch of one row group shares it), so a
                          ** consumer may keep per-entry results across
                          ** batches; 0 when unknown. Entries may be
                          ** appended between batches (never changed): a
                          ** consumer extends its results when dict->n grows */
};

/* A batch of rows. sel (when not NULL) lists the nsel rows, ascending, that
** survived the pushed predicate; the vectors still hold all n rows, which is
** what lets a reader filter on one column and materialize the others lazily.
** With sel==NULL every row 0..n-1 is live and nsel==n. */
typedef struct col_batch {
  uint32_t n;             /* rows in each vector */
  uint32_t nsel;          /* live rows */
  const uint32_t *sel;    /* live row indexes, or NULL for all */
  int ncols;              /* == the scan's projection length */
  col_vector *cols;       /* one per projected column, in projection order */
  int64_t first_row;      /* position of row 0 in the dataset (file order,
                          ** every file counted), the same in every scan:
                          ** the virtual tables' rowid */
  const uint8_t *pending; /* from a source with fill() (scan.h), NULL or
                          ** a flag per column: 1 while the column
                          ** (scan_spec.lazy) is not decoded, its vector
                          ** all NULLs until fill() is called; not read
                          ** from other sources */
} col_batch;

/* The storage class of every row of v, or -1 when rows may differ (tags,
** here or in its dictionary). */
static inline int cv_class(const col_vector *v){
  if( v->tags ) return -1;
  if( v->form==CV_DICT ) return v->dict->tags ? -1 : v->dict->type;
  return v->type;
}

/* Storage class of row i (resolving form and tags). */
static inline int cv_tag(const col_vector *v, uint32_t i){
  uint32_t r = v->form==CV_CONST ? 0 : i;
  if( v->tags ) return v->tags[r];
  if( v->form==CV_DICT ){
    const col_vector *d = v->dict;
    return d->tags ? d->tags[v->codes[i]] : d->type;
  }
  return v->type;
}
/* Index into the value arrays for row i: the row itself, 0 for CONST, the
** dictionary code for DICT (then read the arrays of v->dict). */
static inline uint32_t cv_slot(const col_vector *v, uint32_t i){
  return v->form==CV_FLAT ? i : v->form==CV_CONST ? 0 : v->codes[i];
}
/* The vector whose arrays cv_slot() indexes. */
static inline const col_vector *cv_values(const col_vector *v){
  return v->form==CV_DICT ? v->dict : v;
}
static inline int64_t cv_int(const col_vector *v, uint32_t i){
  return cv_values(v)->i64[cv_slot(v, i)];
}
static inline double cv_real(const col_vector *v, uint32_t i){
  return cv_values(v)->f64[cv_slot(v, i)];
}
static inline cv_str cv_bytes(const col_vector *v, uint32_t i){
  return cv_values(v)->str[cv_slot(v, i)];
}

/* s[k] = k for every k in [from, n): a selection of every row, from a
** prefix already there. Four stores a step, which the compiler makes one:
** a store a row was a twentieth of a filtered count(DISTINCT UserID). */
static inline void cv_iota(uint32_t *s, uint32_t from, uint32_t n){
  uint32_t i = from;
  for(; n>=4 && i<=n-4; i+=4){ s[i] = i; s[i+1] = i+1; s[i+2] = i+2; s[i+3] = i+3; }
  for(; i<n; i++) s[i] = i;
}

#endif /* COLUMNAR_VECTOR_H */
