/*
** table.c — the group-by hash table; see table.h and seed 003.
*/
#include "table.h"
#include "value.h"
#include "bigmem.h"
#include "zone.h"
#include "slab_pool.h"
#include "hash.h"
#include "double.h"
#include <stdlib.h>
#include <string.h>

#define AGG_FIRST_BUCKETS 64  /* small: most group bys have few groups */

/* A bucket: the group's slot + 1 in the low word (0: empty, so fresh zeroed
** memory is an empty table), the high word of its hash in the high word, so
** a probe rejects most non-matching groups without reading the group's
** stored hash or key. */
#define AGG_FP(h) ((uint32_t)((h)>>32))
#define AGG_BUCKET(h, slot) (((uint64_t)AGG_FP(h)<<32) | ((uint32_t)(slot) + 1))
#define AGG_BUCKET_SLOT(b) ((uint32_t)(b) - 1)   /* AGG_EMPTY when empty */
#define AGG_MAX_BUCKET_BITS 31   /* nbucket is a uint32_t power of two */

/* A group's home bucket is the top bits of its hash, which the bucket
** itself stores: doubling the table then walks the old buckets in order
** and writes the new ones in order (homes keep their order), never
** reading a stored hash. Placing groups by their low hash bits made every
** doubling a random write per group into the new array; at millions of
** groups that cost more than all the probes. */
static inline uint32_t agg_home(const agg_table *t, uint64_t hash){
  return AGG_FP(hash) >> t->shift;
}

int agg_table_init(agg_table *t, int nkey){
  memset(t, 0, sizeof(*t));
  t->nkey = nkey;
  t->buckets = agg_mem_zalloc(AGG_FIRST_BUCKETS * sizeof(uint64_t));
  t->cols = calloc(nkey>0 ? (size_t)nkey : 1, sizeof(agg_keycol));
  if( t->buckets==0 || t->cols==0 ){ agg_table_free(t); return -1; }
  for(int c=0; c<nkey; c++) agg_keycol_init(&t->cols[c]);
  t->nbucket = AGG_FIRST_BUCKETS;
  t->shift = 32 - __builtin_ctz(AGG_FIRST_BUCKETS);
  return 0;
}

void agg_table_set_zone(agg_table *t, agg_zone *z){
  t->zone = z;
  for(int c=0; c<t->nkey; c++) t->cols[c].zone = z;
}

void agg_table_set_pool(agg_table *t, agg_slab_pool *p){
  for(int c=0; c<t->nkey; c++) t->cols[c].pool = p;
}

void agg_table_free(agg_table *t){
  if( t->cols ){
    for(int c=0; c<t->nkey; c++){
      agg_keycol_free(&t->cols[c]);
    }
  }
  free(t->cols); agg_mem_free(t->buckets); agg_mem_free(t->recs);
  memset(t, 0, sizeof(*t));
}

uint64_t agg_table_footprint(const agg_table *t){
  uint64_t per_group = 0;
  for(int c=0; c<t->nkey; c++){
    const agg_keycol *k = &t->cols[c];
    per_group += 8 + (k->tags ? 1 : 0) + (k->lens ? 4 : 0);
  }
  return (uint64_t)t->nbucket*(t->wide ? 16 : 8) + (uint64_t)t->cap*per_group
       + (uint64_t)t->nkey*sizeof(agg_keycol);
}

uint64_t agg_table_owned(const agg_table *t){
  uint64_t n = 0;
  for(int c=0; c<t->nkey; c++) n += t->cols[c].heap_cap;
  return n;
}

pred_value agg_table_key(const agg_table *t, int col, uint32_t slot){
  return agg_keycol_value(&t->cols[col], slot);
}

pred_value agg_keycol_value(const agg_keycol *k, uint32_t slot){
  pred_value v;
  memset(&v, 0, sizeof(v));
  v.type = agg_keycol_tag(k, slot);
  switch( v.type ){
    case CV_INT: v.i = (int64_t)AGG_KEY_WORD(k, slot); break;
    case CV_REAL: memcpy(&v.f, &AGG_KEY_WORD(k, slot), 8); break;
    case CV_TEXT: case CV_BLOB:
      v.p = agg_keycol_bytes(k, slot);
      v.n = agg_keycol_len(k, slot);
      break;
    default: break;
  }
  return v;
}

/* Does the group in slot have, in key column c, the value v holds at row? */
static inline int agg_key_same(const agg_keycol *k, uint32_t slot,
                               const col_vector *v, uint32_t row){
  int st = agg_keycol_tag(k, slot);
  int rt = cv_tag(v, row);
  if( st==rt ){
    switch( st ){
      case CV_NULL: return 1;
      case CV_INT: return (int64_t)AGG_KEY_WORD(k, slot)==cv_int(v, row);
      case CV_REAL: { double f; memcpy(&f, &AGG_KEY_WORD(k, slot), 8); return f==cv_real(v, row); }
      default: {
        cv_str s = cv_bytes(v, row);
        uint64_t w = AGG_KEY_WORD(k, slot);
        if( w & AGG_INLINE_FLAG ) return s.n<=AGG_INLINE_BYTES && agg_inline_word(s.p, s.n)==w;
        uint32_t n = (uint32_t)(w >> AGG_HEAP_OFF_BITS);
        if( n==AGG_HEAP_LEN ) n = k->lens[slot];
        return s.n==n && memcmp(s.p, agg_heap_at(k, w & AGG_HEAP_OFF_MASK), s.n)==0;
      }
    }
  }
  if( st==CV_INT && rt==CV_REAL ) return agg_int_real_compare((int64_t)AGG_KEY_WORD(k, slot), cv_real(v, row))==0;
  if( st==CV_REAL && rt==CV_INT ){
    double f; memcpy(&f, &AGG_KEY_WORD(k, slot), 8);
    return agg_int_real_compare(cv_int(v, row), f)==0;
  }
  return 0;
}

