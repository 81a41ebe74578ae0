/*
** radix.h — rows of a group by held back in hash partitions, to be
** aggregated one partition at a time (agg/groupby.c, radix lanes).
**
** With millions of groups, every row group_by streams into its table is a
** cache miss into tens of megabytes of buckets, keys and states. A lane
** that has seen that many groups instead appends each row's values to the
** buffer of the partition its hash names (sequential writes); at the end
** one thread per partition aggregates every lane's buffer of it, in lane
** order, into a table small enough for L2, and no lane's table is probed
** again by a fold (bench/radix_probe.c measured the idea first).
**
** Each row is its dataset row, as a 16-bit (or 32-bit) step from the row
** before it in its chunk (rows of a chunk ascend), then each value in the
** form its chunk keeps that value in (agg_radix_chunk.fmt): an INTEGER that
** fits 32 bits in 4 bytes, other INTEGERs or REALs in 8, and where a
** chunk's rows mix classes (or hold NULL, TEXT or BLOB) a class byte and 8:
** for TEXT and BLOB the offset and length of its bytes, copied to the
** chunk's text area after its rows. Text is held only while it is short
** (agg_radix_fits): GROUP BY UserID, SearchPhrase holds 3 bytes of text a
** row, where URL's 54 would cost more to copy than the probes they spare.
** Every byte held is a fresh page's byte, and fresh pages are what a radix
** lane spends most on (faulted in and zeroed; on the VM measured, around
** 1 GB/s): GROUP BY ClientIP's rows take 6 bytes, not 13.
*/
#ifndef COLUMNAR_AGG_RADIX_H
#define COLUMNAR_AGG_RADIX_H

#include <stdint.h>
#include "../reader/vector.h"
#include "bigmem.h"

/* Chunks are cut from slabs this large: one mapping, in huge pages where
** the kernel gives them, instead of a page fault per 4 KiB of rows (GROUP
** BY UserID held 130 MB, and its faults were an eighth of the time); a
** connection's pool (agg/slab_pool.h) keeps them for its next query.
** With the block's header, one fills 4 MiB of mapping: a byte more would
** take a whole 2 MiB unit more (agg/bigmem.c). */
#define AGG_RADIX_SLAB (((size_t)4 << 20) - AGG_MEM_HEADER)

#define AGG_RADIX_CHUNK_MAX 4096   /* rows of the largest chunk, and so of
                                   ** one agg_radix_cols */

/* A value's form in a chunk (2 bits each in agg_radix_chunk.fmt, values
** past the first AGG_RADIX_FMT_VALS always AGG_RADIX_FULL). */
#define AGG_RADIX_FULL 0        /* class byte, then 8 bytes */
#define AGG_RADIX_I32 1         /* INTEGER, 4 bytes */
#define AGG_RADIX_I64 2         /* INTEGER, 8 bytes */
#define AGG_RADIX_F64 3         /* REAL, 8 bytes */
#define AGG_RADIX_FMT_VALS 32

typedef struct agg_radix_chunk {
  struct agg_radix_chunk *next;
  int64_t base;           /* dataset row of its first row */
  int64_t last;           /* dataset row of its last row */
  uint64_t fmt;           /* each value's form, 2 bits a value */
  uint32_t n, cap;        /* rows held, rows it has room for */
  uint32_t width;         /* bytes per row */
  uint32_t step_bytes;    /* 2, or 4 in a partition whose rows lie far
                          ** apart: bytes of each row's step */
  uint32_t text_used, text_cap; /* bytes of the text area, after the rows */
  unsigned char data[];   /* cap rows of width bytes, then the text area */
} agg_radix_chunk;

/* Text bytes a held row may bring on average (agg_radix_fits), and the
** room a chunk's text area has per row. */
#define AGG_RADIX_TEXT_ROW 16

#define AGG_RADIX_HLL 64        /* registers of a partition's distinct-key sketch */

typedef struct agg_radix_part {
  agg_radix_chunk *head, *tail;
  uint8_t hll[AGG_RADIX_HLL]; /* HyperLogLog registers over its rows' hashes */
  uint64_t rows;          /* rows held */
} agg_radix_part;

