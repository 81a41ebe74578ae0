/*
** aggregate.c — per-group aggregate states; see aggregate.h.
*/
#include "aggregate.h"
#include "json.h"
#include "bigmem.h"
#include "zone.h"
#include "distinct_split.h"
#include "value.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>

/* sum / total / avg (SumCtx in SQLite's func.c), in 24 bytes, not 40: at
** ten million groups each sum, total or avg was 400 MB of states, faulted
** in and missed in cache a row at a time. A kbn sum never needs its exact
** sum and its compensation at once (the one ends where the other starts,
** agg_kbn_start), so they share a word; the two flags ride in the count's
** top bits (a count stays below 2^62). */
typedef struct agg_sum {
  double r;               /* the sum as doubles, in row order (kbn: from
                          ** the input that set approx on) */
  union {
    int64_t i;            /* the integer sum while exact (kbn: while not
                          ** approx) */
    double e;             /* kbn, once approx: the compensation term */
  } u;
  uint64_t cf;            /* non-NULL inputs, and AGG_SUM_OVERFLOW and
                          ** AGG_SUM_APPROX */
} agg_sum;
_Static_assert(sizeof(agg_sum)==24, "agg_sum grew");
/* the integer sum overflowed (kbn: and no REAL came after) */
#define AGG_SUM_OVERFLOW ((uint64_t)1 << 63)
/* a non-INTEGER input was seen (kbn: or the integer sum overflowed) */
#define AGG_SUM_APPROX ((uint64_t)1 << 62)
#define AGG_SUM_FLAGS (AGG_SUM_OVERFLOW|AGG_SUM_APPROX)
#define agg_sum_cnt(p) ((int64_t)((p)->cf & ~AGG_SUM_FLAGS))
#define agg_sum_approx(p) (((p)->cf & AGG_SUM_APPROX)!=0)
#define agg_sum_overflow(p) (((p)->cf & AGG_SUM_OVERFLOW)!=0)

/* ---- SQLite 3.43's compensated sum ----------------------------------------
** Kahan-Babuska-Neumaier: the rounding error of each addition is kept in
** e. An integer of 2^52 or more in magnitude is added as two doubles, its
** value less its remainder mod 16384 and that remainder, so that no bit
** of it is rounded away before the compensation sees it. */
#define AGG_KBN_SPLIT 4503599627370496LL   /* 2^52 */

static inline void agg_kbn_add(agg_sum *p, double r){
  double s = p->r, t = s + r;
  if( fabs(s) > fabs(r) ) p->u.e += (s - t) + r;
  else p->u.e += (r - t) + s;
  p->r = t;
}

static inline void agg_kbn_add_int(agg_sum *p, int64_t v){
  if( v<=-AGG_KBN_SPLIT || v>=AGG_KBN_SPLIT ){
    int64_t small = v % 16384;
    agg_kbn_add(p, (double)(v - small));
    agg_kbn_add(p, (double)small);
  }else{
    agg_kbn_add(p, (double)v);
  }
}

/* The compensated sum takes over from the exact one, p->i. */
static void agg_kbn_start(agg_sum *p){
  int64_t v = p->u.i;     /* read before e takes its word */
  if( v<=-AGG_KBN_SPLIT || v>=AGG_KBN_SPLIT ){
    int64_t small = v % 16384;
    p->r = (double)(v - small);
    p->u.e = (double)small;
  }else{
    p->r = (double)v;
    p->u.e = 0.0;
  }
  p->cf |= AGG_SUM_APPROX;
}

/* One INTEGER input, 3.43's way. */
static inline void agg_kbn_int(agg_sum *p, int64_t v){
  int64_t t;
  p->cf++;
  if( agg_sum_approx(p) ){
    agg_kbn_add_int(p, v);
  }else if( !__builtin_add_overflow(p->u.i, v, &t) ){
    p->u.i = t;
  }else{
    p->cf |= AGG_SUM_OVERFLOW;
    agg_kbn_start(p);
    agg_kbn_add_int(p, v);
  }
}

/* One input of another class, as a double. A REAL after an overflow
** clears it: 3.43's sum() returns the approximation then. */
static inline void agg_kbn_real(agg_sum *p, double r){
  p->cf++;
  if( !agg_sum_approx(p) ) agg_kbn_start(p);
  p->cf &= ~AGG_SUM_OVERFLOW;
  agg_kbn_add(p, r);
}

/* One INTEGER input, 3.40's way: the exact sum while it lasts, and every
** input added to the double sum too. */
static inline void agg_plain_int(agg_sum *p, int64_t v){
  p->cf++;
  p->r += (double)v;
  if( (p->cf & AGG_SUM_FLAGS)==0 && __builtin_add_overflow(p->u.i, v, &p->u.i) ){
    p->cf |= AGG_SUM_FLAGS;
  }
}

/* One REAL input, 3.40's way. */
static inline void agg_plain_real(agg_sum *p, double r){
  p->cf++; p->r += r; p->cf |= AGG_SUM_APPROX;
}

#ifdef __SIZEOF_INT128__
/* x[rows[0..n)] into one group's p at once (agg_state.batch_sums): their
** exact sum, added as one input. A 3.40 sum's double then rounds once for
** the batch; a 3.43 one stays exact while that fits 64 bits and otherwise
** takes the sum as two doubles, its leading part and the rest. The
** overflow flag reads only the batch's total, not every partial sum, and
** only sum() would read it. */
static void agg_sum_batch(agg_sum *p, const int64_t *x, const uint32_t *rows, uint32_t n, int kbn){
  __int128 acc = 0;
  for(uint32_t k=0; k<n; k++) acc += x[rows[k]];
  int64_t t;
  int fits = acc>=INT64_MIN && acc<=INT64_MAX;
  p->cf += n;
  if( !kbn ){
    p->r += (double)acc;
    if( (p->cf & AGG_SUM_FLAGS)==0 ){
      if( fits && !__builtin_add_overflow(p->u.i, (int64_t)acc, &t) ) p->u.i = t;
      else p->cf |= AGG_SUM_FLAGS;
    }
    return;
  }
  if( !agg_sum_approx(p) && fits && !__builtin_add_overflow(p->u.i, (int64_t)acc, &t) ){
    p->u.i = t;
    return;
  }
  if( !agg_sum_approx(p) ){ p->cf |= AGG_SUM_OVERFLOW; agg_kbn_start(p); }
  double hi = (double)acc;
  agg_kbn_add(p, hi);
  agg_kbn_add(p, (double)(acc - (__int128)hi));
}
#endif

/* The double a kbn sum stands for (total, avg, a REAL sum). */
static double agg_kbn_value(const agg_sum *p){
  if( !agg_sum_approx(p) ) return (double)p->u.i;
  return isfinite(p->u.e) ? p->r + p->u.e : p->r;
}

/* min / max / any_value: the best value so far. */
typedef struct agg_best {
  uint8_t tag;            /* CV_NULL until a value is seen */
  uint8_t rep[3];         /* agg_state_keyrep's bits, then AGG_NULL_SEEN
                          ** (in what would be padding: 32 bytes still) */
  uint32_t n;             /* TEXT/BLOB length */
  int64_t i;              /* CV_INT */
  double f;               /* CV_REAL */
  char *p;                /* TEXT/BLOB bytes (malloc'd, owned) */
} agg_best;
_Static_assert(sizeof(agg_best)==32, "agg_best grew");
/* DISTINCT with agg_state.hit: a NULL reached SQLite's step (the first;
** the rest are duplicates) */
#define AGG_NULL_SEEN (1u<<23)
#define AGG_KEYREP_MASK ((1u<<AGG_KEYREP_BITS) - 1)

static uint32_t agg_best_rep(const agg_best *b){
  return b->rep[0] | (uint32_t)b->rep[1] << 8 | (uint32_t)b->rep[2] << 16;
}
static void agg_best_set_rep(agg_best *b, uint32_t v){
  b->rep[0] = (uint8_t)v; b->rep[1] = (uint8_t)(v >> 8); b->rep[2] = (uint8_t)(v >> 16);
}
/* Take src's keyrep bits, keeping b's own flags. */
static void agg_best_take_rep(agg_best *b, const agg_best *src){
  agg_best_set_rep(b, (agg_best_rep(b) & ~AGG_KEYREP_MASK) | (agg_best_rep(src) & AGG_KEYREP_MASK));
}