static inline int agg_holds(const agg_table *t, uint32_t slot,
                            const col_vector *const *keys, uint32_t row){
  for(int c=0; c<t->nkey; c++){
    if( !agg_key_same(&t->cols[c], slot, keys[c], row) ) return 0;
  }
  return 1;
}

/* agg_table_probe, always inlined into the lookup loop (the compiler kept
** a call to it there, a fifth of a high-cardinality group by's profile). */
static inline __attribute__((always_inline))
uint32_t agg_probe(const agg_table *t, uint64_t hash, const col_vector *const *keys,
                   uint32_t row, uint32_t *bucket){
  uint32_t mask = t->nbucket - 1;
  uint32_t at = agg_home(t, hash);
  uint32_t fp = AGG_FP(hash);
  for(;;){
    uint64_t b = t->buckets[at];
    uint32_t slot = AGG_BUCKET_SLOT(b);
    if( slot==AGG_EMPTY ){ *bucket = at; return AGG_EMPTY; }
    /* the fingerprint is 32 bits of the hash (fewer once the top ones
    ** place the bucket): a stranger that matches it is rare enough that
    ** comparing keys beats reading the stored hash, one more cache miss */
    if( (uint32_t)(b>>32)==fp && agg_holds(t, slot, keys, row) ) return slot;
    at = (at + 1) & mask;
  }
}

/* ---- wide buckets -------------------------------------------------------
** With one key column, agg_hash_keys() is a bijection of an INTEGER key
** (one multiply by an odd constant, then a bijective finalizer: hash.c),
** and NULL hashes as no INTEGER's class can claim (the class is kept).
** A bucket that holds the whole hash and the group's storage class thus
** answers, for an INTEGER or NULL row, whether the group is the row's
** without reading the stored key: that comparison was a cache miss per
** row, a third of GROUP BY UserID's time at two million groups. Only the
** caller knows its hashes are exactly that function of the stored key
** (agg_table_hashes_exact). The table stays wide while its groups are
** INTEGER or NULL; the first group of another class narrows the buckets
** to the usual 8 bytes, each at the same position (both kinds home on the
** top bits of the hash), so a vacant bucket a probe found stays valid. */
typedef struct agg_wbucket {
  uint64_t hash;          /* the group's whole hash */
  uint32_t slot1;         /* its slot + 1; 0 when the bucket is empty */
  uint32_t tag;           /* its storage class: CV_INT or CV_NULL */
} agg_wbucket;

static inline agg_wbucket *agg_wb(const agg_table *t){
  return (agg_wbucket*)(void*)t->buckets;
}

/* agg_probe over wide buckets; rt is the storage class of the row's key. */
static inline __attribute__((always_inline))
uint32_t agg_wprobe(const agg_table *t, uint64_t hash, const col_vector *const *keys,
                    uint32_t row, int rt, uint32_t *bucket){
  uint32_t mask = t->nbucket - 1;
  uint32_t at = agg_home(t, hash);
  const agg_wbucket *wb = agg_wb(t);
  for(;;){
    const agg_wbucket *b = &wb[at];
    if( b->slot1==0 ){ *bucket = at; return AGG_EMPTY; }
    /* an equal class is INTEGER or NULL (no other is stored): the hash
    ** decides; a REAL row may still equal an INTEGER group */
    if( b->hash==hash && ((int)b->tag==rt || agg_holds(t, b->slot1 - 1, keys, row)) ){
      return b->slot1 - 1;
    }
    at = (at + 1) & mask;
  }
}

int agg_table_hashes_exact(agg_table *t){
  if( t->nkey!=1 || t->wide || t->ngroup ) return 0;
  uint64_t *b = agg_mem_zalloc((size_t)t->nbucket * sizeof(agg_wbucket));
  if( b==0 ) return -1;
  agg_mem_free(t->buckets);
  t->buckets = b;
  t->wide = 1;
  return 0;
}

/* The first group whose class is not INTEGER or NULL: 8-byte buckets
** again, in a new block (the wide one is twice the size bigmem.h knows
** a narrow table's to be). */
static int agg_narrow(agg_table *t){
  uint64_t *b = agg_mem_zalloc((size_t)t->nbucket * 8);
  if( b==0 ) return -1;
  const agg_wbucket *wb = agg_wb(t);
  for(uint32_t i=0; i<t->nbucket; i++){
    if( wb[i].slot1 ) b[i] = AGG_BUCKET(wb[i].hash, wb[i].slot1 - 1);
  }
  agg_mem_free(t->buckets);
  t->buckets = b;
  t->wide = 0;
  return 0;
}

uint32_t agg_table_probe(const agg_table *t, uint64_t hash,
                         const col_vector *const *keys, uint32_t row,
                         uint32_t *bucket){
  if( t->wide ) return agg_wprobe(t, hash, keys, row, cv_tag(keys[0], row), bucket);
  return agg_probe(t, hash, keys, row, bucket);
}