typedef struct agg_radix {
  int nvec;               /* values per row */
  int nparts;
  agg_radix_part *parts;  /* nparts of them */
  unsigned char *slab;    /* chunks are cut from slabs (agg/bigmem.h blocks,
                          ** each starting with a pointer to the one before) */
  size_t slab_used, slab_len;
  uint64_t slab_bytes;    /* all slabs, by size */
  uint64_t rows, text;    /* rows held, and their bytes of text */
  uint64_t *vtext;        /* per partition, per value: bytes of text held
                          ** (nparts*nvec), or NULL before the first */
  struct agg_slab_pool *pool; /* where slabs of AGG_RADIX_SLAB come from and
                          ** go back to, or NULL */
} agg_radix;

/* The columns of one chunk, as flat vectors (agg_radix_unpack). */
typedef struct agg_radix_cols {
  uint32_t n;
  uint64_t *row;          /* each row's dataset row */
  col_vector *v;          /* nvec vectors of n rows */
  uint8_t *tags;          /* scratch behind v: nvec*CHUNK_MAX each */
  int64_t *i64;
  double *f64;
  cv_str *str;            /* TEXT and BLOB values, into the chunk */
} agg_radix_cols;

/* pool (may be NULL) lends and takes back the slabs. */
int agg_radix_init(agg_radix *r, int nparts, int nvec, struct agg_slab_pool *pool);
void agg_radix_free(agg_radix *r);
/* Forget partition part's chunks (each partition's may be forgotten by a
** thread of its own); their memory stays until agg_radix_free. */
void agg_radix_free_part(agg_radix *r, int part);
/* Bytes held, by capacity. */
uint64_t agg_radix_memory(const agg_radix *r);
/* Rows held in partition part? */
static inline int agg_radix_has(const agg_radix *r, int part){
  return r->parts && r->parts[part].head!=0;
}

/* Bytes of the TEXT and BLOB values of rows rows[0..n) (rows NULL: 0..n-1)
** of these vectors; *any (when not NULL) set to 1 if there was one, empty
** or not. A lane holds rows while all it held, these included, average no
** more than AGG_RADIX_TEXT_ROW bytes of text a row (agg_radix_fits). */
uint64_t agg_radix_text(const col_vector *const *v, int nvec, const uint32_t *rows, uint32_t n,
                        int *any);
/* Can r take n more rows bringing `text` bytes of text? */
static inline int agg_radix_fits(const agg_radix *r, uint64_t n, uint64_t text){
  return r->text + text <= (r->rows + n) * AGG_RADIX_TEXT_ROW;
}

/* Append rows rows[0..n) of vectors v (dataset row first_row + rows[k])
** to partition part. 0, or -1 when out of memory. */
int agg_radix_append(agg_radix *r, int part, const col_vector *const *v,
                     const uint32_t *rows, uint32_t n, int64_t first_row);
/* Count into the distinct-key sketches the keys' hashes of a batch's rows
** k < n, row sel[k] (sel NULL: k) with hash hashes[sel[k]], held in
** partition part[k] (part NULL: 0). One pass in the batch's order, apart
** from agg_radix_append's per partition: its loads of the hashes were a
** cache line each. */
void agg_radix_sketch(agg_radix *r, const uint64_t *hashes, const uint32_t *sel,
                      const uint8_t *part, uint32_t n);

/* About how many distinct keys partition part holds over the n sets rs
** (HyperLogLog over 64 registers, within some 15%): what the table that
** takes them all is sized for, instead of doubling its way there. */
double agg_radix_distinct(const agg_radix *const *rs, int n, int part);
/* Rows held in partition part, and bytes of text of value x among them. */
static inline uint64_t agg_radix_rows(const agg_radix *r, int part){
  return r->parts ? r->parts[part].rows : 0;
}
static inline uint64_t agg_radix_vtext(const agg_radix *r, int part, int x){
  return r->vtext ? r->vtext[(size_t)part*(size_t)r->nvec + (size_t)x] : 0;
}

int agg_radix_cols_init(agg_radix_cols *c, int nvec);
void agg_radix_cols_free(agg_radix_cols *c);
/* Chunk ch's rows into c (TEXT and BLOB values pointing into ch). */
void agg_radix_unpack(const agg_radix *r, const agg_radix_chunk *ch, agg_radix_cols *c);

#endif
