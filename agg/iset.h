/*
** iset.h — the set of (group, INTEGER value) pairs behind count(DISTINCT x)
** and the other DISTINCT aggregates while every value is an INTEGER.
**
** Open addressing with the pairs in the buckets themselves, so a probe
** costs one cache line; probed linearly from a home that is the top bits
** of the pair's hash, kept at most half full, doubled in place
** (agg/double.h). Groups are stored plus one: g==0 marks an empty bucket.
** Used by aggregate.c, and by distinct_split.c for the half of a set that
** a thread of its own holds. Also the step every DISTINCT takes before its
** set over a dictionary vector: one row per (group, entry) pair.
*/
#ifndef COLUMNAR_AGG_ISET_H
#define COLUMNAR_AGG_ISET_H

#include <stdint.h>

typedef struct agg_ipair {
  int64_t v;
  uint32_t g;             /* group + 1; 0: an empty bucket */
  uint32_t seq;           /* pairs the set held when this one came: their
                          ** order of arrival, which a group_concat's
                          ** text follows (agg_iset_feed) */
} agg_ipair;

typedef struct agg_iset {
  agg_ipair *b;           /* nbucket buckets (agg/bigmem.h block) */
  uint32_t nbucket;       /* a power of two, or 0 before the first use */
  uint32_t n;             /* pairs held */
} agg_iset;

static inline uint64_t agg_ipair_hash(uint32_t g1, int64_t v){
  uint64_t h = (uint64_t)v ^ ((uint64_t)g1 * 0x9e3779b97f4a7c15ull);
  h ^= h >> 32; h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32; h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  return h;
}

static inline uint32_t agg_iset_shift(uint32_t nbucket){
  return 32 - (uint32_t)__builtin_ctz(nbucket);
}

/* Insert (g1, v), whose hash is h, as arrival seq, unless present; 1 if
** it was new. The caller has grown the set for it (agg_iset_grow). */
static inline int agg_iset_add(agg_ipair *set, uint32_t mask, uint32_t shift,
                               uint64_t h, uint32_t g1, int64_t v, uint32_t seq){
  uint32_t at = (uint32_t)(h>>32) >> shift;
  for(;;){
    agg_ipair *e = &set[at];
    if( e->g==0 ){ e->g = g1; e->v = v; e->seq = seq; return 1; }
    if( e->g==g1 && e->v==v ) return 0;
    at = (at + 1) & mask;
  }
}

/* Insert pairs (g1[k], v[k]) with hashes h[k], k < n; fresh[] gets the
** positions k of the pairs that were new, in order. Returns how many. The
** set must have room (agg_iset_grow(s, s->n + n)). */
uint32_t agg_iset_insert(agg_iset *s, const uint64_t *h, const uint32_t *g1,
                         const int64_t *v, uint32_t n, uint32_t *fresh);

/* Room for `need` pairs; 0, or -1 when out of memory (the set is then
** unusable) or past AGG_MAX_GROUPS/2 pairs. */
int agg_iset_grow(agg_iset *s, uint64_t need);

/* Bytes held, by capacity. */
static inline uint64_t agg_iset_footprint(const agg_iset *s){
  return (uint64_t)s->nbucket * sizeof(agg_ipair);
}

void agg_iset_free(agg_iset *s);

/* Keep the first of rows[0..*pn) (gid[k] each row's group) of each
** (group, dictionary entry) pair, codes[row] the row's entry (below
** ncode, the dictionary's entries; every gid[k] below ngroup), compacting
** rows and gid in place: equal codes are equal values, so a DISTINCT set
** is then probed once per pair of the batch, not per row. *set and *cap
** are scratch the caller keeps (grown here, freed by the caller). -1 on
** OOM. */
int agg_codes_first(uint64_t **set, uint32_t *cap, const uint32_t *codes, uint32_t ncode,
                    uint32_t ngroup, uint32_t *rows, uint32_t *gid, uint32_t *pn);

#endif