#define AGG_BUCKET_EMPTY(x) ((uint32_t)(x)==0)
#define AGG_BUCKET_HOME(x, shift) ((uint32_t)((x)>>32) >> (shift))
AGG_DOUBLE_INPLACE(agg_buckets_double, uint64_t, AGG_BUCKET_EMPTY, AGG_BUCKET_HOME)
#define AGG_WBUCKET_EMPTY(x) ((x).slot1==0)
#define AGG_WBUCKET_HOME(x, shift) ((uint32_t)((x).hash>>32) >> (shift))
AGG_DOUBLE_INPLACE(agg_wbuckets_double, agg_wbucket, AGG_WBUCKET_EMPTY, AGG_WBUCKET_HOME)

/* Double the buckets in place (agg/double.h). On OOM the table is left
** without part of its index; a caller's error ends the group by, which
** never reads it again. */
static int agg_regrow(agg_table *t){
  if( t->shift <= 32 - AGG_MAX_BUCKET_BITS ) return 0;  /* fuller, not bigger */
  uint32_t n = t->nbucket;
  size_t bsz = t->wide ? sizeof(agg_wbucket) : 8;
  uint64_t *b = agg_zone_grow_zeroed(t->zone, t->buckets, (size_t)n*bsz, (size_t)n*2*bsz);
  if( b==0 ) return -1;
  agg_mem_prefault(b, (size_t)n*bsz, (size_t)n*bsz);
  t->buckets = b;
  t->nbucket = n*2;
  t->shift--;
  if( t->wide ) return agg_wbuckets_double(agg_wb(t), n, t->shift);
  return agg_buckets_double(b, n, t->shift);
}

/* Grow the key columns to hold cap groups. */
static int agg_grow_groups_to(agg_table *t, uint32_t cap){
  if( t->nkey>1 ){
    uint64_t *r = agg_zone_realloc(t->zone, t->recs, (size_t)cap * (size_t)t->nkey * 8);
    if( r==0 ) return -1;
    t->recs = r;
    for(int c=0; c<t->nkey; c++){
      t->cols[c].vals = r + c;
      t->cols[c].stride = (uint32_t)t->nkey;
    }
  }
  for(int c=0; c<t->nkey; c++){
    if( agg_keycol_reserve(&t->cols[c], cap) ) return -1;
  }
  t->cap = cap;
  return 0;
}

/* Grow the key columns to hold at least one more group. */
static int agg_grow_groups(agg_table *t){
  return agg_grow_groups_to(t, t->cap ? (t->cap > AGG_MAX_GROUPS/2 ? AGG_MAX_GROUPS : t->cap*2) : 64);
}

/* The buckets (*nb, and its *shift) a table of n groups keeps, at least
** the ones t has. */
static void agg_buckets_for(const agg_table *t, uint32_t n, uint32_t *nb, uint32_t *shift){
  *nb = t->nbucket; *shift = t->shift;
  while( (uint64_t)n*2 >= *nb && *shift > 32 - AGG_MAX_BUCKET_BITS ){ *nb *= 2; (*shift)--; }
}

/* agg_table_reserve; with exact, the key columns take n groups, not the
** power of two doubling would reach. */
static int agg_table_reserve_to(agg_table *t, uint32_t n, int exact){
  if( n>AGG_MAX_GROUPS ) n = AGG_MAX_GROUPS;
  if( n>t->cap ){
    uint32_t cap = exact ? n : t->cap ? t->cap : 64;
    while( cap<n ) cap = cap > AGG_MAX_GROUPS/2 ? AGG_MAX_GROUPS : cap*2;
    if( agg_grow_groups_to(t, cap) ) return -1;
  }
  if( t->ngroup==0 ){
    /* nothing to rehash: the final buckets at once, not a doubling each
    ** (each a new block, its old one unmapped under the other threads) */
    uint32_t nb, shift;
    agg_buckets_for(t, n, &nb, &shift);
    if( nb==t->nbucket ) return 0;
    size_t bytes = (size_t)nb * (t->wide ? sizeof(agg_wbucket) : 8);
    uint64_t *b = agg_zone_zalloc(t->zone, bytes);
    if( b==0 ) return -1;
    agg_mem_free(t->buckets);
    t->buckets = b;
    t->nbucket = nb;
    t->shift = shift;
    return 0;
  }
  while( (uint64_t)n*2 >= t->nbucket && t->shift > 32 - AGG_MAX_BUCKET_BITS ){
    if( agg_regrow(t) ) return -1;
  }
  return 0;
}

int agg_table_reserve(agg_table *t, uint32_t n){
  return agg_table_reserve_to(t, n, 0);
}

int agg_table_reserve_spare(agg_table *t, uint32_t n, void **spare){
  if( n>AGG_MAX_GROUPS ) n = AGG_MAX_GROUPS;
  uint32_t nb, shift;
  agg_buckets_for(t, n, &nb, &shift);
  size_t bsz = t->wide ? sizeof(agg_wbucket) : 8;
  if( nb>t->nbucket && *spare && agg_mem_size(*spare) >= (size_t)nb*bsz ){
    uint64_t *b = *spare;
    *spare = 0;
    memset(b, 0, (size_t)nb*bsz);
    uint32_t mask = nb - 1;
    /* every group to its place among the new buckets (its home is the top
    ** bits of the hash either kind of bucket keeps) */
    if( t->wide ){
      const agg_wbucket *o = agg_wb(t);
      agg_wbucket *w = (agg_wbucket*)(void*)b;
      for(uint32_t i=0; i<t->nbucket; i++){
        if( AGG_WBUCKET_EMPTY(o[i]) ) continue;
        uint32_t at = AGG_WBUCKET_HOME(o[i], shift);
        while( !AGG_WBUCKET_EMPTY(w[at]) ) at = (at + 1) & mask;
        w[at] = o[i];
      }
    }else{
      for(uint32_t i=0; i<t->nbucket; i++){
        uint64_t x = t->buckets[i];
        if( AGG_BUCKET_EMPTY(x) ) continue;
        uint32_t at = AGG_BUCKET_HOME(x, shift);
        while( !AGG_BUCKET_EMPTY(b[at]) ) at = (at + 1) & mask;
        b[at] = x;
      }
    }
    agg_mem_free(t->buckets);
    t->buckets = b;
    t->nbucket = nb;
    t->shift = shift;
  }
  return agg_table_reserve_to(t, n, 1);
}

