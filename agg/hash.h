/*
** hash.h — column-at-a-time hashing of group keys (seed 003, `hash`/`fold`).
**
** A batch's key vectors are hashed one column at a time into one word per
** row before any row is probed. The invariant everything rests on: two
** values SQLite's GROUP BY puts in one group hash to one word, whatever form
** (FLAT, DICT, CONST) the vector arrived in. So INTEGER 1 and REAL 1.0 (and
** -0.0 and 0.0) give the same word, a NULL gives a word of its own (not the
** word of zero), TEXT and BLOB hash their bytes. Column order is part of the
** key: fold() is not commutative.
**
**   agg_hasher hs; agg_hasher_init(&hs);
**   agg_hash_keys(&hs, keys, nkeys, sel, nsel, hashes);  // hashes[row]
**   agg_hasher_free(&hs);
*/
#ifndef COLUMNAR_AGG_HASH_H
#define COLUMNAR_AGG_HASH_H

#include <stdint.h>
#include "../reader/vector.h"

/* Scratch kept between batches so hashing a dictionary does not allocate. */
typedef struct agg_hasher {
  uint64_t *dict_words;   /* one word per dictionary entry (malloc'd) */
  uint32_t dict_cap;      /* capacity of dict_words and dict_done */
  uint8_t *dict_done;     /* per entry: word computed */
  uint64_t dict_id;       /* the named dictionary (col_vector.dict_id) the
                          ** words are kept for across batches, 0 none */
  uint32_t dict_n;        /* entries of it dict_done describes */
} agg_hasher;

void agg_hasher_init(agg_hasher *hs);
void agg_hasher_free(agg_hasher *hs);

/* The word one value contributes (tag is CV_NULL..CV_BLOB). */
uint64_t agg_hash_word(int tag, int64_t i, double f, const char *p, uint32_t n);

/* Hash rows sel[0..nsel) (all rows 0..nsel-1 when sel==NULL) of the nkeys
** key vectors into hashes[row]; hashes must hold the batch's n rows.
** Returns 0, or -1 when out of memory (then hashes is unspecified). */
int agg_hash_keys(agg_hasher *hs, const col_vector *const *keys, int nkeys,
                  const uint32_t *sel, uint32_t nsel, uint64_t *hashes);

#endif
