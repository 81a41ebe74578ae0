/*
** column.h — one column chunk, read and decoded to physical values.
**
** pq_chunk_read reads a chunk's bytes with one pread, walks its pages
** (dictionary, data v1, data v2; index pages skipped), decompresses them,
** decodes repetition and definition levels and the values of every encoding,
** and leaves the result in physical form: levels, and either dictionary codes
** plus the dictionary or plain values. Turning those into SQLite values is
** convert.c's job (flat columns) or nested.c's (JSON); keeping this step
** physical lets a dictionary be converted once instead of once per row.
**
** Strings (cv_str) point into page buffers owned by the chunk, so a chunk
** lives as long as any vector made from it.
*/
#ifndef COLUMNAR_PARQUET_COLUMN_H
#define COLUMNAR_PARQUET_COLUMN_H

#include "parquet.h"
#include "schema_tree.h"
#include "codec.h"
#include "../arena.h"

/* A growable array of physical values of one type. */
typedef struct pq_values {
  int64_t n;                 /* values held */
  int64_t cap;               /* capacity in values */
  uint8_t *fixed;            /* fixed-width values, width bytes each */
  cv_str *str;               /* BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values */
  int borrowed;              /* fixed points into a page the chunk keeps
                             ** (pq_chunk_read), not a buffer of its own */
} pq_values;

typedef struct pq_chunk {
  int phys;                  /* physical type */
  int width;                 /* bytes per fixed value (bool 1); 0 for strings */
  int type_length;           /* FLBA width */
  int max_def, max_rep;      /* from the leaf */
  int64_t nlevels;           /* level entries decoded */
  int64_t cap_levels;
  uint8_t *def;              /* definition levels, NULL when max_def==0 */
  uint8_t *rep;              /* repetition levels, NULL when max_rep==0 */
  int64_t nvals;             /* non-null values decoded */
  int dict_mode;             /* 1: values are codes[] into dict */
  pq_values dict;            /* the dictionary page's values */
  uint32_t *codes;           /* dictionary codes, nvals of them */
  int64_t cap_codes;
  pq_values vals;            /* plain values when !dict_mode */
  col_pool *pool;            /* where the arrays and buffers come from
                             ** (pq_codec_pool of the reading context) */
  void **bufs;               /* page buffers strings point into (free) */
  int nbufs, cap_bufs;
  col_arena arena;           /* rebuilt strings (DELTA_BYTE_ARRAY, BSS) */
  int64_t pages;             /* data pages decoded */
  int64_t pages_skipped;     /* data pages skipped by the row mask */
  int64_t bytes_read;        /* bytes read from the file */
} pq_chunk;

/* Where a column chunk's bytes begin: its dictionary page when it has one
** before the data pages, else its first data page. */
static inline int64_t pq_chunk_start(const pq_column_meta *md){
  int64_t start = md->data_page_offset;
  if( md->has_dictionary_page_offset && md->dictionary_page_offset>0
   && md->dictionary_page_offset < start ) start = md->dictionary_page_offset;
  return start;
}

/* Read and decode column chunk cc of a row group with rg_rows rows.
** `where` names the chunk in error messages ("f.parquet: row group 2,
** column x"). When rowmask is not NULL (non-repeated leaves only), a data
** page none of whose rows is marked is not decompressed or decoded: its
** rows get placeholder values that the caller promises never to read (they
** are outside the scan's selection). cc's fault record (pq_file_view)
** is updated. */
int pq_chunk_read(pq_file *f, pq_column_chunk *cc,
                  const pq_leaf_desc *leaf, int64_t rg_rows,
                  pq_codec_ctx *codec, const char *where,
                  const uint8_t *rowmask, pq_chunk *out, col_error *err);
void pq_chunk_free(pq_chunk *c);

/* Read only the dictionary page of chunk cc into out->dict (out->dict.n is
** 0 and COL_OK returned when the chunk has none). For dictionary pruning. */
int pq_chunk_read_dictionary(pq_file *f, const pq_column_chunk *cc,
                             const pq_leaf_desc *leaf, pq_codec_ctx *codec,
                             pq_chunk *out, col_error *err);

#endif