void *agg_table_release_buckets(agg_table *t){
  void *b = t->buckets;
  t->buckets = 0;
  t->nbucket = 0;
  return b;
}

void agg_keycol_init(agg_keycol *k){
  memset(k, 0, sizeof(*k));
  k->utag = AGG_UTAG_NONE;
  k->stride = 1;
}

/* Segment 0 grew by doubling (zone or bigmem); the others are slabs, or
** blocks of their own that agg_slab_give frees (not a slab's size). */
static void agg_keycol_free_heap(agg_keycol *k){
  for(uint32_t i=0; i<k->nseg; i++){
    if( i==0 ) agg_mem_free(k->segs[0]);
    else agg_slab_give(k->pool, k->segs[i]);
  }
  free(k->segs);
}

void agg_keycol_free(agg_keycol *k){
  agg_mem_free(k->tags);
  if( k->stride==1 ) agg_mem_free(k->vals);   /* else the table's recs */
  agg_mem_free(k->lens);
  agg_keycol_free_heap(k);
  agg_keycol_init(k);
}

int agg_keycol_reserve(agg_keycol *k, uint32_t n){
  if( n<=k->cap ) return 0;
  agg_zone *zone = k->zone;
  if( k->stride==1 ){
    uint64_t *v = agg_zone_realloc(zone, k->vals, (size_t)n * 8);
    if( v==0 ) return -1;
    k->vals = v;
  }
  if( k->tags ){
    uint8_t *t = agg_zone_realloc(zone, k->tags, n);
    if( t==0 ) return -1;
    k->tags = t;
  }
  if( k->lens ){
    uint32_t *l = agg_zone_realloc(zone, k->lens, (size_t)n * 4);
    if( l==0 ) return -1;
    k->lens = l;
  }
  k->cap = n;
  return 0;
}

/* The first group of a second storage class: every group so far gets
** utag's tag. */
static int agg_keycol_split_tags(agg_keycol *k, uint32_t slot, int tag){
  uint8_t *t = agg_mem_realloc(0, k->cap ? k->cap : 1);
  if( t==0 ) return -1;
  memset(t, k->utag==AGG_UTAG_NONE ? CV_NULL : k->utag, slot);
  t[slot] = (uint8_t)tag;
  k->tags = t;
  k->utag = AGG_UTAG_NONE;
  return 0;
}

static inline int agg_keycol_set_tag(agg_keycol *k, uint32_t slot, int tag){
  if( k->tags ){ k->tags[slot] = (uint8_t)tag; return 0; }
  if( k->utag==tag ) return 0;
  if( k->utag==AGG_UTAG_NONE && slot==0 ){ k->utag = tag; return 0; }
  return agg_keycol_split_tags(k, slot, tag);
}

/* Store a TEXT/BLOB value's bytes and length; the lengths appear (zero,
** since no group before had any) with the first such value. */
static int agg_keycol_set_bytes(agg_keycol *k, uint32_t slot, const char *p, uint32_t n){
  if( k->lens==0 ){
    k->lens = agg_zone_zalloc(k->zone, (size_t)(k->cap ? k->cap : 1) * 4);
    if( k->lens==0 ) return -1;
  }
  k->lens[slot] = n;
  if( n<=AGG_INLINE_BYTES ){
    AGG_KEY_WORD(k, slot) = agg_inline_word(p, n);
    return 0;
  }
  uint64_t off;
  if( agg_keycol_append(k, p, n, &off) ) return -1;
  AGG_KEY_WORD(k, slot) = off
      | (uint64_t)(n < AGG_HEAP_LEN ? n : AGG_HEAP_LEN) << AGG_HEAP_OFF_BITS;
  return 0;
}

int agg_keycol_set(agg_keycol *k, uint32_t slot, const pred_value *x){
  if( agg_keycol_set_tag(k, slot, x->type) ) return -1;
  if( k->lens ) k->lens[slot] = 0;
  uint64_t *w = &AGG_KEY_WORD(k, slot);
  *w = 0;
  switch( x->type ){
    case CV_INT: *w = (uint64_t)x->i; break;
    case CV_REAL: memcpy(w, &x->f, 8); break;
    case CV_TEXT: case CV_BLOB: return agg_keycol_set_bytes(k, slot, x->p, x->n);
    default: break;
  }
  return 0;
}

/* Bytes of a heap slab: the pool's, while they fit a segment. */
static size_t agg_heap_slab_bytes(const agg_keycol *k){
  size_t n = k->pool ? agg_slab_bytes(k->pool) : 0;
  return n && n <= AGG_HEAP_POS_MASK+1 ? n : AGG_HEAP_POS_MASK+1 - AGG_MEM_HEADER;
}