uint32_t agg_state_keyrep(const agg_state *s, uint32_t g){
  if( g>=s->cap || (s->kind!=AGG_MIN && s->kind!=AGG_MAX) ) return 0;
  return agg_best_rep(&((const agg_best*)s->a)[g]) & AGG_KEYREP_MASK;
}
void agg_state_set_keyrep(agg_state *s, uint32_t g, uint32_t bits){
  if( g>=s->cap || (s->kind!=AGG_MIN && s->kind!=AGG_MAX) ) return;
  agg_best *b = &((agg_best*)s->a)[g];
  agg_best_set_rep(b, (agg_best_rep(b) & ~AGG_KEYREP_MASK) | (bits & AGG_KEYREP_MASK));
}

/* group_concat: the text so far. */
typedef struct agg_text {
  char *p;                /* bytes (malloc'd, owned) */
  uint64_t n;             /* bytes used */
  uint64_t cap;           /* bytes allocated */
  uint8_t any;            /* a non-NULL value was seen */
} agg_text;

static size_t agg_elem_size(agg_kind k){
  switch( k ){
    case AGG_COUNT_STAR: case AGG_COUNT: return sizeof(int64_t);
    case AGG_SUM: case AGG_TOTAL: case AGG_AVG: return sizeof(agg_sum);
    case AGG_MIN: case AGG_MAX: case AGG_ANY_VALUE: return sizeof(agg_best);
    default: return sizeof(agg_text);
  }
}

int agg_kind_from_name(const char *z, int n){
  static const struct { const char *name; agg_kind k; } names[] = {
    {"count", AGG_COUNT}, {"sum", AGG_SUM}, {"total", AGG_TOTAL},
    {"avg", AGG_AVG}, {"min", AGG_MIN}, {"max", AGG_MAX},
    {"group_concat", AGG_GROUP_CONCAT}, {"any_value", AGG_ANY_VALUE},
    {"string_agg", AGG_GROUP_CONCAT},   /* 3.44's name, separator required */
    {"json_group_array", AGG_JSON_ARRAY}, {"json_group_object", AGG_JSON_OBJECT},
  };
  for(size_t i=0; i<sizeof(names)/sizeof(names[0]); i++){
    if( (int)strlen(names[i].name)==n && strncasecmp(names[i].name, z, (size_t)n)==0 ){
      return (int)names[i].k;
    }
  }
  return -1;
}

int agg_state_init(agg_state *s, agg_kind kind, int distinct, int single){
  memset(s, 0, sizeof(*s));
  s->kind = kind;
  s->distinct = distinct;
  s->single = single;
  s->text_max = 1000000000;     /* SQLITE_MAX_LENGTH */
  agg_hasher_init(&s->hs);
  if( distinct && agg_table_init(&s->dset, s->single ? 1 : 2) ) return -1;
  return 0;
}

void agg_state_free(agg_state *s){
  if( s->a ){
    if( s->kind==AGG_MIN || s->kind==AGG_MAX || s->kind==AGG_ANY_VALUE ){
      agg_best *b = s->a;
      for(uint32_t g=0; g<s->cap; g++) free(b[g].p);
    }else if( AGG_KIND_TEXT(s->kind) ){
      agg_text *t = s->a;
      for(uint32_t g=0; g<s->cap; g++) agg_mem_free(t[g].p);
    }
  }
  agg_mem_free(s->a);
  if( s->distinct ) agg_table_free(&s->dset);
  agg_hasher_free(&s->hs);
  free(s->g64); free(s->h); free(s->tmp); free(s->cseen); free(s->dpassed);
  agg_dsplit_free(s->split);
  agg_iset_free(&s->iset);
  free(s->g1); free(s->fresh);
  free(s->bcode); free(s->rank); free(s->order); free(s->touch);
  memset(s, 0, sizeof(*s));
}

int agg_state_forkable(const agg_state *s){
  return AGG_KIND_TEXT(s->kind) && !s->distinct;
}

void agg_state_fork(const agg_state *s, agg_state *fork){
  *fork = *s;
  fork->owned = 0;        /* unsigned: a fork that frees more wraps, and */
  fork->toobig = 0;       /* adding it back wraps again */
}

void agg_state_join(agg_state *s, const agg_state *fork){
  s->owned += fork->owned;
  s->toobig |= fork->toobig;
}

/* Room for cap groups, more than s has. */
static int agg_state_grow_to(agg_state *s, uint32_t cap, col_error *err){
  size_t es = agg_elem_size(s->kind);
  char *a = agg_zone_grow_zeroed(s->zone, s->a, (size_t)s->cap*es, (size_t)cap * es);
  if( a==0 ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory for aggregate states");
  }
  s->a = a;
  s->cap = cap;
  return COL_OK;
}

int agg_state_reserve(agg_state *s, uint32_t ngroup, col_error *err){
  if( ngroup<=s->cap ) return COL_OK;
  uint32_t cap = s->cap ? s->cap : 64;
  while( cap<ngroup ) cap = cap > UINT32_MAX/2 ? UINT32_MAX : cap*2;
  return agg_state_grow_to(s, cap, err);
}

int agg_state_reserve_exact(agg_state *s, uint32_t ngroup, col_error *err){
  return ngroup<=s->cap ? COL_OK : agg_state_grow_to(s, ngroup, err);
}

uint64_t agg_state_footprint(const agg_state *s){
  uint64_t n = (uint64_t)s->cap * agg_elem_size(s->kind) + s->owned;
  n += (uint64_t)s->bcode_cap*4 + (uint64_t)s->rank_cap*12 + (uint64_t)s->touch_cap*4;
  if( s->distinct ){
    n += agg_table_footprint(&s->dset) + agg_table_owned(&s->dset);
    n += (uint64_t)s->scratch_cap * (8+8+4+4+4);
    n += agg_iset_footprint(&s->iset);
    if( s->split ) n += agg_dsplit_footprint(s->split);
    n += (uint64_t)s->cseen_cap*8 + s->dpassed_cap;
  }
  return n;
}

/* Is arg, at rows[0..n), INTEGER or NULL throughout? */
static int agg_all_int(const col_vector *arg, const uint32_t *rows, uint32_t n){
  if( arg->type!=CV_INT ) return 0;
  if( arg->form==CV_DICT ){
    const col_vector *d = arg->dict;
    if( d->type!=CV_INT ) return 0;
    if( d->tags ) for(uint32_t j=0; j<d->n; j++) if( d->tags[j]!=CV_INT && d->tags[j]!=CV_NULL ) return 0;
  }
  if( arg->tags ){
    if( arg->form==CV_CONST ) return arg->tags[0]==CV_INT || arg->tags[0]==CV_NULL;
    for(uint32_t k=0; k<n; k++){
      int t = arg->tags[rows[k]];
      if( t!=CV_INT && t!=CV_NULL ) return 0;
    }
  }
  return 1;
}

static int agg_distinct_scratch(agg_state *s, uint32_t nrow){
  if( nrow <= s->scratch_cap ) return 0;
  int64_t *g = realloc(s->g64, (size_t)nrow*8);
  if( g ) s->g64 = g;
  uint64_t *h = realloc(s->h, (size_t)nrow*8);
  if( h ) s->h = h;
  uint32_t *t = realloc(s->tmp, (size_t)nrow*4);
  if( t ) s->tmp = t;
  uint32_t *g1 = realloc(s->g1, (size_t)nrow*4);
  if( g1 ) s->g1 = g1;
  uint32_t *f = realloc(s->fresh, (size_t)nrow*4);
  if( f ) s->fresh = f;
  if( !g || !h || !t || !g1 || !f ) return -1;
  s->scratch_cap = nrow;
  return 0;
}