/* Room for one more segment in segs; -1 on OOM or at AGG_HEAP_MAX_SEGS. */
static int agg_keycol_seg_room(agg_keycol *k){
  if( k->nseg < k->segroom ) return 0;
  if( k->nseg >= AGG_HEAP_MAX_SEGS ) return -1;
  uint32_t room = k->segroom ? k->segroom*2 : 4;
  char **s = realloc(k->segs, (size_t)room * sizeof(char*));
  if( s==0 ) return -1;
  k->segs = s;
  k->segroom = room;
  return 0;
}

/* Segment 0 to hold `bytes` (at most a slab's). */
static int agg_keycol_grow_seg0(agg_keycol *k, uint64_t bytes){
  if( k->nseg==0 ){
    if( agg_keycol_seg_room(k) ) return -1;
    k->segs[0] = 0;
    k->nseg = 1;
  }
  char *h = agg_zone_realloc(k->zone, k->segs[0], (size_t)bytes);
  if( h==0 ) return -1;
  k->segs[0] = h;
  k->heap_cap += bytes - k->cur_cap;
  k->cur_cap = (uint32_t)bytes;
  return 0;
}

int agg_keycol_reserve_heap(agg_keycol *k, uint64_t bytes){
  if( k->nseg>1 || bytes<=k->cur_cap ) return 0;
  size_t slab = agg_heap_slab_bytes(k);
  return agg_keycol_grow_seg0(k, bytes < slab ? bytes : slab);
}

int agg_keycol_append(agg_keycol *k, const char *p, uint32_t n, uint64_t *off){
  if( n > k->cur_cap - k->cur_len ){
    size_t slab = agg_heap_slab_bytes(k);
    uint64_t need = (uint64_t)k->cur_len + n;
    if( k->nseg<=1 && need<=slab ){
      uint64_t cap = k->cur_cap ? (uint64_t)k->cur_cap*2 : 256;
      while( cap < need ) cap *= 2;
      if( agg_keycol_grow_seg0(k, cap < slab ? cap : slab) ) return -1;
    }else if( n > slab ){
      /* a segment of its own (never segment 0, which doubles: made first,
      ** so no segment is ever NULL); appends carry on where they were */
      if( k->nseg==0 && agg_keycol_grow_seg0(k, 256) ) return -1;
      if( agg_keycol_seg_room(k) ) return -1;
      char *s = agg_mem_realloc(0, n);
      if( s==0 ) return -1;
      memcpy(s, p, n);
      *off = (uint64_t)k->nseg << AGG_HEAP_SEG_BITS;
      k->segs[k->nseg++] = s;
      k->heap_cap += agg_mem_size(s);
      return 0;
    }else{
      if( agg_keycol_seg_room(k) ) return -1;
      char *s = k->pool ? agg_slab_take(k->pool, 0) : agg_mem_realloc(0, slab);
      if( s==0 ) return -1;
      k->cur = k->nseg;
      k->segs[k->nseg++] = s;
      k->cur_len = 0;
      k->cur_cap = (uint32_t)slab;
      k->heap_cap += slab;
    }
  }
  *off = (uint64_t)k->cur << AGG_HEAP_SEG_BITS | k->cur_len;
  if( n ) memcpy(k->segs[k->cur] + k->cur_len, p, n);
  k->cur_len += n;
  return 0;
}

int agg_table_insert(agg_table *t, uint32_t bucket, uint64_t hash,
                     const col_vector *const *keys, uint32_t row,
                     uint32_t *slot, col_error *err){
  uint32_t s = t->ngroup;
  if( s>=AGG_MAX_GROUPS ){
    return col_error_set(err, COL_ENOMEM,
        "group_by: a single group by cannot hold more than %u groups", AGG_MAX_GROUPS);
  }
  if( s>=t->cap && agg_grow_groups(t) ) goto oom;
  int tag = CV_NULL;
  for(int c=0; c<t->nkey; c++){
    pred_value x = agg_value_at(keys[c], row);
    if( agg_keycol_set(&t->cols[c], s, &x) ) goto oom;
    tag = x.type;
  }
  if( t->wide && tag!=CV_INT && tag!=CV_NULL && agg_narrow(t) ) goto oom;
  if( t->wide ){
    agg_wbucket *b = &agg_wb(t)[bucket];
    b->hash = hash; b->slot1 = s + 1; b->tag = (uint32_t)tag;
  }else{
    t->buckets[bucket] = AGG_BUCKET(hash, s);
  }
  t->ngroup = s + 1;
  /* Half full at most: a linear probe at higher loads walks long runs. */
  if( (uint64_t)t->ngroup*2 >= t->nbucket && agg_regrow(t) ) goto oom;
  *slot = s;
  return COL_OK;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory growing the hash table");
}

/* Rows ahead of the probe whose bucket is prefetched: a large table's
** buckets are cache misses, and a batch knows every hash in advance. */
#define AGG_PREFETCH 16
/* Key columns whose stored words and strings a probe prefetches. */
#define AGG_PREFETCH_COLS 8

/* The group in the home bucket of row sel[k]'s hash when the bucket's
** fingerprint is the row's (the likely candidate a prefetch fetches the
** group of), else AGG_EMPTY. */
static inline uint32_t agg_home_slot(const agg_table *t, const uint32_t *sel, uint32_t k,
                                     const uint64_t *hashes){
  uint64_t h = hashes[sel ? sel[k] : k];
  uint64_t b = t->buckets[agg_home(t, h)];
  uint32_t s = AGG_BUCKET_SLOT(b);
  return s!=AGG_EMPTY && s<t->ngroup && (uint32_t)(b>>32)==AGG_FP(h) ? s : AGG_EMPTY;
}

/* Rows sel[k..nsel) of a narrow table (agg_table_lookup). */
static int agg_nlookup(agg_table *t, const col_vector *const *keys,
                       const uint32_t *sel, uint32_t k, uint32_t nsel,
                       const uint64_t *hashes, uint32_t *gid, uint32_t *created,
                       col_error *err){
  /* Prefetching pays only once the buckets outgrow the caches; the third
  ** stage only for a table with strings in a heap (not for integer keys) */
  int pf = t->nbucket >= (1u<<16) || t->cold, pf_heap = 0;
  for(int c=0; c<t->nkey && c<AGG_PREFETCH_COLS; c++) pf_heap |= t->cols[c].nseg!=0;
  for(; k<nsel; k++){
    uint32_t row = sel ? sel[k] : k;
    if( pf ){
      if( k + AGG_PREFETCH < nsel ){
        uint32_t r2 = sel ? sel[k+AGG_PREFETCH] : k+AGG_PREFETCH;
        __builtin_prefetch(&t->buckets[agg_home(t, hashes[r2])]);
      }
      if( k + AGG_PREFETCH/2 < nsel && t->nkey ){
        /* the bucket is (likely) in cache by now: fetch the group's key */
        uint32_t s2 = agg_home_slot(t, sel, k + AGG_PREFETCH/2, hashes);
        if( s2!=AGG_EMPTY ){
          /* every key column is compared: the group's words (one line
          ** for up to 8 columns), and its tags where kept */
          if( t->recs ){
            const uint64_t *w = &t->recs[(size_t)s2 * (uint32_t)t->nkey];
            __builtin_prefetch(w);
            __builtin_prefetch(w + t->nkey - 1);
          }
          for(int c=0; c<t->nkey && c<AGG_PREFETCH_COLS; c++){
            const agg_keycol *kc = &t->cols[c];
            if( t->recs==0 ) __builtin_prefetch(&kc->vals[s2]);
            if( kc->tags ) __builtin_prefetch(&kc->tags[s2]);
          }
        }
      }
      if( pf_heap && k + AGG_PREFETCH/4 < nsel ){
        /* the group's words are (likely) in cache by now: fetch the
        ** first bytes of its stored strings, which the compare reads.
        ** The probes that hit a heap string were each a cache miss in
        ** memcmp: GROUP BY SearchPhrase with count(DISTINCT UserID), a
        ** table probed per dictionary entry, 569 -> 473 ms; Q40 579 ->
        ** 487 ms; keys that are new or inline only pay the check. */
        uint32_t s3 = agg_home_slot(t, sel, k + AGG_PREFETCH/4, hashes);
        for(int c=0; s3!=AGG_EMPTY && c<t->nkey && c<AGG_PREFETCH_COLS; c++){
          const agg_keycol *kc = &t->cols[c];
          if( kc->nseg==0 ) continue;
          /* a word of another class (a column of mixed classes) is no
          ** offset: the bound keeps the segment's index inside segs */
          uint64_t w = AGG_KEY_WORD(kc, s3), off = w & AGG_HEAP_OFF_MASK;
          if( (w & AGG_INLINE_FLAG) || (off >> AGG_HEAP_SEG_BITS)>=kc->nseg ) continue;
          const char *at = agg_heap_at(kc, off);
          __builtin_prefetch(at);
          /* a URL (70 bytes or so) mostly spans two lines, and memcmp
          ** reads both: Q40's fifth key is one (a prefetch past a
          ** segment's end does no harm) */
          uint32_t n = (uint32_t)(w >> AGG_HEAP_OFF_BITS) & AGG_HEAP_LEN;
          if( (off & 63) + n > 64 ) __builtin_prefetch(at + 64);
        }
      }
    }
    uint64_t h = hashes[row];
    uint32_t bucket;
    uint32_t s = agg_probe(t, h, keys, row, &bucket);
    if( s==AGG_EMPTY && !(t->max_groups && t->ngroup>=t->max_groups) ){
      int rc = agg_table_insert(t, bucket, h, keys, row, &s, err);
      if( rc ) return rc;
      (*created)++;
    }
    gid[k] = s;
  }
  return COL_OK;
}

/* Rows sel[*pk..nsel) of a wide table, until one narrows it: *pk is then
** the next row's place in sel, else nsel. The stored keys are never read
** for INTEGER and NULL rows, so only buckets are prefetched. */
static int agg_wlookup(agg_table *t, const col_vector *const *keys,
                       const uint32_t *sel, uint32_t *pk, uint32_t nsel,
                       const uint64_t *hashes, uint32_t *gid, uint32_t *created,
                       col_error *err){
  int pf = t->nbucket >= (1u<<15) || t->cold;
  int cls = cv_class(keys[0]);
  uint32_t k = *pk;
  for(; k<nsel; k++){
    uint32_t row = sel ? sel[k] : k;
    if( pf && k + AGG_PREFETCH < nsel ){
      uint32_t r2 = sel ? sel[k+AGG_PREFETCH] : k+AGG_PREFETCH;
      __builtin_prefetch(&agg_wb(t)[agg_home(t, hashes[r2])]);
    }
    uint64_t h = hashes[row];
    uint32_t bucket = 0;
    uint32_t s = agg_wprobe(t, h, keys, row, cls>=0 ? cls : cv_tag(keys[0], row), &bucket);
    if( s==AGG_EMPTY && !(t->max_groups && t->ngroup>=t->max_groups) ){
      int rc = agg_table_insert(t, bucket, h, keys, row, &s, err);
      if( rc ){ *pk = k; return rc; }
      (*created)++;
      if( !t->wide ){ gid[k] = s; *pk = k + 1; return COL_OK; }
    }
    gid[k] = s;
  }
  *pk = k;
  return COL_OK;
}