/* Insert pairs (gid[k], arg at rows[k]) into the general set dset; with
** fresh!=0, keep in rows/gid only the pairs that were new. */
static int agg_dset_add(agg_state *s, const col_vector *arg, uint32_t nrow,
                        uint32_t *rows, uint32_t *gid, uint32_t *pn, col_error *err){
  uint32_t n = *pn;
  for(uint32_t k=0; k<n; k++) s->g64[rows[k]] = gid[k];
  col_vector gv;
  memset(&gv, 0, sizeof(gv));
  gv.type = CV_INT; gv.form = CV_FLAT; gv.n = nrow; gv.i64 = s->g64;
  const col_vector *pair[2] = { &gv, arg };
  /* one group: the set holds the values alone (no group column to store,
  ** hash or compare) */
  const col_vector *const *keys = s->single ? pair + 1 : pair;
  if( agg_hash_keys(&s->hs, keys, s->single ? 1 : 2, rows, n, s->h) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  uint32_t expect = s->dset.ngroup, nnew;
  int rc = agg_table_lookup(&s->dset, keys, rows, n, s->h, s->tmp, &nnew, err);
  if( rc ) return rc;
  uint32_t m = 0;
  for(uint32_t k=0; k<n; k++){
    if( s->tmp[k]==expect ){ expect++; rows[m] = rows[k]; gid[m] = gid[k]; m++; }
  }
  *pn = m;
  return COL_OK;
}

static int cmp_ipair_seq(const void *a, const void *b){
  uint32_t x = ((const agg_ipair*)a)->seq, y = ((const agg_ipair*)b)->seq;
  return x<y ? -1 : x>y;
}

/* Does this DISTINCT aggregate's answer follow the order its values
** arrive in? group_concat's text and the json arrays do, and any_value
** keeps the first; counts, sums of INTEGERs (exact), min and max do not. */
static int agg_kind_ordered(agg_kind k){
  return k==AGG_GROUP_CONCAT || k==AGG_JSON_ARRAY || k==AGG_JSON_OBJECT || k==AGG_ANY_VALUE;
}

/* Feed set's pairs, their groups renamed by map (NULL: as they are), a
** chunk at a time: into dset alone (count==0, their counts already made),
** or through s's DISTINCT filter and aggregate (count!=0). */
static int agg_iset_feed(agg_state *s, const agg_iset *set, const uint32_t *map,
                         int count, col_error *err){
  enum { CHUNK = 1024 };
  int64_t vals[CHUNK];
  uint32_t rows[CHUNK], gid[CHUNK];
  if( !count && agg_distinct_scratch(s, CHUNK) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  /* The buckets hold the pairs in hash order. Where the answer follows
  ** the values' order (a lane's pairs merged after the lane before, a
  ** set moved into dset, which a later merge reads in its order), they go
  ** in the order they came: group_concat(DISTINCT x) by a key over
  ** INTEGERs, lanes=on, had each lane's new values in hash order. */
  const agg_ipair *pairs = set->b;
  uint32_t npair = set->nbucket;
  agg_ipair *sorted = 0;
  if( agg_kind_ordered(s->kind) && set->n>0 ){
    sorted = malloc((size_t)set->n * sizeof(agg_ipair));
    if( sorted==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
    uint32_t m = 0;
    for(uint32_t j=0; j<set->nbucket && m<set->n; j++) if( set->b[j].g ) sorted[m++] = set->b[j];
    qsort(sorted, m, sizeof(agg_ipair), cmp_ipair_seq);
    pairs = sorted; npair = m;
  }
  col_vector vv;
  memset(&vv, 0, sizeof(vv));
  vv.type = CV_INT; vv.form = CV_FLAT; vv.n = CHUNK; vv.i64 = vals;
  int rc = COL_OK;
  uint32_t j = 0;
  while( j<npair && rc==COL_OK ){
    uint32_t n = 0;
    for(; j<npair && n<CHUNK; j++){
      const agg_ipair *e = &pairs[j];
      if( e->g==0 ) continue;
      vals[n] = e->v; rows[n] = n; gid[n] = map ? map[e->g - 1] : e->g - 1; n++;
    }
    if( n==0 ) continue;
    rc = count ? agg_state_update(s, &vv, 0, CHUNK, rows, gid, n, err)
               : agg_dset_add(s, &vv, CHUNK, rows, gid, &n, err);
  }
  free(sorted);
  return rc;
}

/* Move the INTEGER pairs, the helper's part too, into dset. */
static int agg_iset_retire(agg_state *s, col_error *err){
  int rc = agg_state_settle(s, err);
  if( rc ) return rc;
  s->iset_off = 1;
  rc = agg_iset_feed(s, &s->iset, 0, 0, err);
  if( rc==COL_OK && s->split ) rc = agg_iset_feed(s, agg_dsplit_set(s->split), 0, 0, err);
  agg_dsplit_free(s->split);
  s->split = 0;
  agg_iset_free(&s->iset);
  return rc;
}

/* Without keys, over a dictionary named by dict_id: keep the rows whose
** entry has not reached the set since the dictionary arrived (see
** dpassed); -1 on OOM. */
static int agg_distinct_passed(agg_state *s, const col_vector *arg, uint32_t *rows,
                               uint32_t *gid, uint32_t *pn){
  uint32_t nd = arg->dict->n;
  if( arg->dict_id!=s->dpassed_id ){ s->dpassed_id = arg->dict_id; s->dpassed_n = 0; }
  if( nd > s->dpassed_n ){
    /* a new dictionary, or entries appended to this one (vector.h) */
    if( nd > s->dpassed_cap ){
      uint32_t cap = nd > 2*s->dpassed_cap ? nd : 2*s->dpassed_cap;
      uint8_t *d = realloc(s->dpassed, cap);
      if( d==0 ) return -1;
      s->dpassed = d; s->dpassed_cap = cap;
    }
    memset(s->dpassed + s->dpassed_n, 0, nd - s->dpassed_n);
    s->dpassed_n = nd;
  }
  uint8_t *passed = s->dpassed;
  uint32_t n = *pn, m = 0;
  for(uint32_t k=0; k<n; k++){
    uint32_t c = arg->codes[rows[k]];
    if( c>=nd || passed[c] ) continue;
    passed[c] = 1;
    rows[m] = rows[k]; gid[m] = gid[k]; m++;
  }
  *pn = m;
  return 0;
}

void agg_state_split_at(agg_state *s, uint32_t pairs, uint32_t quarters){
  if( s->kind!=AGG_COUNT || !s->distinct ) return;
  s->split_at = pairs;
  s->split_share = quarters<1 ? 1 : quarters>3 ? 3 : quarters;
}

/* Start the helper and move to it the pairs of the set that are its: the
** set is rebuilt with the rest. The helper's counts of those pairs (new
** to it, not to the query) are cleared. */
static int agg_split_start(agg_state *s, col_error *err){
  enum { CHUNK = 1024 };
  col_error e;
  col_error_clear(&e);
  s->split = agg_dsplit_new(&e);
  if( s->split==0 ){
    /* no thread to be had: carry on alone */
    s->split_at = 0;
    if( e.code==COL_ENOMEM ){ *err = e; return e.code; }
    return COL_OK;
  }
  agg_iset old = s->iset;
  memset(&s->iset, 0, sizeof(s->iset));
  uint64_t h[CHUNK];
  int64_t v[CHUNK];
  uint32_t g1[CHUNK], fresh[CHUNK];
  int rc = COL_OK;
  if( agg_iset_grow(&s->iset, old.n) ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  /* the helper's expected share, and a little */
  if( rc==COL_OK ) rc = agg_dsplit_reserve(s->split, (uint64_t)old.n*s->split_share/4 + old.n/16, err);
  for(uint32_t j=0; j<old.nbucket && rc==COL_OK; ){
    agg_dsplit_buf *b = agg_dsplit_room(s->split, CHUNK, err);
    if( b==0 ){ rc = err->code; break; }
    uint32_t n = 0, r = b->n, r0 = b->n;
    for(; j<old.nbucket && n+(r-r0)<CHUNK; j++){
      const agg_ipair *e2 = &old.b[j];
      if( e2->g==0 ) continue;
      uint64_t x = agg_ipair_hash(e2->g, e2->v);
      if( agg_dsplit_away(x, s->split_share) ){ b->g1[r] = e2->g; b->v[r] = e2->v; b->h[r] = x; r++; }
      else{ g1[n] = e2->g; v[n] = e2->v; h[n] = x; n++; }
    }
    b->n = r;
    agg_iset_insert(&s->iset, h, g1, v, n, fresh);
  }
  agg_iset_free(&old);
  if( rc==COL_OK ) rc = agg_dsplit_wait(s->split, err);
  if( rc==COL_OK ) agg_dsplit_take_counts(s->split, 0, 0);
  return rc;
}

/* Send the pairs of the batch (s->g1, g64, h, with rows and gid) whose hash
** names the helper to it; the rest are compacted to the front. Branch-free:
** the bit is a coin toss per pair. */
static int agg_split_hand_off(agg_state *s, uint32_t *rows, uint32_t *gid,
                              uint32_t *pn, col_error *err){
  uint32_t n = *pn;
  agg_dsplit_buf *b = agg_dsplit_room(s->split, n, err);
  if( b==0 ) return err->code;
  uint64_t *h = s->h;
  int64_t *val = s->g64;
  uint32_t *g1 = s->g1;
  uint32_t r = b->n, m = 0;
  for(uint32_t k=0; k<n; k++){
    uint64_t x = h[k];
    uint32_t away = agg_dsplit_away(x, s->split_share);
    b->g1[r] = g1[k]; b->v[r] = val[k]; b->h[r] = x;
    g1[m] = g1[k]; val[m] = val[k]; h[m] = x; rows[m] = rows[k]; gid[m] = gid[k];
    r += away; m += 1 - away;
  }
  b->n = r;
  *pn = m;
  return COL_OK;
}

int agg_state_settle(agg_state *s, col_error *err){
  if( s->split==0 ) return COL_OK;
  int rc = agg_dsplit_wait(s->split, err);
  if( rc ) return rc;
  /* groups past the states' capacity saw no pair */
  agg_dsplit_take_counts(s->split, s->a, s->cap);
  return COL_OK;
}

/* Keep only the first row of each (group, value) pair not seen before. */
static int agg_distinct_filter(agg_state *s, const col_vector *arg, uint32_t nrow,
                               uint32_t *rows, uint32_t *gid, uint32_t *pn,
                               col_error *err){
  uint32_t n = *pn;
  if( agg_distinct_scratch(s, nrow) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  /* NULLs never reach an aggregate's step, so they need no place in the set. */
  uint32_t m = 0, gmax = 0;
  if( arg->form==CV_FLAT && arg->tags==0 && arg->type!=CV_NULL ){
    m = n;
  }else{
    for(uint32_t k=0; k<n; k++){
      if( cv_tag(arg, rows[k])!=CV_NULL ){
        rows[m] = rows[k]; gid[m] = gid[k]; m++;
        gmax = gid[k]>gmax ? gid[k] : gmax;
      }
    }
  }
  n = m;
  if( arg->form==CV_DICT && s->single && arg->dict_id ){
    if( agg_distinct_passed(s, arg, rows, gid, &n) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
    }
  }else if( arg->form==CV_DICT && n>1 ){
    int rc = agg_codes_first(&s->cseen, &s->cseen_cap, arg->codes, arg->dict->n, gmax + 1, rows, gid, &n);
    if( rc ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  if( !s->iset_off ){
    if( agg_all_int(arg, rows, n) ){
      uint64_t *h = s->h;
      int64_t *val = s->g64;
      uint32_t *g1 = s->g1;
      /* A filter leaves the rows sparse, and in a pipeline another core
      ** decoded them: each value was a miss (three quarters of this loop
      ** in Q11 at threads=2). Asked for ahead, Q11 0.047 -> 0.043 s and
      ** Q12 0.053 -> 0.045 s in medians of alternated runs. */
      const int64_t *flat = arg->form==CV_FLAT ? arg->i64 : 0;
      for(uint32_t k=0; k<n; k++){
        if( flat && k+32<n ) __builtin_prefetch(&flat[rows[k+32]]);
        int64_t v = cv_int(arg, rows[k]);
        val[k] = v;
        g1[k] = gid[k] + 1;
        h[k] = agg_ipair_hash(g1[k], v);
      }
      if( s->split_at && s->split==0 && s->iset.n >= s->split_at ){
        int rc = agg_split_start(s, err);
        if( rc ) return rc;
      }
      if( s->split && n ){
        int rc = agg_split_hand_off(s, rows, gid, &n, err);
        if( rc ) return rc;
      }
      if( agg_iset_grow(&s->iset, (uint64_t)s->iset.n + n) ){
        return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
      }
      uint32_t *fresh = s->fresh;
      m = agg_iset_insert(&s->iset, h, g1, val, n, fresh);
      for(uint32_t j=0; j<m; j++){ rows[j] = rows[fresh[j]]; gid[j] = gid[fresh[j]]; }
      *pn = m;
      return COL_OK;
    }
    int rc = agg_iset_retire(s, err);
    if( rc ) return rc;
    if( agg_distinct_scratch(s, nrow) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
    }
  }
  *pn = n;
  return agg_dset_add(s, arg, nrow, rows, gid, pn, err);
}

/* The sum of |x| over rows[0..n) (through codes c when not NULL): a bound,
** so in four independent sums, not one chain of dependent adds, which took
** as long as the sum itself. */
static double agg_abs_bound(const int64_t *x, const uint32_t *c, const uint32_t *rows,
                            uint32_t n){
#define AGG_ABS_AT(k) fabs((double)x[c ? c[rows[k]] : rows[k]])
  double b[4] = { 0, 0, 0, 0 };
  uint32_t k = 0;
  for(; k+4<=n; k+=4){
    for(int j=0; j<4; j++) b[j] += AGG_ABS_AT(k+j);
  }
  for(; k<n; k++) b[0] += AGG_ABS_AT(k);
#undef AGG_ABS_AT
  return (b[0] + b[1]) + (b[2] + b[3]);
}

static void agg_sum_add(agg_sum *p, const pred_value *x0, double *absum, int kbn, int atof){
  pred_value x = agg_numeric_affinity(atof, x0);
  if( x.type==CV_INT ){
    *absum += fabs((double)x.i);
    if( kbn ) agg_kbn_int(p, x.i);
    else agg_plain_int(p, x.i);
  }else if( kbn ){
    agg_kbn_real(p, agg_real_value(atof, &x));
  }else{
    agg_plain_real(p, agg_real_value(atof, &x));
  }
}

static int agg_best_set(agg_state *s, agg_best *b, const pred_value *x){
  char *p = 0;
  if( x->type==CV_TEXT || x->type==CV_BLOB ){
    p = malloc(x->n ? x->n : 1);
    if( p==0 ) return -1;
    if( x->n ) memcpy(p, x->p, x->n);
  }
  if( b->p ){ s->owned -= b->n ? b->n : 1; free(b->p); }
  b->p = p;
  if( p ) s->owned += x->n ? x->n : 1;
  b->tag = x->type; b->n = x->n; b->i = x->i; b->f = x->f;
  return 0;
}

/* A group's text is a bigmem block: one of a MiB or more is a mapping in
** huge pages. malloc'd, a long group_concat's pages were faulted in 4 KiB
** at a time, in a query's second run in a process too (glibc's mmap
** threshold was still settling): the phrases of a counter, newest first,
** at threads=2, second run 174-183 -> 134 ms. Capacity for need bytes in
** t, doubling. */
static int agg_text_reserve(agg_state *s, agg_text *t, uint64_t need){
  if( need <= t->cap ) return 0;
  uint64_t cap = t->cap ? t->cap*2 : 32;
  while( cap < need ) cap *= 2;
  char *q = agg_mem_realloc(t->p, (size_t)cap);
  if( q==0 ) return -1;
  s->owned += cap - t->cap;
  t->p = q; t->cap = cap;
  return 0;
}

/* Room for need more bytes past t's text, and the separator sp[0..sn)
** written at its start; *at is where a value goes after it (NULL while t
** has no bytes at all). t->n is left for the caller. -1 when out of
** memory. */
static int agg_text_put_sep(agg_state *s, agg_text *t, const char *sp, uint32_t sn,
                            uint64_t need, char **at){
  if( agg_text_reserve(s, t, t->n + need) ) return -1;
  char *o = t->p ? t->p + t->n : 0;
  agg_copy_bytes(o, sp, sn);
  *at = o ? o + sn : 0;
  return 0;
}

/* The separator sp[0..sn), then p[0..n), with one check of room. */
static int agg_text_append_sep(agg_state *s, agg_text *t, const char *sp, uint32_t sn,
                               const char *p, uint64_t n){
  if( t->n + sn + n > s->text_max ){ s->toobig = 1; return -1; }
  char *o;
  if( agg_text_put_sep(s, t, sp, sn, sn + n, &o) ) return -1;
  agg_copy_bytes(o, p, (size_t)n);
  t->n += sn + n;
  return 0;
}

static int agg_text_append(agg_state *s, agg_text *t, const char *p, uint64_t n){
  return agg_text_append_sep(s, t, "", 0, p, n);
}

/* The separator sp[0..sn), then INTEGER v's digits, written where they go
** in t: through a buffer they were two copies of a length known only at
** run time, two calls to memmove a row (group_concat over 10M INTEGERs,
** T10). The room asked for is the most digits and their NUL; the length
** against text_max is the one written. */
static int agg_text_append_int(agg_state *s, agg_text *t, const char *sp, uint32_t sn,
                               int64_t v){
  char *o;
  if( agg_text_put_sep(s, t, sp, sn, sn + 21, &o) ) return -1;
  uint64_t n = sn + (uint64_t)agg_int_to_text(v, o);
  if( t->n + n > s->text_max ){ s->toobig = 1; return -1; }
  t->n += n;
  return 0;
}

/* Why an append to a group's text failed. */
static int agg_text_error(const agg_state *s, col_error *err){
  if( s->toobig ) return col_error_set(err, COL_ERROR, "string or blob too big");
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory in an aggregate");
}

/* A json aggregate's opening and closing bracket. */
static const char *agg_json_brackets(agg_kind kind){
  return kind==AGG_JSON_ARRAY ? "[]" : "{}";
}

/* One more JSON fragment p[0..n) in t, which always holds whole JSON
** text: the closing bracket becomes a comma before the fragment. */
static int agg_json_append(agg_state *s, agg_text *t, const char *brackets,
                           const char *p, uint64_t n){
  if( t->any ) t->p[t->n-1] = ',';
  else if( agg_text_append(s, t, brackets, 1) ) return -1;
  t->any = 1;
  if( agg_text_append(s, t, p, n) || agg_text_append(s, t, brackets+1, 1) ) return -1;
  return 0;
}

/* The text SQLite's sqlite3_value_text gives for x (x not NULL). */
static const char *agg_text_of(const agg_state *s, const pred_value *x, char *buf,
                               uint32_t *n){
  switch( x->type ){
    case CV_INT: *n = (uint32_t)agg_int_to_text(x->i, buf); return buf;
    case CV_REAL: *n = (uint32_t)agg_real_to_text(s->dialect, x->f, buf); return buf;
    default: *n = x->n; return x->p ? x->p : "";
  }
}

/* Sort idx[0..n) by the values of flat vector d they index (merge sort,
** stable; tmp holds n). */
static void agg_sort_entries(const col_vector *d, uint32_t *idx, uint32_t *tmp, uint32_t n){
  if( n<2 ) return;
  if( n<=12 ){
    for(uint32_t i=1; i<n; i++){
      uint32_t x = idx[i];
      pred_value vx = agg_value_at(d, x);
      uint32_t j = i;
      while( j>0 ){
        pred_value vy = agg_value_at(d, idx[j-1]);
        if( agg_value_compare(&vy, &vx)<=0 ) break;
        idx[j] = idx[j-1]; j--;
      }
      idx[j] = x;
    }
    return;
  }
  uint32_t h = n/2;
  agg_sort_entries(d, idx, tmp, h);
  agg_sort_entries(d, idx+h, tmp, n-h);
  uint32_t i = 0, j = h, k = 0;
  while( i<h && j<n ){
    pred_value a = agg_value_at(d, idx[i]), b = agg_value_at(d, idx[j]);
    tmp[k++] = agg_value_compare(&b, &a)<0 ? idx[j++] : idx[i++];
  }
  while( i<h ) tmp[k++] = idx[i++];
  while( j<n ) tmp[k++] = idx[j++];
  memcpy(idx, tmp, (size_t)n*4);
}

#define AGG_COUNT_FEW 256        /* groups agg_count_rows splits its counts for */

/* c[gid[k]]++ for k < n, groups below cap. With few groups, rows in a row
** are often of one group (T6: 84% of its rows are in one), and each
** increment of that group's word waits for the one before (a store then a
** load of one address): four partial counts, each taking every fourth
** row, wait a quarter as often. */
static void agg_count_rows(int64_t *c, uint32_t cap, const uint32_t *gid, uint32_t n){
  if( cap > AGG_COUNT_FEW || n < 4*cap ){
    for(uint32_t k=0; k<n; k++) c[gid[k]]++;
    return;
  }
  uint32_t h[4][AGG_COUNT_FEW];
  memset(h, 0, sizeof(h));
  uint32_t k = 0;
  for(; k+4<=n; k+=4){
    h[0][gid[k]]++; h[1][gid[k+1]]++; h[2][gid[k+2]]++; h[3][gid[k+3]]++;
  }
  for(; k<n; k++) h[0][gid[k]]++;
  for(uint32_t g=0; g<cap; g++) c[g] += (int64_t)h[0][g] + h[1][g] + h[2][g] + h[3][g];
}

/* min/max over a dictionary vector: rank the entries once, find each
** group's best code for the batch by rank, then compare that one value
** with the group's state. Equal values share a rank, so the first row of
** a tie wins, as row-by-row. Returns 1 when done, 0 to go row by row, -1
** on OOM. */
static int agg_minmax_dict(agg_state *s, const col_vector *arg, uint32_t *rows,
                           uint32_t *gid, uint32_t n){
  const col_vector *d = arg->dict;
  uint32_t nd = d->n;
  if( nd==0 || nd > n/2 ) return 0;
  if( nd > s->rank_cap ){
    uint32_t *r = realloc(s->rank, (size_t)nd*4);
    if( r ) s->rank = r;
    uint32_t *o = realloc(s->order, (size_t)nd*8 + 8);
    if( o ) s->order = o;
    if( !r || !o ) return -1;
    s->rank_cap = nd;
  }
  if( s->cap > s->bcode_cap ){
    int32_t *b = realloc(s->bcode, (size_t)s->cap*4);
    if( b==0 ) return -1;
    memset(b + s->bcode_cap, 0xff, (size_t)(s->cap - s->bcode_cap)*4);
    s->bcode = b;
    s->bcode_cap = s->cap;
  }
  uint32_t *idx = s->order;
  for(uint32_t j=0; j<nd; j++) idx[j] = j;
  agg_sort_entries(d, idx, idx + nd, nd);
  uint32_t rk = 0;
  for(uint32_t j=0; j<nd; j++){
    if( j ){
      pred_value a = agg_value_at(d, idx[j-1]), b = agg_value_at(d, idx[j]);
      if( agg_value_compare(&a, &b)!=0 ) rk++;
    }
    s->rank[idx[j]] = rk;
  }
  /* NULL entries (never expected in a dictionary) rank first: skip them */
  int want_min = s->kind==AGG_MIN;
  int32_t *bc = s->bcode;
  const uint32_t *rank = s->rank;
  const uint32_t *codes = arg->codes;
  if( n > s->touch_cap ){
    uint32_t *t = realloc(s->touch, (size_t)n*4);
    if( t==0 ) return -1;
    s->touch = t; s->touch_cap = n;
  }
  uint32_t *touched = s->touch;
  uint32_t nt = 0;
  for(uint32_t k=0; k<n; k++){
    uint32_t r = rows[k];
    if( arg->tags && arg->tags[r]==CV_NULL ) continue;
    uint32_t c = codes[r];
    if( d->tags && d->tags[c]==CV_NULL ) continue;
    uint32_t g = gid[k];
    int32_t cur = bc[g];
    if( cur<0 ){ bc[g] = (int32_t)c; touched[nt++] = g; continue; }
    if( want_min ? rank[c] < rank[cur] : rank[c] > rank[cur] ) bc[g] = (int32_t)c;
  }
  agg_best *a = s->a;
  int want = want_min ? 1 : -1;
  int rc = 1;
  for(uint32_t t=0; t<nt; t++){
    uint32_t g = touched[t];
    uint32_t c = (uint32_t)bc[g];
    bc[g] = -1;
    if( rc<0 ) continue;
    pred_value x = agg_value_at(d, c);
    agg_best *b = &a[g];
    if( b->tag!=CV_NULL ){
      pred_value cur;
      cur.type = b->tag; cur.i = b->i; cur.f = b->f; cur.p = b->p; cur.n = b->n;
      if( !(agg_value_compare(&cur, &x)*want > 0) ) continue;
    }
    if( agg_best_set(s, b, &x) ) rc = -1;
  }
  return rc;
}

/* min/max/any_value row by row, as minmaxStep: the first of equal values
** wins. With agg_state.hit, each row is marked as that step would leave
** it: skipped where the group has a value and the row's is NULL or not
** better, took otherwise (a NULL while there is none yet included). -1 on
** OOM. */
static int agg_best_rows(agg_state *s, const col_vector *arg, const uint32_t *rows,
                         const uint32_t *gid, uint32_t n){
  agg_best *a = s->a;
  uint8_t *hit = s->hit;
  int want = s->kind==AGG_MIN ? 1 : -1;
  for(uint32_t k=0; k<n; k++){
    pred_value x = agg_value_at(arg, rows[k]);
    agg_best *b = &a[gid[k]];
    if( hit ) hit[rows[k]] = AGG_HIT_SKIPPED;
    if( b->tag!=CV_NULL ){
      if( x.type==CV_NULL || s->kind==AGG_ANY_VALUE ) continue;
      pred_value cur;
      cur.type = b->tag; cur.i = b->i; cur.f = b->f; cur.p = b->p; cur.n = b->n;
      if( !(agg_value_compare(&cur, &x)*want > 0) ) continue;
    }
    if( hit ) hit[rows[k]] = AGG_HIT_TOOK;
    if( x.type!=CV_NULL && agg_best_set(s, b, &x) ) return -1;
  }
  return 0;
}

/* DISTINCT min/max keeping agg_state.hit: SQLite's DISTINCT passes a
** group's first NULL to the step (OP_Found finds the later ones), which
** the set here leaves out; so the rows go in runs between NULLs, each
** run through the set, each NULL on its own, in row order. */
static int agg_minmax_distinct_hit(agg_state *s, const col_vector *arg, uint32_t nrow,
                                   uint32_t *rows, uint32_t *gid, uint32_t n,
                                   col_error *err){
  agg_best *a = s->a;
  uint32_t k0 = 0;
  for(uint32_t k=0; k<=n; k++){
    if( k<n && cv_tag(arg, rows[k])!=CV_NULL ) continue;
    if( k>k0 ){
      uint32_t m = k - k0;
      int rc = agg_distinct_filter(s, arg, nrow, rows + k0, gid + k0, &m, err);
      if( rc ) return rc;
      if( agg_best_rows(s, arg, rows + k0, gid + k0, m) ) return agg_text_error(s, err);
    }
    if( k<n && !(agg_best_rep(&a[gid[k]]) & AGG_NULL_SEEN) ){
      agg_best_set_rep(&a[gid[k]], agg_best_rep(&a[gid[k]]) | AGG_NULL_SEEN);
      s->hit[rows[k]] = a[gid[k]].tag==CV_NULL ? AGG_HIT_TOOK : AGG_HIT_SKIPPED;
    }
    k0 = k + 1;
  }
  return COL_OK;
}

int agg_state_update(agg_state *s, const col_vector *arg, const col_vector *sep,
                     uint32_t nrow, uint32_t *rows, uint32_t *gid, uint32_t n,
                     col_error *err){
  if( s->distinct && arg && s->hit ) return agg_minmax_distinct_hit(s, arg, nrow, rows, gid, n, err);
  if( s->distinct && arg ){
    int rc = agg_distinct_filter(s, arg, nrow, rows, gid, &n, err);
    if( rc ) return rc;
  }
  switch( s->kind ){
    /* Without keys every row counts into group 0: counted in a register,
    ** not by incrementing one word in memory per row, a chain of
    ** store-to-load forwards. */
    case AGG_COUNT_STAR: {
      int64_t *c = s->a;
      if( s->single ){ c[0] += n; return COL_OK; }
      agg_count_rows(c, s->cap, gid, n);
      return COL_OK;
    }
    case AGG_COUNT: {
      int64_t *c = s->a;
      if( arg->form!=CV_DICT && arg->tags==0 && arg->type!=CV_NULL ){
        if( s->single ){ c[0] += n; return COL_OK; }
        agg_count_rows(c, s->cap, gid, n);
      }else if( s->single ){
        int64_t m = 0;
        for(uint32_t k=0; k<n; k++) m += cv_tag(arg, rows[k])!=CV_NULL;
        c[0] += m;
      }else{
        for(uint32_t k=0; k<n; k++) c[gid[k]] += cv_tag(arg, rows[k])!=CV_NULL;
      }
      return COL_OK;
    }
    case AGG_SUM: case AGG_TOTAL: case AGG_AVG: {
      agg_sum *a = s->a;
      /* x[rows[k]] into group gid[k] by STEP, each k < n. With one group
      ** its state stays in a local (registers), not memory, where every
      ** link of the chain of adds would take a store and a load. */
#define AGG_SUM_RUN(STEP, x, at) do{ \
        if( s->single ){ \
          agg_sum q = a[0]; \
          for(uint32_t k=0; k<n; k++) STEP(&q, (x)[at]); \
          a[0] = q; \
        }else{ \
          for(uint32_t k=0; k<n; k++) STEP(&a[gid[k]], (x)[at]); \
        } \
      }while(0)
      /* an expression over a dictionary (length(URL)) gives a dictionary
      ** of numbers: read through the codes, without a value per row */
      const col_vector *d = arg->form==CV_DICT ? arg->dict : 0;
      int dnum = d && arg->tags==0 && d->form==CV_FLAT && d->tags==0;
      if( arg->form==CV_FLAT && arg->tags==0 && arg->type==CV_INT ){
        const int64_t *x = arg->i64;
#ifdef __SIZEOF_INT128__
        if( s->single && s->batch_sums ){
          agg_sum_batch(&a[0], x, rows, n, s->kbn);
          return COL_OK;
        }
#endif
        if( s->kbn ) AGG_SUM_RUN(agg_kbn_int, x, rows[k]);
        else AGG_SUM_RUN(agg_plain_int, x, rows[k]);
        if( s->track_abs ) s->absum += agg_abs_bound(x, 0, rows, n);
      }else if( dnum && d->type==CV_INT ){
        const int64_t *x = d->i64;
        const uint32_t *c = arg->codes;
        if( s->kbn ) AGG_SUM_RUN(agg_kbn_int, x, c[rows[k]]);
        else AGG_SUM_RUN(agg_plain_int, x, c[rows[k]]);
        if( s->track_abs ) s->absum += agg_abs_bound(x, c, rows, n);
      }else if( arg->form==CV_FLAT && arg->tags==0 && arg->type==CV_REAL ){
        const double *x = arg->f64;
        if( s->kbn ) AGG_SUM_RUN(agg_kbn_real, x, rows[k]);
        else AGG_SUM_RUN(agg_plain_real, x, rows[k]);
      }else if( dnum && d->type==CV_REAL ){
        const double *x = d->f64;
        const uint32_t *c = arg->codes;
        if( s->kbn ) AGG_SUM_RUN(agg_kbn_real, x, c[rows[k]]);
        else AGG_SUM_RUN(agg_plain_real, x, c[rows[k]]);
      }else{
        int atof = agg_atof_mode(s->dialect);
        for(uint32_t k=0; k<n; k++){
          pred_value x = agg_value_at(arg, rows[k]);
          if( x.type!=CV_NULL ) agg_sum_add(&a[gid[k]], &x, &s->absum, s->kbn, atof);
        }
      }
#undef AGG_SUM_RUN
      return COL_OK;
    }
    case AGG_MIN: case AGG_MAX: case AGG_ANY_VALUE: {
      /* marking rows needs the rows' order, which the dictionary path's
      ** best code per group loses */
      if( arg->form==CV_DICT && s->kind!=AGG_ANY_VALUE && !s->hit ){
        int rc = agg_minmax_dict(s, arg, rows, gid, n);
        if( rc<0 ) goto oom;
        if( rc ) return COL_OK;
      }
      if( agg_best_rows(s, arg, rows, gid, n) ) goto oom;
      return COL_OK;
    }
    case AGG_GROUP_CONCAT: {
      agg_text *a = s->a;
      char buf[40], sbuf[40];
      for(uint32_t k=0; k<n; k++){
        pred_value x = agg_value_at(arg, rows[k]);
        if( x.type==CV_NULL ) continue;
        agg_text *t = &a[gid[k]];
        const char *sp = "";
        uint32_t sn = 0;
        if( t->any ){
          if( sep ){
            pred_value y = agg_value_at(sep, rows[k]);
            if( y.type!=CV_NULL ) sp = agg_text_of(s, &y, sbuf, &sn);
          }else{
            sp = ","; sn = 1;
          }
        }
        t->any = 1;
        if( x.type==CV_INT ){
          if( agg_text_append_int(s, t, sp, sn, x.i) ) goto oom;
          continue;
        }
        uint32_t xn;
        const char *xp = agg_text_of(s, &x, buf, &xn);
        if( agg_text_append_sep(s, t, sp, sn, xp, xn) ) goto oom;
      }
      return COL_OK;
    }
    case AGG_JSON_ARRAY: case AGG_JSON_OBJECT: {
      agg_text *a = s->a;
      const char *brackets = agg_json_brackets(s->kind);
      for(uint32_t k=0; k<n; k++){
        pred_value x = agg_value_at(arg, rows[k]);
        if( x.type==CV_NULL ) continue;
        if( x.type!=CV_TEXT ) return col_error_set(err, COL_ERROR, "%s", agg_json_blob_error(s->dialect));
        if( agg_json_append(s, &a[gid[k]], brackets, x.p, x.n) ) goto oom;
      }
      return COL_OK;
    }
  }
  return COL_OK;
oom:
  return agg_text_error(s, err);
}

/* p += x for kbn sums, x over rows after p's (lanes, in run order). Two
** exact sums stay exact; otherwise both become compensated sums and x's is
** added as its sum and its compensation, which differs from adding x's
** inputs one by one only in the last bits. The overflow flag follows 3.43
** where the flags decide it: x's inputs reach p's compensated sum without
** an overflow check, and a REAL among them (x approx without overflow)
** clears p's. Whether exact sums overflow depends on the order of the
** rows; the driver reruns serially when that can happen. */
static void agg_sum_merge_kbn(agg_sum *p, const agg_sum *x){
  int64_t t;
  int papprox = agg_sum_approx(p), xapprox = agg_sum_approx(x);
  p->cf += (uint64_t)agg_sum_cnt(x);
  if( !papprox && !xapprox && !__builtin_add_overflow(p->u.i, x->u.i, &t) ){
    p->u.i = t;
    return;
  }
  int overflow = papprox ? agg_sum_overflow(p) && !(xapprox && !agg_sum_overflow(x))
                         : agg_sum_overflow(x) || !xapprox;
  if( !papprox ) agg_kbn_start(p);
  if( xapprox ){
    agg_kbn_add(p, x->r);
    p->u.e += x->u.e;
  }else{
    agg_kbn_add_int(p, x->u.i);
  }
  p->cf = (p->cf & ~AGG_SUM_OVERFLOW) | (overflow ? AGG_SUM_OVERFLOW : 0);
}

/* DISTINCT: feed src's (group, value) pairs, in the order they were first
** seen where the set keeps it, through s's set into s. */
static int agg_merge_distinct(agg_state *s, const agg_state *src, const uint32_t *map,
                              col_error *err){
  enum { CHUNK = 1024 };
  uint32_t rows[CHUNK], gid[CHUNK];
  int rc = agg_iset_feed(s, &src->iset, map, 1, err);
  /* a split set's other part: once the helper is idle */
  if( rc==COL_OK && src->split && (rc = agg_dsplit_wait(src->split, err))==COL_OK ){
    rc = agg_iset_feed(s, agg_dsplit_set(src->split), map, 1, err);
  }
  if( rc ) return rc;
  const agg_table *d = &src->dset;
  cv_str *strs = d->ngroup ? malloc(CHUNK * sizeof(cv_str)) : 0;
  uint64_t *words = d->ngroup ? malloc(CHUNK * 8) : 0;
  if( d->ngroup && (strs==0 || words==0) ){
    free(strs); free(words);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  for(uint32_t from=0; from<d->ngroup && rc==COL_OK; from+=CHUNK){
    uint32_t n = d->ngroup - from < CHUNK ? d->ngroup - from : CHUNK;
    col_vector vv;
    agg_table_key_vector(d, src->single ? 0 : 1, from, n, &vv, strs, words);
    for(uint32_t k=0; k<n; k++){
      gid[k] = map[src->single ? 0 : AGG_KEY_WORD(&d->cols[0], from+k)]; rows[k] = k;
    }
    rc = agg_state_update(s, &vv, 0, n, rows, gid, n, err);
  }
  free(strs); free(words);
  return rc;
}

/* agg_state_merge and agg_state_merge_split: src's group g goes to state
** ds[part ? part[g] : 0] (every one the same aggregate; NULL for those
** no group goes to), at map[g]. */
static int agg_merge_into(agg_state *const *ds, int nds, const uint8_t *part,
                          const agg_state *src, const uint32_t *map, uint32_t ng,
                          const pred_value *sep, col_error *err){
  agg_state *s = 0;
  for(int i=0; i<nds && s==0; i++) s = ds[i];
  if( s==0 ) return COL_OK;           /* no destination: no group either */
#define AGG_DST(g) (s = ds[part ? part[g] : 0])
  if( ng > src->cap ) ng = src->cap;   /* groups src never reserved saw no row */
  switch( s->kind ){
    case AGG_COUNT_STAR: case AGG_COUNT: {
      const int64_t *c = src->a;
      if( part==0 ){
        int64_t *d = s->a;
        for(uint32_t g=0; g<ng; g++) if( map[g]!=AGG_EMPTY ) d[map[g]] += c[g];
        return COL_OK;
      }
      for(uint32_t g=0; g<ng; g++){
        if( map[g]!=AGG_EMPTY ) ((int64_t*)AGG_DST(g)->a)[map[g]] += c[g];
      }
      return COL_OK;
    }
    case AGG_SUM: case AGG_TOTAL: case AGG_AVG: {
      const agg_sum *c = src->a;
      /* the bound on |partial sums| (agg_state_sum_order_free) goes to
      ** every destination: each may hold any of src's groups */
      for(int i=0; i<nds; i++) if( ds[i] ) ds[i]->absum += src->absum;
      for(uint32_t g=0; g<ng; g++){
        const agg_sum *x = &c[g];
        if( agg_sum_cnt(x)==0 || map[g]==AGG_EMPTY ) continue;
        agg_sum *p = &((agg_sum*)AGG_DST(g)->a)[map[g]];
        if( s->kbn ){
          agg_sum_merge_kbn(p, x);
          continue;
        }
        p->cf += (uint64_t)agg_sum_cnt(x);
        p->r += x->r;
        p->cf |= x->cf & AGG_SUM_FLAGS;
        if( (p->cf & AGG_SUM_FLAGS)==0 && __builtin_add_overflow(p->u.i, x->u.i, &p->u.i) ){
          p->cf |= AGG_SUM_FLAGS;
        }
      }
      return COL_OK;
    }
    case AGG_MIN: case AGG_MAX: case AGG_ANY_VALUE: {
      const agg_best *c = src->a;
      int want = s->kind==AGG_MIN ? 1 : -1;
      for(uint32_t g=0; g<ng; g++){
        const agg_best *x = &c[g];
        if( map[g]==AGG_EMPTY ) continue;
        if( x->tag==CV_NULL ){
          agg_best *b = &((agg_best*)AGG_DST(g)->a)[map[g]];
          if( b->tag==CV_NULL ) agg_best_take_rep(b, x);
          continue;
        }
        agg_best *b = &((agg_best*)AGG_DST(g)->a)[map[g]];
        pred_value xv;
        xv.type = x->tag; xv.i = x->i; xv.f = x->f; xv.p = x->p; xv.n = x->n;
        if( b->tag!=CV_NULL ){
          if( s->kind==AGG_ANY_VALUE ) continue;
          pred_value cur;
          cur.type = b->tag; cur.i = b->i; cur.f = b->f; cur.p = b->p; cur.n = b->n;
          if( !(agg_value_compare(&cur, &xv)*want > 0) ) continue;   /* ties keep s's */
        }
        if( agg_best_set(s, b, &xv) ) goto oom;
        agg_best_take_rep(b, x);
      }
      return COL_OK;
    }
    case AGG_GROUP_CONCAT: {
      const agg_text *c = src->a;
      char sbuf[40];
      for(uint32_t g=0; g<ng; g++){
        const agg_text *x = &c[g];
        if( !x->any || map[g]==AGG_EMPTY ) continue;
        agg_text *t = &((agg_text*)AGG_DST(g)->a)[map[g]];
        if( t->any && sep && sep->type!=CV_NULL ){
          uint32_t sn;
          const char *sp = agg_text_of(s, sep, sbuf, &sn);
          if( agg_text_append(s, t, sp, sn) ) goto oom;
        }
        t->any = 1;
        if( agg_text_append(s, t, x->p, x->n) ) goto oom;
      }
      return COL_OK;
    }
    case AGG_JSON_ARRAY: case AGG_JSON_OBJECT: {
      /* src's fragments after s's: its text without its opening bracket */
      const agg_text *c = src->a;
      const char *brackets = agg_json_brackets(s->kind);
      for(uint32_t g=0; g<ng; g++){
        const agg_text *x = &c[g];
        if( !x->any || map[g]==AGG_EMPTY ) continue;
        agg_text *t = &((agg_text*)AGG_DST(g)->a)[map[g]];
        if( agg_json_append(s, t, brackets, x->p + 1, x->n - 2) ) goto oom;
      }
      return COL_OK;
    }
  }
  return COL_OK;
oom:
  return agg_text_error(s, err);
#undef AGG_DST
}

int agg_state_merge(agg_state *s, const agg_state *src, const uint32_t *map,
                    uint32_t ng, const pred_value *sep, col_error *err){
  if( s->distinct ) return agg_merge_distinct(s, src, map, err);
  return agg_merge_into(&s, 1, 0, src, map, ng, sep, err);
}

int agg_state_merge_split(agg_state *const *ds, int nds, const uint8_t *part,
                          const agg_state *src, const uint32_t *map, uint32_t ng,
                          const pred_value *sep, col_error *err){
  if( src->distinct ){
    return col_error_set(err, COL_ERROR, "group_by: DISTINCT states do not split");
  }
  return agg_merge_into(ds, nds, part, src, map, ng, sep, err);
}

void agg_state_compact(agg_state *s, const uint8_t *keep, uint32_t ng){
  if( ng > s->cap ) ng = s->cap;      /* groups never reserved hold nothing */
  size_t es = agg_elem_size(s->kind);
  char *a = s->a;
  uint32_t m = 0;
  for(uint32_t g=0; g<ng; g++){
    if( !keep[g] ){
      if( s->kind==AGG_MIN || s->kind==AGG_MAX || s->kind==AGG_ANY_VALUE ){
        free(((agg_best*)a)[g].p);
      }else if( AGG_KIND_TEXT(s->kind) ){
        agg_mem_free(((agg_text*)a)[g].p);
      }
      continue;
    }
    if( m!=g ) memcpy(a + (size_t)m*es, a + (size_t)g*es, es);
    m++;
  }
  /* the slots past the kept ones own nothing now */
  if( ng>m ) memset(a + (size_t)m*es, 0, (size_t)(ng - m)*es);
}

/* A json aggregate over no rows: [] or {}. */
static void agg_json_empty(agg_kind kind, pred_value *out){
  out->type = CV_TEXT; out->p = agg_json_brackets(kind); out->n = 2;
}

int agg_state_result(const agg_state *s, uint32_t g, pred_value *out,
                     char *buf, col_error *err){
  memset(out, 0, sizeof(*out));
  (void)buf;
  if( g>=s->cap ){
    /* a group no row reached (zero keys over no rows) */
    if( s->kind==AGG_COUNT_STAR || s->kind==AGG_COUNT ){ out->type = CV_INT; }
    else if( s->kind==AGG_TOTAL ){ out->type = CV_REAL; }
    else if( s->kind==AGG_JSON_ARRAY || s->kind==AGG_JSON_OBJECT ) agg_json_empty(s->kind, out);
    return COL_OK;
  }
  switch( s->kind ){
    case AGG_COUNT_STAR: case AGG_COUNT:
      out->type = CV_INT; out->i = ((const int64_t*)s->a)[g];
      return COL_OK;
    case AGG_SUM: case AGG_TOTAL: case AGG_AVG: {
      const agg_sum *p = &((const agg_sum*)s->a)[g];
      double r = s->kbn ? agg_kbn_value(p) : p->r;
      if( s->kind==AGG_TOTAL ){ out->type = CV_REAL; out->f = r; return COL_OK; }
      if( agg_sum_cnt(p)==0 ) return COL_OK;
      if( s->kind==AGG_AVG ){ out->type = CV_REAL; out->f = r/(double)agg_sum_cnt(p); return COL_OK; }
      if( agg_sum_overflow(p) ) return col_error_set(err, COL_ERROR, "integer overflow");
      if( agg_sum_approx(p) ){ out->type = CV_REAL; out->f = r; }
      else{ out->type = CV_INT; out->i = p->u.i; }
      return COL_OK;
    }
    case AGG_MIN: case AGG_MAX: case AGG_ANY_VALUE: {
      const agg_best *b = &((const agg_best*)s->a)[g];
      out->type = b->tag; out->i = b->i; out->f = b->f;
      out->p = b->p ? b->p : ""; out->n = b->n;
      return COL_OK;
    }
    case AGG_GROUP_CONCAT: {
      const agg_text *t = &((const agg_text*)s->a)[g];
      if( !t->any ) return COL_OK;
      out->type = CV_TEXT; out->p = t->p ? t->p : ""; out->n = (uint32_t)t->n;
      return COL_OK;
    }
    case AGG_JSON_ARRAY: case AGG_JSON_OBJECT: {
      const agg_text *t = &((const agg_text*)s->a)[g];
      if( !t->any ){ agg_json_empty(s->kind, out); return COL_OK; }
      out->type = CV_TEXT; out->p = t->p; out->n = (uint32_t)t->n;
      return COL_OK;
    }
  }
  return COL_OK;
}

int agg_state_check(const agg_state *s, uint32_t ngroup, col_error *err){
  if( s->kind!=AGG_SUM ) return COL_OK;
  uint32_t n = ngroup<s->cap ? ngroup : s->cap;
  const agg_sum *a = s->a;
  for(uint32_t g=0; g<n; g++){
    if( agg_sum_overflow(&a[g]) && agg_sum_cnt(&a[g])>0 ) return col_error_set(err, COL_ERROR, "integer overflow");
  }
  return COL_OK;
}

int agg_state_sum_order_free(const agg_state *s){
  if( s->kind!=AGG_SUM ) return 1;
  return s->absum < 9.2e18;   /* below 2^63, with room for rounding */
}

void agg_state_sum_bound(agg_state *s, double bound){
  s->absum += bound;
}

void agg_sum_exact_result(agg_kind kind, int64_t isum, int64_t cnt, pred_value *out){
  memset(out, 0, sizeof(*out));
  if( kind==AGG_TOTAL ){ out->type = CV_REAL; out->f = (double)isum; return; }
  if( cnt==0 ) return;
  if( kind==AGG_AVG ){ out->type = CV_REAL; out->f = (double)isum/(double)cnt; return; }
  out->type = CV_INT; out->i = isum;
}

void agg_state_set_sum(agg_state *s, uint32_t g, int64_t isum, int64_t cnt){
  agg_sum *p = &((agg_sum*)s->a)[g];
  memset(p, 0, sizeof(*p));
  p->u.i = isum; p->cf = (uint64_t)cnt;
  if( !s->kbn ) p->r = (double)isum;
}