int agg_table_lookup(agg_table *t, const col_vector *const *keys,
                     const uint32_t *sel, uint32_t nsel,
                     const uint64_t *hashes, uint32_t *gid, uint32_t *nnew,
                     col_error *err){
  uint32_t created = 0, k = 0;
  int rc = COL_OK;
  if( t->wide ) rc = agg_wlookup(t, keys, sel, &k, nsel, hashes, gid, &created, err);
  if( rc==COL_OK && k<nsel ) rc = agg_nlookup(t, keys, sel, k, nsel, hashes, gid, &created, err);
  *nnew = created;
  return rc;
}

void agg_table_key_vector(const agg_table *t, int col, uint32_t from, uint32_t n,
                          col_vector *out, cv_str *strs, uint64_t *words){
  const agg_keycol *k = &t->cols[col];
  const uint64_t *vals = k->vals + from;
  if( k->stride!=1 ){
    for(uint32_t i=0; i<n; i++) words[i] = AGG_KEY_WORD(k, from+i);
    vals = words;
  }
  memset(out, 0, sizeof(*out));
  out->form = CV_FLAT;
  out->type = k->tags || k->utag==AGG_UTAG_NONE ? CV_NULL : k->utag;
  out->n = n;
  out->tags = k->tags ? k->tags + from : 0;
  out->i64 = (const int64_t*)vals;
  out->f64 = (const double*)vals;
  out->str = strs;
  if( k->lens==0 ) return;
  for(uint32_t i=0; i<n; i++){
    int tag = agg_keycol_tag(k, from+i);
    if( tag==CV_TEXT || tag==CV_BLOB ){
      strs[i].p = agg_keycol_bytes(k, from+i);
      strs[i].n = k->lens[from+i];
    }else{
      strs[i].p = 0; strs[i].n = 0;
    }
  }
}

/* A chunk of a table's groups: their stored keys as flat vectors, and
** their hashes. Flat vectors hash as the vectors the keys first came in
** did (hash.h), so a group's hash leads another table's probe to where
** the same key is. */
typedef int (*agg_chunk_fn)(void *ctx, const col_vector *const *keys, uint32_t from,
                            uint32_t n, const uint64_t *hashes, col_error *err);

/* The top 32 bits of each of src's groups' hashes, by slot, read off its
** buckets; NULL when src is wide (its buckets hold whole hashes, and a
** wide table's probe compares them) or out of memory. A narrow table
** reads no more of a hash than those bits (agg_home, AGG_FP), so a chunk
** that feeds only narrow tables takes them for the whole hash, and the
** stored keys are not hashed again: merging lanes' tables of URLs hashed
** each of their strings a second time. */
static uint32_t *agg_table_fingerprints(const agg_table *src){
  if( src->wide || src->ngroup==0 ) return 0;
  uint32_t *fp = malloc((size_t)src->ngroup * 4);
  if( fp==0 ) return 0;
  uint32_t found = 0;
  for(uint32_t i=0; i<src->nbucket; i++){
    uint64_t b = src->buckets[i];
    uint32_t s = AGG_BUCKET_SLOT(b);
    if( s!=AGG_EMPTY && s<src->ngroup ){ fp[s] = (uint32_t)(b>>32); found++; }
  }
  /* buckets given away (agg_table_release_buckets) place no group */
  if( found!=src->ngroup ){ free(fp); return 0; }
  return fp;
}

/* Are tables ts[0..nt) all narrow (agg_table_fingerprints)? */
static int agg_tables_narrow(const agg_table *const *ts, int nt){
  for(int i=0; i<nt; i++) if( ts[i]->wide ) return 0;
  return 1;
}

/* Call fn for src's groups a chunk at a time: the hashes, when use_fp says
** every table fn probes is narrow, from src's buckets
** (agg_table_fingerprints), else hashed again. */
static int agg_table_chunks(const agg_table *src, int use_fp, agg_chunk_fn fn, void *ctx,
                            col_error *err){
  enum { CHUNK = 1024 };
  int nkey = src->nkey;
  uint32_t *fp = use_fp ? agg_table_fingerprints(src) : 0;
  col_vector *vecs = calloc((size_t)nkey + 1, sizeof(col_vector));
  const col_vector **keys = calloc((size_t)nkey + 1, sizeof(col_vector*));
  cv_str *strs = malloc(((size_t)nkey + 1) * CHUNK * sizeof(cv_str));
  uint64_t *words = malloc(((size_t)nkey + 1) * CHUNK * 8);
  uint64_t *hashes = malloc(CHUNK * sizeof(uint64_t));
  agg_hasher hs;
  agg_hasher_init(&hs);
  int rc = COL_OK;
  if( !vecs || !keys || !strs || !words || !hashes ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging tables");
    goto done;
  }
  for(uint32_t from=0; from<src->ngroup; from+=CHUNK){
    uint32_t n = src->ngroup - from < CHUNK ? src->ngroup - from : CHUNK;
    for(int c=0; c<nkey; c++){
      agg_table_key_vector(src, c, from, n, &vecs[c], strs + (size_t)c*CHUNK,
                           words + (size_t)c*CHUNK);
      keys[c] = &vecs[c];
    }
    if( fp ){
      for(uint32_t k=0; k<n; k++) hashes[k] = (uint64_t)fp[from+k] << 32;
    }else if( agg_hash_keys(&hs, keys, nkey, 0, n, hashes) ){
      rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging tables");
      break;
    }
    if( (rc = fn(ctx, keys, from, n, hashes, err))!=0 ) break;
  }
done:
  agg_hasher_free(&hs);
  free(vecs); free(keys); free(strs); free(words); free(hashes); free(fp);
  return rc;
}

typedef struct agg_merge_ctx { agg_table *dst; uint32_t *map; } agg_merge_ctx;

static int agg_merge_chunk(void *ctx, const col_vector *const *keys, uint32_t from,
                           uint32_t n, const uint64_t *hashes, col_error *err){
  agg_merge_ctx *m = ctx;
  uint32_t nnew;
  return agg_table_lookup(m->dst, keys, 0, n, hashes, m->map + from, &nnew, err);
}

int agg_table_merge(agg_table *dst, const agg_table *src, uint32_t *map,
                    col_error *err){
  agg_merge_ctx m = { dst, map };
  return agg_table_chunks(src, !dst->wide, agg_merge_chunk, &m, err);
}

typedef struct agg_split_ctx {
  agg_table *const *dsts;
  uint32_t mask;
  uint8_t *part;
  uint32_t *map;
} agg_split_ctx;

static int agg_split_chunk(void *ctx, const col_vector *const *keys, uint32_t from,
                           uint32_t n, const uint64_t *hashes, col_error *err){
  agg_split_ctx *m = ctx;
  for(uint32_t k=0; k<n; k++){
    uint32_t p = (uint32_t)(hashes[k]>>32) & m->mask, nnew;
    m->part[from+k] = (uint8_t)p;
    int rc = agg_table_lookup(m->dsts[p], keys, &k, 1, hashes, m->map + from + k, &nnew, err);
    if( rc ) return rc;
  }
  return COL_OK;
}

/* agg_table_split's first pass: how many groups each dst takes. */
typedef struct agg_count_ctx { uint32_t mask; uint32_t *count; } agg_count_ctx;

static int agg_split_count(void *ctx, const col_vector *const *keys, uint32_t from,
                           uint32_t n, const uint64_t *hashes, col_error *err){
  agg_count_ctx *m = ctx;
  (void)keys; (void)from; (void)err;
  for(uint32_t k=0; k<n; k++) m->count[(uint32_t)(hashes[k]>>32) & m->mask]++;
  return COL_OK;
}

int agg_table_split(agg_table *const *dsts, uint32_t mask, const agg_table *src,
                    uint8_t *part, uint32_t *map, col_error *err){
  /* Each dst reserved for its share first: hashing the keys twice is far
  ** cheaper than 256 tables doubling their way up (a radix lane's split
  ** of 65536 groups spent most of its time in regrowing). */
  uint32_t count[256];
  memset(count, 0, sizeof(count));
  agg_count_ctx c = { mask & 255, count };
  int rc = agg_table_chunks(src, 1, agg_split_count, &c, err);
  if( rc ) return rc;
  for(uint32_t p=0; p<=(mask & 255); p++){
    if( count[p] && agg_table_reserve(dsts[p], dsts[p]->ngroup + count[p]) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory splitting a table");
    }
  }
  agg_split_ctx m = { dsts, mask, part, map };
  return agg_table_chunks(src, agg_tables_narrow((const agg_table *const *)dsts, (int)(mask & 255) + 1), agg_split_chunk, &m, err);
}

typedef struct agg_find_ctx {
  const agg_table *const *ts;
  int nt;
  uint32_t *found;
  uint8_t *which;
} agg_find_ctx;

static int agg_find_chunk(void *ctx, const col_vector *const *keys, uint32_t from,
                          uint32_t n, const uint64_t *hashes, col_error *err){
  agg_find_ctx *f = ctx;
  uint32_t *found = f->found + from;
  (void)err;
  for(int i=0; i<f->nt; i++){
    const agg_table *t = f->ts[i];
    if( t->ngroup==0 ) continue;
    int pf = t->nbucket >= (1u<<16);
    for(uint32_t k=0; k<n; k++){
      if( pf && k + AGG_PREFETCH < n ){
        uint32_t at = agg_home(t, hashes[k+AGG_PREFETCH]);
        __builtin_prefetch(t->wide ? (const void*)&agg_wb(t)[at] : (const void*)&t->buckets[at]);
      }
      if( found[k]!=AGG_EMPTY ) continue;
      uint32_t bucket;
      found[k] = t->wide ? agg_wprobe(t, hashes[k], keys, k, cv_tag(keys[0], k), &bucket)
                         : agg_probe(t, hashes[k], keys, k, &bucket);
      if( found[k]!=AGG_EMPTY ) f->which[from+k] = (uint8_t)i;
    }
  }
  return COL_OK;
}

int agg_table_find_first(const agg_table *const *ts, int nt, const agg_table *src,
                         uint32_t *found, uint8_t *which, col_error *err){
  if( nt>256 ) return col_error_set(err, COL_ERROR, "group_by: too many tables to probe");
  for(uint32_t g=0; g<src->ngroup; g++) found[g] = AGG_EMPTY;
  int any = 0;
  for(int i=0; i<nt; i++) any |= ts[i]->ngroup>0;
  if( !any ) return COL_OK;   /* nothing to hash src's keys for */
  agg_find_ctx f = { ts, nt, found, which };
  return agg_table_chunks(src, agg_tables_narrow(ts, nt), agg_find_chunk, &f, err);
}
