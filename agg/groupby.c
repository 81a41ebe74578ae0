/*
** groupby.c — the group by driver; see groupby.h for the design.
**
** Per batch: evaluate the key and argument expressions (column references
** cost nothing), hash the keys a column at a time, then each partition looks
** its rows up in its table (new groups get fresh states) and runs one
** column-at-a-time update per aggregate over its (row, group) pairs.
*/
#include "groupby_int.h"


void gb_ord_marks_free(groupby *gb);

static int gb_radix_eligible(const groupby *gb, const col_schema *schema);

/* Partitions of a radix lane once it holds rows back: 2M groups in
** partitions of 8k, each table small enough for L2. */
#define GB_RADIX_PARTS 256

/* A lane routes rows to its partitions by hash so that lanes fold a
** partition at a time on every thread; while its groups are few that
** buys nothing and costs a pass over every row, and every partition's
** lookups then see half-batches of scattered rows. So a lane starts
** single, its rows all in partition 0, and spreads its groups over its
** partitions once it holds GB_SINGLE_GROUPS / threads of them (a table of
** that many moves in well under a millisecond). Lanes that all stayed
** single fold partition 0 alone: at most that many groups per lane.
** At threads=2 over 10M rows, in-process, min of 6 (before -> after):
** GROUP BY CounterID with avg(length(URL)) (Q28) 282 -> 262 ms, by
** AdvEngineID with three aggregates 80 -> 67 ms, by strftime('%Y-%m-%d
** %H:00', EventTime) 111 -> 97 ms; many groups (Q17, Q34) unchanged. */
#define GB_SINGLE_GROUPS 32768

/* groupby_options.radix_repeats (rows of several values): at its
** radix_after-th group a lane holds rows back only if its rows left look
** set to make GB_RADIX_WAIT times as many groups and to take at most
** GB_RADIX_HOLD_SMALL bytes held, at about 2 + 8 bytes a value (radix.h).
** Else it streams on to GB_RADIX_WAIT times radix_after groups, and holds
** from there only if at least one row in GB_RADIX_REPEATS so far was not a
** new group. Splitting into 256 partitions and feeding them costs more
** than a table of a few hundred thousand groups does (Q42, 170k groups
** from 240k rows, 26-30 ms streamed against 42 ms held from the 65536th);
** rows of keys nearly all new gain nothing held back once the lane's table
** is large (GROUP BY WatchID, ClientIP: 1.08-1.12 s streamed against
** 1.43-1.76 s held; Q31, 9% of rows repeats by the 262144th group,
** 0.32-0.41 s streamed, 0.56-0.59 s held), while GROUP BY UserID with
** three aggregates (18%) went 1.56-1.60 -> 1.10-1.16 s held. Held from the
** 65536th group, a lane's table is spared the groups it would grow to and
** the fold that would probe them all again, and the bytes held are few
** enough that their fresh pages cost little. At threads=2, in-process,
** min of 5: Q31 (GROUP BY SearchEngineID, ClientIP with 3 aggregates
** where SearchPhrase <> '': 1.6M rows, 1.2M groups) 162-164 -> 131-132
** ms, and as a process's first query 205-486 -> 179-185 ms; Q32 (the same
** over WatchID, ClientIP, every row new) 138 -> 129-132 ms, first 202-403
** -> 242-245 ms; Q42 waits (108k groups foreseen). Q33, Q32 without the
** filter (10M rows, 220 MB to hold), streams: 0.35 s held hot, but 2.0 s
** against 0.6 s as a process's first query, the held bytes fresh pages. */
#define GB_RADIX_WAIT 4
#define GB_RADIX_REPEATS 8
#define GB_RADIX_HOLD_SMALL ((uint64_t)128 << 20)

/* ---- set up ------------------------------------------------------------- */

/* Expression j of aggregate it, for j < 2 + it->nob: its argument, its
** separator, then its ORDER BY terms (NULL where it has none). */
static agg_expr *gb_agg_expr(const agg_item *it, int j){
  return j==0 ? it->expr : j==1 ? it->sep : it->ob[j-2];
}

typedef struct gb_colset { int *cols; int n; int ncol; } gb_colset;
static void gb_add_col(void *ctx, int c){
  gb_colset *s = ctx;
  for(int i=0; i<s->n; i++) if( s->cols[i]==c ) return;
  s->cols[s->n++] = c;
}

/* Carve p's arrays from gb's zone from now on (agg_zone). */
static void gb_part_zone(groupby *gb, gb_part *p){
  agg_table_set_zone(&p->table, gb->zone);
  for(int a=0; a<gb->aggs.n && p->states; a++) p->states[a].zone = gb->zone;
}

/* Free p's row scratch (gb_part_scratch makes it again on demand). */
static void gb_part_scratch_free(gb_part *p){
  agg_mem_free(p->rows); agg_mem_free(p->gid); agg_mem_free(p->rows2); agg_mem_free(p->gid2);
  p->rows = p->gid = p->rows2 = p->gid2 = 0;
  p->cap = 0;
}

int gb_const_value(agg_expr *e, col_arena *arena, pred_value *out);

static int gb_part_init(groupby *gb, gb_part *p, col_error *err){
  memset(p, 0, sizeof(*p));
  if( agg_table_init(&p->table, gb->nindep) ) goto oom;
  /* every lookup hashes gb->kv, the table's keys, and nothing else */
  if( agg_table_hashes_exact(&p->table) ) goto oom;
  p->lsum = calloc((size_t)gb->nbase + 1, sizeof(int64_t*));
  p->lcnt = calloc((size_t)gb->nbase + 1, sizeof(int64_t*));
  if( p->lsum==0 || p->lcnt==0 ) goto oom;
  p->states = calloc(gb->aggs.n ? (size_t)gb->aggs.n : 1, sizeof(agg_state));
  if( p->states==0 ) goto oom;
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    /* an ORDER BY aggregate's rows reach its state deduplicated */
    if( agg_state_init(&p->states[a], (agg_kind)it->kind, it->distinct && !it->nob, gb->keys.n==0) ) goto oom;
    /* only sum() reads the bound (agg_state_sum_order_free): its error */
    p->states[a].track_abs = gb->lane && it->kind==AGG_SUM;
    p->states[a].batch_sums = gb->lane && (it->kind==AGG_TOTAL || it->kind==AGG_AVG);
    p->states[a].kbn = gb->dialect.sum_kbn;
    p->states[a].dialect = &gb->dialect;
    if( it->nob ){
      /* a constant separator (the usual one) is held once, not per row */
      pred_value sep;
      int konst = it->sep && gb_const_value(it->sep, &gb->arena, &sep);
      if( p->ord==0 && (p->ord = calloc((size_t)gb->aggs.n, sizeof(agg_ordbuf)))==0 ) goto oom;
      if( agg_ordbuf_init(&p->ord[a], it->nob, it->ob_desc, it->ob_nulls_first, &gb->ob_ts[gb->ov_at[a]],
                          it->sep && !konst ? 2 : 1, it->distinct ? it->ob_distinct : AGG_ORD_ALL) ) goto oom;
      if( konst && agg_ordbuf_const_sep(&p->ord[a], &sep) ) goto oom;
    }
  }
  gb_part_zone(gb, p);
  agg_table_set_pool(&p->table, gb->slab_pool);
  return COL_OK;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
}

void gb_part_free(groupby *gb, gb_part *p){
  agg_table_free(&p->table);
  if( p->states ){
    for(int a=0; a<gb->aggs.n; a++) agg_state_free(&p->states[a]);
  }
  if( p->ord ){
    for(int a=0; a<gb->aggs.n; a++) agg_ordbuf_free(&p->ord[a]);
    free(p->ord);
  }
  free(p->states); agg_mem_free(p->first_row);
  gb_part_scratch_free(p);
  agg_mem_free(p->dc_slot);
  agg_mem_free(p->dd_slot);
  free(p->hit);
  for(int b=0; b<gb->nbase; b++){
    if( p->lsum ) agg_mem_free(p->lsum[b]);
    if( p->lcnt ) agg_mem_free(p->lcnt[b]);
  }
  free(p->lsum); free(p->lcnt);
  if( p->dkeys ){
    for(int k=0; k<gb->keys.n; k++) agg_keycol_free(&p->dkeys[k]);
    free(p->dkeys);
  }
  memset(p, 0, sizeof(*p));
}

static void *gb_worker(void *arg);

void groupby_free(groupby *gb){
  if( gb==0 ) return;
  if( gb->sync_init ){
    pthread_mutex_lock(&gb->mu);
    gb->quit = 1;
    pthread_cond_broadcast(&gb->go);
    pthread_mutex_unlock(&gb->mu);
    for(int i=0; i<gb->nstarted; i++) pthread_join(gb->tids[i], 0);
    pthread_mutex_destroy(&gb->mu);
    pthread_cond_destroy(&gb->go);
    pthread_cond_destroy(&gb->done);
  }
  free(gb->tids);
  if( gb->parts ){
    for(int i=0; i<gb->nparts; i++) gb_part_free(gb, &gb->parts[i]);
  }
  free(gb->parts);
  agg_zone_free(gb->zone);      /* after the partitions carved from it */
  if( gb->msep ) for(int a=0; a<gb->aggs.n; a++) free(gb->msep[a]);
  agg_item_list_free(&gb->keys);
  agg_item_list_free(&gb->aggs);
  agg_expr_free(gb->where);
  free(gb->wsel);
  free(gb->cut_keys); free(gb->cut_used); free(gb->cut_sel);
  agg_hasher_free(&gb->hasher);
  col_arena_free(&gb->arena);
  free(gb->proj); free(gb->raw); free(gb->key_ts); free(gb->key_rep); free(gb->rep_hit); free(gb->hashes); free(gb->kv); free(gb->av); free(gb->sv);
  free(gb->ov); free(gb->ov_at); free(gb->ob_ts);
  free(gb->order_part); free(gb->order_slot); free(gb->order_at); free(gb->order_heap);
  gb_ord_marks_free(gb);
  agg_radix_free(&gb->held);
  free(gb->bases); free(gb->lin_base); free(gb->lin_k);
  free(gb->kcol);
  free(gb->msep); free(gb->msepn); free(gb->spart);
  free(gb);
}

/* ---- sums of a column (gb_base) ---------------------------------------- */

int gb_lin_reserve(groupby *gb, gb_part *p, uint32_t ngroup){
  if( ngroup<=p->lcap ) return 0;
  uint32_t cap = p->lcap ? p->lcap : 64;
  while( cap<ngroup ) cap = cap > UINT32_MAX/2 ? UINT32_MAX : cap*2;
  for(int b=0; b<gb->nbase; b++){
    if( !gb->bases[b].active ) continue;
    int64_t *x = agg_zone_grow_zeroed(p->table.zone, p->lsum[b], (size_t)p->lcap*8, (size_t)cap*8);
    if( x==0 ) return -1;
    p->lsum[b] = x;
    int64_t *c = agg_zone_grow_zeroed(p->table.zone, p->lcnt[b], (size_t)p->lcap*8, (size_t)cap*8);
    if( c==0 ) return -1;
    p->lcnt[b] = c;
  }
  p->lcap = cap;
  return 0;
}

/* Add rows[0..n) of v (INTEGER or NULL, checked) to groups gid[0..n). */
static void gb_lin_update(int64_t *S, int64_t *C, const col_vector *v,
                          const uint32_t *rows, const uint32_t *gid, uint32_t n,
                          int onegroup){
  if( v->form==CV_FLAT && v->tags==0 ){
    const int64_t *x = v->i64;
    if( onegroup ){
      int64_t a0 = 0, a1 = 0;
      uint32_t k = 0;
      for(; k+1<n; k+=2){ a0 += x[rows[k]]; a1 += x[rows[k+1]]; }
      if( k<n ) a0 += x[rows[k]];
      S[0] += a0 + a1; C[0] += n;
    }else{
      for(uint32_t k=0; k<n; k++){ S[gid[k]] += x[rows[k]]; C[gid[k]]++; }
    }
    return;
  }
  if( onegroup ){
    /* in registers: one word incremented per row is a chain of
    ** store-to-load forwards */
    int64_t a = 0, c = 0;
    if( v->form==CV_DICT && v->tags==0 && v->dict->tags==0 && v->dict->type==CV_INT ){
      /* four sums: one is a chain of dependent adds, each waiting on two
      ** loads, and its speed swung by a fifth with the loop's alignment */
      const int64_t *d = v->dict->i64;
      const uint32_t *codes = v->codes;
      int64_t a1 = 0, a2 = 0, a3 = 0;
      uint32_t k = 0;
      for(; k+4<=n; k+=4){
        a += d[codes[rows[k]]]; a1 += d[codes[rows[k+1]]];
        a2 += d[codes[rows[k+2]]]; a3 += d[codes[rows[k+3]]];
      }
      for(; k<n; k++) a += d[codes[rows[k]]];
      a += a1 + a2 + a3;
      c = n;
    }else{
      for(uint32_t k=0; k<n; k++){
        uint32_t r = rows[k];
        if( cv_tag(v, r)==CV_NULL ) continue;
        a += cv_int(v, r); c++;
      }
    }
    S[0] += a; C[0] += c;
    return;
  }
  for(uint32_t k=0; k<n; k++){
    uint32_t r = rows[k];
    if( cv_tag(v, r)==CV_NULL ) continue;
    S[gid[k]] += cv_int(v, r); C[gid[k]]++;
  }
}

/* Is v, over the batch's live rows, INTEGER or NULL? Then 1, with the
** largest magnitude in *m (over a dictionary: of all its entries). */
static int gb_lin_scan(const col_vector *v, const col_batch *b, double *m){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  const uint32_t *sel = b->sel;
  *m = 0;
  if( v->type!=CV_INT ) return 0;
  if( v->form==CV_CONST ){
    int tag = v->tags ? v->tags[0] : v->type;
    if( tag==CV_NULL ) return 1;
    if( tag!=CV_INT ) return 0;
    *m = fabs((double)v->i64[0]);
    return 1;
  }
  if( v->tags ){
    for(uint32_t k=0; k<nsel; k++){
      int t = v->tags[sel ? sel[k] : k];
      if( t!=CV_NULL && t!=CV_INT ) return 0;
    }
  }
  const col_vector *src = v;
  if( v->form==CV_DICT ){
    src = v->dict;
    if( src->type!=CV_INT ) return 0;
    if( src->tags ){
      for(uint32_t j=0; j<src->n; j++) if( src->tags[j]!=CV_INT && src->tags[j]!=CV_NULL ) return 0;
    }
    sel = 0; nsel = src->n;
  }
  int64_t lo = 0, hi = 0;
  const int64_t *x = src->i64;
  if( sel ){
    for(uint32_t k=0; k<nsel; k++){ int64_t y = x[sel[k]]; lo = y<lo ? y : lo; hi = y>hi ? y : hi; }
  }else{
    for(uint32_t k=0; k<nsel; k++){ int64_t y = x[k]; lo = y<lo ? y : lo; hi = y>hi ? y : hi; }
  }
  /* NULL rows' values are whatever the reader left: counted, harmlessly */
  double a = fabs((double)lo), c = fabs((double)hi);
  *m = a>c ? a : c;
  return 1;
}

/* Base b can no longer be summed exactly: give each of its aggregates its
** own state, holding what the sums so far say. */
int gb_lin_stop(groupby *gb, int b, col_error *err){
  for(int i=0; i<gb->nparts; i++){
    gb_part *p = &gb->parts[i];
    uint32_t ng = p->table.ngroup;
    for(int a=0; a<gb->aggs.n; a++){
      if( gb->lin_base[a]!=b ) continue;
      agg_state *s = &p->states[a];
      int rc = agg_state_reserve(s, ng, err);
      if( rc ) return rc;
      agg_state_sum_bound(s, gb->bases[b].rows * (gb->bases[b].maxabs + (double)gb->bases[b].maxk));
      for(uint32_t g=0; g<ng && g<p->lcap; g++){
        int64_t c = p->lcnt[b][g];
        if( c ) agg_state_set_sum(s, g, p->lsum[b][g] + c*gb->lin_k[a], c);
      }
    }
    agg_mem_free(p->lsum[b]); agg_mem_free(p->lcnt[b]);
    p->lsum[b] = 0; p->lcnt[b] = 0;
  }
  gb->bases[b].active = 0;
  return COL_OK;
}

#define GB_DERIVE_CHUNK 1024   /* groups a derived key is computed for at once */

/* Derived keys. A key computed only from other keys that are plain columns
** (ClientIP - 1 beside ClientIP), or from no column at all (1), takes one
** value per group: the rows of a group agree on those columns, so the table
** need neither hash nor store it, and groupby_finish computes it once per
** group from the stored keys. "Agree" must mean identical values: a REAL
** column's 0.0 and -0.0, or a column mixing 1 and 1.0, are one group whose
** rows could still give different values, so base columns must have one
** storage class that is not REAL (a Parquet UINT64 that overflows to REAL
** never equals one of the column's INTEGERs). Sets nindep and kcol. */
typedef struct gb_dep { groupby *gb; const col_schema *schema; int ok; } gb_dep;
static void gb_dep_col(void *ctx, int c){
  gb_dep *d = ctx;
  int t = d->schema->cols[c].type;
  int base = 0;
  for(int j=0; j<d->gb->keys.n && !base; j++) base = d->gb->keys.items[j].src_col==c;
  if( !base || (t!=CV_INT && t!=CV_TEXT && t!=CV_BLOB) ) d->ok = 0;
}
static int gb_derive_keys(groupby *gb, const col_schema *schema){
  gb->kcol = malloc(((size_t)gb->keys.n + 1) * sizeof(int));
  if( gb->kcol==0 ) return -1;
  gb->nindep = 0;
  for(int i=0; i<gb->keys.n; i++){
    const agg_item *it = &gb->keys.items[i];
    gb_dep d = { gb, schema, 1 };
    if( it->src_col<0 ) agg_expr_columns(it->expr, gb_dep_col, &d);
    if( it->src_col>=0 || !d.ok ){ gb->kcol[i] = gb->nindep++; continue; }
    /* A key that is never TEXT is computed when read, a chunk of groups at
    ** a time (values are copied out, so no pointer into a chunk outlives
    ** it): ORDER BY c DESC LIMIT 10 reads ten groups' keys, not millions.
    ** TEXT keys are computed for every group at the end. */
    gb->kcol[i] = agg_expr_never_text(it->expr) ? GB_DERIVED_LAZY : GB_DERIVED;
  }
  return 0;
}

/* Derive keys of kind `which` (GB_DERIVED or GB_DERIVED_LAZY) for slots
** [from, from+n) of partition p, n <= GB_DERIVE_CHUNK, from a batch made
** of the stored keys; each value goes to slot - base of its key's dkeys. */
static int gb_derive_chunk(groupby *gb, gb_part *p, int which, uint32_t from,
                           uint32_t n, uint32_t base, col_vector *cols, cv_str *strs,
                           uint64_t *words, col_error *err){
  /* each base column from its stored key; the other columns are never
  ** read by a derived key */
  for(int c=0; c<gb->nproj; c++){
    memset(&cols[c], 0, sizeof(col_vector));
    cols[c].form = CV_CONST; cols[c].n = n; cols[c].type = CV_NULL;
    for(int j=0; j<gb->keys.n; j++){
      if( gb->keys.items[j].src_col==gb->proj[c] && gb->kcol[j]>=0 ){
        agg_table_key_vector(&p->table, gb->kcol[j], from, n, &cols[c],
                             strs + (size_t)gb->kcol[j]*GB_DERIVE_CHUNK,
                             words + (size_t)gb->kcol[j]*GB_DERIVE_CHUNK);
        break;
      }
    }
  }
  col_batch b;
  memset(&b, 0, sizeof(b));
  b.n = n; b.nsel = n; b.ncols = gb->nproj; b.cols = cols;
  col_arena_reset(&gb->arena);
  for(int i=0; i<gb->keys.n; i++){
    if( gb->kcol[i]!=which ) continue;
    const col_vector *v;
    int rc = agg_expr_eval(gb->keys.items[i].expr, &b, &gb->arena, &v, err);
    if( rc ) return rc;
    for(uint32_t r=0; r<n; r++){
      pred_value x = agg_value_at(v, r);
      if( agg_keycol_set(&p->dkeys[i], from + r - base, &x) ){
        return col_error_set(err, COL_ENOMEM, "group_by: out of memory computing keys");
      }
    }
  }
  return COL_OK;
}

/* Derive keys of kind `which` for slots from.. of partition p: every group
** (GB_DERIVED, at finish) or the chunk holding slot `from` (lazy). */
int gb_derive(groupby *gb, gb_part *p, int which, uint32_t from, col_error *err){
  uint32_t ng = p->table.ngroup;
  uint32_t end = which==GB_DERIVED ? ng : (from + GB_DERIVE_CHUNK < ng ? from + GB_DERIVE_CHUNK : ng);
  uint32_t base = which==GB_DERIVED ? 0 : from;
  if( from>=end ) return COL_OK;
  if( p->dkeys==0 ){
    p->dkeys = calloc((size_t)gb->keys.n, sizeof(agg_keycol));
    if( p->dkeys==0 ) goto oom;
    for(int i=0; i<gb->keys.n; i++) agg_keycol_init(&p->dkeys[i]);
  }
  for(int i=0; i<gb->keys.n; i++){
    if( gb->kcol[i]==which && agg_keycol_reserve(&p->dkeys[i], end - base) ) goto oom;
  }
  col_vector *cols = calloc((size_t)gb->nproj + 1, sizeof(col_vector));
  cv_str *strs = malloc(((size_t)gb->nindep + 1) * GB_DERIVE_CHUNK * sizeof(cv_str));
  uint64_t *words = malloc(((size_t)gb->nindep + 1) * GB_DERIVE_CHUNK * 8);
  int rc = COL_OK;
  if( cols && strs && words ){
    for(uint32_t at=from; at<end && rc==COL_OK; at+=GB_DERIVE_CHUNK){
      uint32_t n = end - at < GB_DERIVE_CHUNK ? end - at : GB_DERIVE_CHUNK;
      rc = gb_derive_chunk(gb, p, which, at, n, base, cols, strs, words, err);
    }
  }else{
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory computing keys");
  }
  free(cols); free(strs); free(words);
  return rc;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory computing keys");
}

/* The values of a lazily derived key for the chunk holding slot. The chunk
** is a memo: reading a value through a const groupby may compute it. */
int gb_derive_lazy(const groupby *gb, int part, uint32_t slot, col_error *err){
  gb_part *p = (gb_part*)&gb->parts[part];
  uint32_t from = slot / GB_DERIVE_CHUNK * GB_DERIVE_CHUNK;
  if( p->dhave && p->dfrom==from ) return COL_OK;
  p->dhave = 0;
  int rc = gb_derive((groupby*)gb, p, GB_DERIVED_LAZY, from, err);
  if( rc ) return rc;
  p->dfrom = from; p->dhave = 1;
  return COL_OK;
}

/* Timestamp columns read only as the time value of date functions with
** a template, or as keys of their own, come as their stored integers:
** those functions then compute each distinct minute's (day's, ...) text
** once, not every row's text twice (the reader's, then the function's
** parse of it), and a key hashes and compares an integer, shown as the
** reader's text when read (the text is a one-to-one function of it, so
** the groups are the same). Sets raw and key_ts. */
static int gb_raw_timestamps(groupby *gb, const col_schema *schema){
  gb->raw = calloc((size_t)gb->nproj + 1, 1);
  gb->key_ts = calloc((size_t)gb->keys.n + 1, 1);
  if( gb->raw==0 || gb->key_ts==0 ) return -1;
  for(int c=0; c<gb->nproj; c++){
    int src = gb->proj[c];
    int unit = schema->cols[src].ts_unit;
    if( unit==0 || !agg_expr_ts_only(gb->where, src) ) continue;
    int ok = 1;
    for(int i=0; i<gb->keys.n && ok; i++){
      ok = gb->keys.items[i].src_col==src || agg_expr_ts_only(gb->keys.items[i].expr, src);
    }
    for(int i=0; i<gb->aggs.n && ok; i++){
      const agg_item *it = &gb->aggs.items[i];
      for(int j=0; j<2+it->nob && ok; j++){
        /* an ORDER BY term of the column itself orders by its integers */
        const agg_expr *x = gb_agg_expr(it, j);
        ok = agg_expr_ts_only(x, src) || (j>=2 && agg_expr_source_column(x)==src);
      }
    }
    if( !ok ) continue;
    gb->raw[c] = 1;
    for(int i=0; i<gb->keys.n; i++) if( gb->keys.items[i].src_col==src ) gb->key_ts[i] = (uint8_t)unit;
    agg_expr_set_ts(gb->where, src, unit);
    for(int i=0; i<gb->keys.n; i++) agg_expr_set_ts(gb->keys.items[i].expr, src, unit);
    for(int i=0; i<gb->aggs.n; i++){
      const agg_item *it = &gb->aggs.items[i];
      for(int j=0; j<2+it->nob; j++) agg_expr_set_ts(gb_agg_expr(it, j), src, unit);
    }
  }
  return 0;
}

/* Can a lane start single? Its partitions must be a power of two (the
** split routes by a mask, as gb_scatter does then), and its aggregates
** states that move group by group: not an ORDER BY aggregate's rows, not
** a DISTINCT set. */
static int gb_single_ok(const groupby *gb){
  if( gb->nthread & (gb->nthread-1) ) return 0;
  for(int a=0; a<gb->aggs.n; a++){
    if( gb->aggs.items[a].nob || gb->aggs.items[a].distinct ) return 0;
  }
  return 1;
}

/* Which keys need the row SQLite shows them from (GB_KEYREP), and which
** min/max calls tell it: SQLite numbers aggregate calls in written order,
** a call the same as an earlier one sharing that one's state, and the
** verdict is the last of them to see the row. Without DISTINCT that is
** the last one; with it, a duplicate row is left to the ones before. Only
** a key the table holds that may be a REAL can hold 1 and 1.0 (or -0.0
** and 0.0) in one group. */
static int gb_keyrep_plan(groupby *gb, const col_schema *schema){
  gb->rep_agg = -1;
  gb->rep_hit = calloc((size_t)gb->aggs.n + 1, 1);
  if( gb->rep_hit==0 ) return -1;
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    if( it->kind!=AGG_MIN && it->kind!=AGG_MAX ) continue;
    int first = 1;
    for(int b=0; b<a && first; b++){
      const agg_item *o = &gb->aggs.items[b];
      first = !(o->kind==it->kind && o->distinct==it->distinct && agg_expr_same(o->expr, it->expr));
    }
    if( !first ) continue;
    gb->rep_hit[a] = 1;
    gb->rep_agg = a;
  }
  if( gb->rep_agg<0 ) return 0;
  /* the last sees every row: its verdicts are the only ones */
  if( !gb->aggs.items[gb->rep_agg].distinct ){
    memset(gb->rep_hit, 0, (size_t)gb->aggs.n);
    gb->rep_hit[gb->rep_agg] = 1;
  }
  gb->key_rep = malloc((size_t)gb->keys.n + 1);
  if( gb->key_rep==0 ) return -1;
  for(int i=0; i<gb->keys.n; i++){
    gb->key_rep[i] = -1;
    if( gb->kcol[i]<0 || gb->key_ts[i] || gb->nrep==GB_KEYREP_MAX ) continue;
    if( !agg_expr_may_real(gb->keys.items[i].expr, schema) ) continue;
    /* where SQLite reads an expression key from its first row, as here:
    ** the last of identical ones alone (resolve.c links a GROUP BY term to
    ** the last result column that is the same expression; the others are
    ** computed from the row copied, as 3.40 computes them all) */
    int later = 0;
    for(int j=i+1; j<gb->keys.n && !later; j++){
      later = agg_expr_same(gb->keys.items[i].expr, gb->keys.items[j].expr);
    }
    if( gb->dialect.gb_term_first && !later && !agg_expr_bare_column(gb->keys.items[i].expr) ) continue;
    gb->key_rep[i] = (int8_t)gb->nrep;
    gb->rep_key[gb->nrep++] = i;
  }
  return 0;
}

int groupby_new(const char *keys, const char *aggs, const col_schema *schema,
                const groupby_options *opt, groupby **out, col_error *err){
  *out = 0;
  groupby *gb = calloc(1, sizeof(*gb));
  if( gb==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  col_arena_init(&gb->arena);
  agg_hasher_init(&gb->hasher);
  gb->nthread = opt && opt->threads>1 ? opt->threads : 1;
  gb->lane = opt && opt->lane;
  gb->radix_after = gb->lane && opt ? opt->radix_after : 0;
  gb->radix_repeats = opt && opt->radix_repeats;
  gb->lane_rows = opt ? opt->lane_rows : 0;
  gb->slab_pool = opt ? opt->slab_pool : 0;
  if( opt && opt->dialect ) gb->dialect = *opt->dialect;
  if( gb->nthread>256 ) gb->nthread = 256;
  /* Zero keys: one group, one partition; workers would only wake to find
  ** no rows of theirs (the reader's own threads still decode ahead). */
  if( keys==0 || strspn(keys, " \t\r\n")==strlen(keys) ) gb->nthread = 1;
  gb->memory_limit = opt ? opt->memory_limit : 0;
  if( agg_parse_list(keys, 0, schema, &gb->keys, err) ){
    col_error_prefix(err, "group_by: keys: ");
    goto fail;
  }
  /* keys of white space the test above does not know ("\f") parse as none */
  if( gb->keys.n==0 ) gb->nthread = 1;
  if( agg_parse_list(aggs, 1, schema, &gb->aggs, err) ){
    col_error_prefix(err, "group_by: aggregates: ");
    goto fail;
  }
  if( opt && opt->where && opt->where[strspn(opt->where, " \t\r\n")] ){
    if( agg_expr_parse(opt->where, schema, 2, &gb->where, 0, err) ){
      col_error_prefix(err, "group_by: filter: ");
      goto fail;
    }
  }
  for(int i=0; i<gb->keys.n; i++) agg_expr_set_dialect(gb->keys.items[i].expr, &gb->dialect, 0);
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    for(int j=0; j<2+it->nob; j++) agg_expr_set_dialect(gb_agg_expr(it, j), &gb->dialect, 0);
  }
  agg_expr_set_dialect(gb->where, &gb->dialect, 1);
  /* The projection: every column any expression reads, in first-use order. */
  gb_colset cs = { 0, 0, schema->n };
  cs.cols = malloc(((size_t)schema->n + 1) * sizeof(int));
  int *map = malloc(((size_t)schema->n + 1) * sizeof(int));
  if( cs.cols==0 || map==0 ){ free(cs.cols); free(map); goto oom; }
  for(int i=0; i<gb->keys.n; i++) agg_expr_columns(gb->keys.items[i].expr, gb_add_col, &cs);
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    for(int j=0; j<2+it->nob; j++) agg_expr_columns(gb_agg_expr(it, j), gb_add_col, &cs);
  }
  agg_expr_columns(gb->where, gb_add_col, &cs);
  for(int i=0; i<cs.n; i++) map[cs.cols[i]] = i;
  for(int i=0; i<gb->keys.n; i++) agg_expr_bind(gb->keys.items[i].expr, map);
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    for(int j=0; j<2+it->nob; j++) agg_expr_bind(gb_agg_expr(it, j), map);
  }
  agg_expr_bind(gb->where, map);
  free(map);
  gb->proj = cs.cols;
  gb->nproj = cs.n;
  if( gb_raw_timestamps(gb, schema) ) goto oom;
  if( gb_derive_keys(gb, schema) ) goto oom;
  if( gb_keyrep_plan(gb, schema) ) goto oom;
  gb->bases = calloc((size_t)gb->aggs.n + 1, sizeof(gb_base));
  gb->lin_base = calloc((size_t)gb->aggs.n + 1, sizeof(int));
  gb->lin_k = calloc((size_t)gb->aggs.n + 1, sizeof(int64_t));
  if( !gb->bases || !gb->lin_base || !gb->lin_k ) goto oom;
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    int bcol; int64_t k;
    gb->lin_base[i] = -1;
    if( it->distinct || it->nob || (it->kind!=AGG_SUM && it->kind!=AGG_TOTAL && it->kind!=AGG_AVG) ) continue;
    if( !agg_expr_linear(it->expr, &bcol, &k) ) continue;
    int b = 0;
    while( b<gb->nbase && gb->bases[b].bcol!=bcol ) b++;
    if( b==gb->nbase ){ gb->bases[b].bcol = bcol; gb->bases[b].active = 1; gb->nbase++; }
    uint64_t ak = (uint64_t)(k<0 ? -k : k);
    if( ak>gb->bases[b].maxk ) gb->bases[b].maxk = ak;
    gb->lin_base[i] = b;
    gb->lin_k[i] = k;
  }
  gb->kv = calloc((size_t)gb->nindep + 1, sizeof(*gb->kv));
  gb->av = calloc((size_t)gb->aggs.n + 1, sizeof(*gb->av));
  gb->sv = calloc((size_t)gb->aggs.n + 1, sizeof(*gb->sv));
  gb->ov_at = calloc((size_t)gb->aggs.n + 1, sizeof(int));
  if( gb->ov_at==0 ) goto oom;
  for(int i=0; i<gb->aggs.n; i++) gb->ov_at[i+1] = gb->ov_at[i] + gb->aggs.items[i].nob;
  gb->ov = calloc((size_t)gb->ov_at[gb->aggs.n] + 1, sizeof(*gb->ov));
  gb->ob_ts = calloc((size_t)gb->ov_at[gb->aggs.n] + 1, 1);
  if( gb->ob_ts==0 ) goto oom;
  for(int i=0; i<gb->aggs.n; i++){
    for(int t=0; t<gb->aggs.items[i].nob; t++){
      int src = agg_expr_source_column(gb->aggs.items[i].ob[t]);
      for(int c=0; c<gb->nproj && src>=0; c++){
        if( gb->proj[c]==src && gb->raw[c] ) gb->ob_ts[gb->ov_at[i] + t] = (uint8_t)schema->cols[src].ts_unit;
      }
    }
  }
  gb->nparts = gb->nthread;
  gb->parts = calloc((size_t)gb->nthread, sizeof(gb_part));
  if( !gb->kv || !gb->av || !gb->sv || !gb->ov || !gb->parts ) goto oom;
  for(int i=0; i<gb->nthread; i++){
    if( gb_part_init(gb, &gb->parts[i], err) ) goto fail;
  }
  /* Partitions and lanes each see part of the keys, so none of them
  ** knows which keys came first overall. */
  if( opt && gb->nthread==1 && !gb->lane && gb->keys.n>0 ){
    gb->parts[0].table.max_groups = opt->max_groups;
  }
  if( gb->keys.n==0 ){
    /* No keys: one group, present even when no row arrives. */
    uint32_t bucket, slot;
    agg_table_probe(&gb->parts[0].table, 0, 0, 0, &bucket);
    if( agg_table_insert(&gb->parts[0].table, bucket, 0, 0, 0, &slot, err) ) goto fail;
    for(int a=0; a<gb->aggs.n; a++){
      if( agg_state_reserve(&gb->parts[0].states[a], 1, err) ) goto fail;
    }
    if( gb_lin_reserve(gb, &gb->parts[0], 1) ) goto oom;
    if( gb->nthread>1 ){
      gb->parts[0].first_row = agg_mem_zalloc(64 * sizeof(uint64_t));
      if( gb->parts[0].first_row==0 ) goto oom;
      gb->parts[0].first_cap = 64;
    }
  }
  /* rows held back reach the min/max states at the fold, past the marks
  ** of the key record */
  gb->radix_ok = gb->nrep==0 && gb_radix_eligible(gb, schema);
  /* radix lanes split their partitions into GB_RADIX_PARTS: a divisor */
  if( gb->nthread==1 || !gb->radix_ok || (gb->nthread & (gb->nthread-1)) ) gb->radix_after = 0;
  gb->single = gb->lane && gb->nthread>1 && gb_single_ok(gb);
  if( gb->radix_after || (gb->lane && gb->nthread>1) ){
    /* a radix lane's partitions double their way up to radix_after groups
    ** before they split: carved as well, not malloc'd and copied into
    ** fresh 4 KiB pages each time. At t2, in-process: GROUP BY UserID's
    ** page faults 15K -> 5K per 6 runs, min 205-223 -> 199-208 ms. Every
    ** lane's tables likewise */
    if( (gb->zone = agg_zone_new(gb->slab_pool))==0 ) goto oom;
    for(int i=0; i<gb->nparts; i++) gb_part_zone(gb, &gb->parts[i]);
  }
  if( gb->nthread>1 && !gb->lane ){
    gb->tids = calloc((size_t)gb->nthread, sizeof(pthread_t));
    if( gb->tids==0 ) goto oom;
    if( pthread_mutex_init(&gb->mu, 0) ) goto oom;
    pthread_cond_init(&gb->go, 0);
    pthread_cond_init(&gb->done, 0);
    gb->sync_init = 1;
  }
  *out = gb;
  return COL_OK;
oom:
  col_error_set(err, COL_ENOMEM, "group_by: out of memory");
fail:
  groupby_free(gb);
  return err->code ? err->code : COL_ERROR;
}

void groupby_split_distinct(groupby *gb, uint32_t pairs){
  if( gb->nthread!=1 || gb->lane ) return;
  /* The helper takes half the pairs, or three quarters when the thread
  ** aggregating also updates two or more other aggregates per row: GROUP
  ** BY RegionID with count(DISTINCT UserID) alone, 0.218 s at a half and
  ** 0.235 s at three quarters; beside sum, count and avg (Q10), 0.285 s
  ** and 0.260 s. */
  int others = 0;
  for(int a=0; a<gb->aggs.n; a++) others += !gb->aggs.items[a].distinct;
  for(int a=0; a<gb->aggs.n; a++){
    agg_state_split_at(&gb->parts[0].states[a], pairs, others>=2 ? 3 : 2);
  }
}

void groupby_projection(const groupby *gb, int *nproj, const int **proj,
                        const uint8_t **raw){
  *nproj = gb->nproj;
  *proj = gb->proj;
  *raw = gb->raw;
}
const agg_item_list *groupby_keys(const groupby *gb){ return &gb->keys; }
const col_dialect *groupby_dialect(const groupby *gb){ return &gb->dialect; }

int groupby_uses(const groupby *gb, int what){
  for(int i=0; i<gb->keys.n; i++) if( agg_expr_uses(gb->keys.items[i].expr, what) ) return 1;
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    for(int j=0; j<2+it->nob; j++) if( agg_expr_uses(gb_agg_expr(it, j), what) ) return 1;
  }
  return agg_expr_uses(gb->where, what);
}
const agg_item_list *groupby_aggs(const groupby *gb){ return &gb->aggs; }

/* ---- consuming ---------------------------------------------------------- */

/* rows[0..n) = 0..n-1. A scan without a selection asks this of every
** batch: the prefix already there is kept rather than written again (a
** tenth of avg(UserID) over 10M rows went to it). Whatever else writes
** rows clears iota. */
static void gb_rows_iota(gb_part *p, uint32_t n){
  cv_iota(p->rows, p->iota, n);
  if( n>p->iota ) p->iota = n;
}

/* Every live row of b (nsel of them) into p->rows, in order. */
static void gb_rows_live(gb_part *p, const col_batch *b, uint32_t nsel){
  if( b->sel ){ memcpy(p->rows, b->sel, (size_t)nsel*4); p->iota = 0; }
  else gb_rows_iota(p, nsel);
}

/* A partition's scratch arrays come from its table's zone where it has
** one (a lane's): slabs the connection's queries before wrote, not fresh
** pages for every lane of every query (agg_mem_realloc otherwise). */
static int gb_part_scratch(gb_part *p, uint32_t n){
  if( n<=p->cap ) return 0;
  agg_zone *z = p->table.zone;
  uint32_t *a = agg_zone_realloc(z, p->rows, (size_t)n*4); if( a ) p->rows = a;
  uint32_t *b = agg_zone_realloc(z, p->gid, (size_t)n*4); if( b ) p->gid = b;
  uint32_t *c = agg_zone_realloc(z, p->rows2, (size_t)n*4); if( c ) p->rows2 = c;
  uint32_t *d = agg_zone_realloc(z, p->gid2, (size_t)n*4); if( d ) p->gid2 = d;
  if( !a || !b || !c || !d ) return -1;
  p->cap = n;
  return 0;
}

/* Is row r's key dictionary entry c itself? A row's own tag (NULL, or a
** class its entry does not have) makes it something else: such a row is
** looked up, never remembered. An expression's dictionary may hold NULL
** entries (date() of a text that is none), which a NULL row is; an entry
** no live row computed is tagged as no row is (agg/expr_eval.c, EX_TAG_UNSET). */
static inline int gb_row_is_entry(const col_vector *v, uint32_t r, uint32_t c){
  const col_vector *d = v->dict;
  return v->tags==0 || v->tags[r]==(d->tags ? d->tags[c] : d->type);
}

/* Rows rows[0..n) of the one key column v, a flat TEXT or BLOB vector:
** the first row of each distinct value goes to reps, and which[k] gets
** the place in reps of row k's value. Returns how many reps; -1 on OOM.
** Clustered strings repeat within a batch (in the first 2M rows of hits,
** a 16384-row batch holds 6000 distinct URLs): each repeat is then
** compared with its first row, in cache, instead of with its group's
** stored bytes, a cache miss, in the table. */
#define GB_DEDUP_TOP 0xffffffff00000000ull   /* a dedup slot's hash bits */
static int64_t gb_part_dedup(gb_part *p, const col_vector *v, const uint64_t *hashes,
                             const uint32_t *rows, uint32_t n, uint32_t *reps,
                             uint32_t *which){
  uint32_t cap = 64;
  while( cap < 2*n ) cap *= 2;
  if( cap > p->dd_cap ){
    uint64_t *h = agg_zone_realloc(p->table.zone, p->dd_slot, (size_t)cap*8);
    if( h==0 ) return -1;
    p->dd_slot = h;
    p->dd_cap = cap;
  }
  /* a slot: the hash's top half, then the representative + 1 (0 empty):
  ** a probe reads one word, where the hashes and representatives in two
  ** arrays had cost two lines of L2 (ClickBench Q34 at threads=1, 6 runs'
  ** task-clock 4412-4570 -> 4285-4374 ms) */
  uint64_t *t = p->dd_slot;
  uint32_t mask = cap - 1, m = 0;
  memset(t, 0, (size_t)cap*8);
  const cv_str *str = v->str;
  for(uint32_t k=0; k<n; k++){
    uint32_t r = rows[k];
    uint64_t h = hashes[r], top = h & GB_DEDUP_TOP;
    uint32_t at = (uint32_t)h & mask;
    for(;;){
      uint64_t e = t[at];
      if( e==0 ){
        t[at] = top | (m + 1);
        which[k] = m; reps[m++] = r;
        break;
      }
      if( (e & GB_DEDUP_TOP)==top ){
        uint32_t q = (uint32_t)e - 1;
        const cv_str *a = &str[r], *b = &str[reps[q]];
        if( a->n==b->n && (a->n==0 || memcmp(a->p, b->p, a->n)==0) ){ which[k] = q; break; }
      }
      at = (at + 1) & mask;
    }
  }
  return m;
}

/* Row r's combination of entries of the nk dictionary vectors kv into
** *x; 0 when one of its keys is not its entry (gb_row_is_entry). */
static inline int gb_row_combination(const col_vector **kv, int nk, uint32_t r, uint32_t *x){
  uint32_t a = 0;
  int entry = 1;
  for(int i=nk; i-- > 0; ){
    const col_vector *v = kv[i];
    uint32_t c = v->codes[r];
    entry &= gb_row_is_entry(v, r, c);
    a = a*v->dict->n + c;
  }
  *x = a;
  return entry;
}

/* dc_slot sized for n entries, AGG_EMPTY from entry `from` on. */
static int gb_memo_reserve(gb_part *p, uint32_t from, uint32_t n){
  if( n>p->dc_cap ){
    uint32_t cap = n > 2*p->dc_cap ? n : 2*p->dc_cap;
    uint32_t *c = agg_zone_realloc(p->table.zone, p->dc_slot, (size_t)cap*4);
    if( c==0 ) return -1;
    p->dc_slot = c; p->dc_cap = cap;
  }
  if( n>from ) memset(p->dc_slot + from, 0xff, (size_t)(n - from)*4);   /* AGG_EMPTY */
  return 0;
}

/* hashes[r] for rows rows[0..n) (NULL: 0..n-1) of keys kv (agg_hash_keys
** with the group by's hasher); COL_OK or an out-of-memory error. */
static int gb_hash_rows(groupby *gb, const col_vector **kv, const uint32_t *rows, uint32_t n,
                        uint64_t *hashes, col_error *err){
  if( agg_hash_keys(&gb->hasher, kv, gb->nindep, rows, n, hashes) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory hashing keys");
  }
  return COL_OK;
}

/* Do keys kv[0..nk) qualify for the memo: each a dictionary vector naming
** its dictionary, at most GB_MEMO_KEYS of them and GB_MEMO_MAX
** combinations? Their number of combinations into *prod. */
static int gb_memo_keys(const col_vector **kv, int nk, uint32_t *prod){
  if( nk<1 || nk>GB_MEMO_KEYS ) return 0;
  *prod = 1;
  for(int i=0; i<nk; i++){
    const col_vector *v = kv[i];
    if( v->form!=CV_DICT || v->dict_id==0 || v->dict->n==0 ) return 0;
    if( nk>1 && v->dict->n > GB_MEMO_MAX / *prod ) return 0;
    *prod *= v->dict->n;
  }
  return 1;
}

/* gb_part_lookup when every key is a dictionary vector that names its
** dictionary for the row group (dict_id): the group of each entry, or with
** several keys of each combination of entries, is looked up once and
** remembered under the combination's number (the entries' codes as
** digits, each dictionary's size the base, the last key's the highest):
** the other rows of the row group with it take it without hashing,
** probing or comparing keys again. In GROUP BY URL, half the row groups'
** URLs are dictionary coded, and a probe's compare of a stored URL was a
** cache miss and a memcmp; GROUP BY MobilePhone, MobilePhoneModel has a
** few hundred combinations in a row group of 120k rows. Several keys
** only up to GB_MEMO_KEYS of them and GB_MEMO_MAX combinations. Returns
** -1 when the keys do not qualify (the caller looks rows up). */
static int gb_part_lookup_codes(groupby *gb, gb_part *p, const col_vector **kv,
                                uint64_t *hashes, int lazy, uint32_t n, uint32_t *nnew,
                                col_error *err){
  int nk = gb->nindep;
  uint32_t prod;
  if( p->table.max_groups || !gb_memo_keys(kv, nk, &prod) ) return -1;
  /* The numbers so far still name the same combinations while the
  ** dictionaries are the same and only the last one, the highest digit,
  ** grew (entries appended: vector.h); else a new row group starts over. */
  int keep = p->mc_nk==nk;
  for(int i=0; i<nk && keep; i++){
    uint32_t d = kv[i]->dict->n;
    keep = p->mc_id[i]==kv[i]->dict_id && (i==nk-1 ? p->mc_n[i]<=d : p->mc_n[i]==d);
  }
  if( !keep ) p->dc_n = 0;
  if( prod>p->dc_n ){
    if( gb_memo_reserve(p, p->dc_n, prod) ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    p->dc_n = prod;
  }
  p->mc_nk = nk;
  for(int i=0; i<nk; i++){ p->mc_id[i] = kv[i]->dict_id; p->mc_n[i] = kv[i]->dict->n; }
  uint32_t *slot = p->dc_slot, m = 0, k0 = n;
  /* one key, every row its entry (GROUP BY CounterID): the entry's group
  ** is a load, not the loop over keys and tags (ClickBench Q28 at
  ** threads=2: gb_part_feed 8% -> 5% of its CPU) */
  const uint32_t *codes1 = nk==1 && kv[0]->tags==0 ? kv[0]->codes : 0;
  /* two keys, every row their entries (GROUP BY MobilePhone,
  ** MobilePhoneModel): the combination without the loop over keys */
  const uint32_t *codes2a = 0, *codes2b = 0;
  uint32_t base2 = 0;
  if( nk==2 && kv[0]->tags==0 && kv[1]->tags==0 ){
    codes2a = kv[0]->codes; codes2b = kv[1]->codes; base2 = kv[0]->dict->n;
  }
  uint32_t *rows = p->rows, *rows2 = p->rows2, *gid = p->gid;
  /* A combination not yet looked up is looked up once for the batch: its
  ** first row goes to rows2[j], and slot and gid hold GB_PENDING | j until
  ** the lookup answers. A sorted key brings new entries batch after batch
  ** (CounterID in ClickBench Q28: 57% of rows were probes, every row of an
  ** entry the batch met first). A row that is not its entry is looked up
  ** alone. */
  for(uint32_t k=0; k<n; k++){
    uint32_t r = rows[k], x = 0, g;
    int entry = 1;
    if( codes1 ) x = codes1[r];
    else if( codes2a ) x = codes2b[r]*base2 + codes2a[r];
    else entry = gb_row_combination(kv, nk, r, &x);
    g = entry ? slot[x] : AGG_EMPTY;
    if( g==AGG_EMPTY ){
      g = GB_PENDING | m;
      if( entry ) slot[x] = g;
      if( m==0 ) k0 = k;
      rows2[m++] = r;
    }
    gid[k] = g;
  }
  *nnew = 0;
  if( m==0 ) return COL_OK;
  if( lazy && gb_hash_rows(gb, kv, rows2, m, hashes, err) ) return err->code;
  uint32_t *gid2 = p->gid2;
  int rc = agg_table_lookup(&p->table, kv, rows2, m, hashes, gid2, nnew, err);
  if( rc ){
    p->mc_nk = 0;   /* pending marks are no groups: the next batch starts over */
    return rc;
  }
  for(uint32_t j=0; j<m; j++){
    uint32_t x;
    if( gb_row_combination(kv, nk, rows2[j], &x) ) slot[x] = gid2[j];
  }
  /* no row before the first looked up waits on a lookup */
  for(uint32_t k=k0; k<n; k++){
    uint32_t g = gid[k];
    if( g & GB_PENDING ) gid[k] = gid2[g & ~GB_PENDING];
  }
  return COL_OK;
}

/* Groups of rows[0..n) into gid (agg_table_lookup), through the per-batch
** dedup of strings or the dictionaries' codes where they apply. lazy:
** hashes holds no row's hash yet, and the rows looked up are hashed here
** (gb_hash_lazy). */
static int gb_part_lookup(groupby *gb, gb_part *p, const col_vector **kv,
                          uint64_t *hashes, int lazy, uint32_t n, uint32_t *nnew,
                          col_error *err){
  const col_vector *v = gb->nindep==1 ? kv[0] : 0;
  if( v && v->form==CV_FLAT && v->tags==0 && (v->type==CV_TEXT || v->type==CV_BLOB)
   && !p->table.max_groups && n>=64 ){
    int64_t m = gb_part_dedup(p, v, hashes, p->rows, n, p->rows2, p->gid2);
    if( m<0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    int rc = agg_table_lookup(&p->table, kv, p->rows2, (uint32_t)m, hashes, p->gid, nnew, err);
    if( rc ) return rc;
    /* which[k] <= k: from the end, p->gid[which[k]] is still a rep's */
    for(uint32_t k=n; k-- > 0; ) p->gid[k] = p->gid[p->gid2[k]];
    return COL_OK;
  }
  int rc = gb_part_lookup_codes(gb, p, kv, hashes, lazy, n, nnew, err);
  if( rc!=-1 ) return rc;
  if( lazy && gb_hash_rows(gb, kv, p->rows, n, hashes, err) ) return err->code;
  return agg_table_lookup(&p->table, kv, p->rows, n, hashes, p->gid, nnew, err);
}

/* Are this batch's keys all dictionary vectors that gb_part_lookup_codes
** looks up once per entry, in partitions consumed on this thread (one, or
** a lane's single one), with no radix lane holding rows by their hash?
** Then only the rows of entries not yet seen need a hash, and the lookup
** makes them: hashing every row (a word per entry, gathered per row) was
** 8% of GROUP BY length(SearchPhrase) and 5% of GROUP BY MobilePhoneModel. */
static int gb_hash_lazy(const groupby *gb){
  uint32_t prod;
  if( gb->keys.n==0 || gb->radix_on ) return 0;
  if( !(gb->nthread==1 || (gb->lane && gb->single)) ) return 0;
  return gb_memo_keys(gb->kv, gb->nindep, &prod);
}

/* What a partition aggregates rows from: a batch's vectors, or a chunk of
** rows held back by a radix lane (agg_radix_unpack). */
typedef struct gb_feed {
  const col_vector **kv;  /* the table's key vectors */
  const col_vector **av;  /* per aggregate: argument, separator, ORDER BY */
  const col_vector **sv;
  const col_vector **ov;
  uint64_t *hashes;       /* per row: its keys' hash */
  int lazy;               /* ... made by the lookup (gb_hash_lazy) */
  const col_vector *cols; /* the batch's columns (gb_base sums), or NULL */
  uint32_t nrow;          /* rows in each vector */
  uint64_t base;          /* dataset row of row 0 ... */
  const uint64_t *rowid;  /* ... or, when not NULL, each row's */
} gb_feed;

/* After a batch's aggregates: each row of p's in order, marked by the
** min/max updates (p->hit), copies its keys' classes into its group's
** record or, unmarked, does what the group's previous row did. */
static void gb_keyrep_rows(groupby *gb, gb_part *p, const gb_feed *f, uint32_t n){
  agg_state *s = &p->states[gb->rep_agg];
  const col_vector *rv[GB_KEYREP_MAX];
  for(int j=0; j<gb->nrep; j++) rv[j] = f->kv[gb->kcol[gb->rep_key[j]]];
  for(uint32_t k=0; k<n; k++){
    uint32_t r = p->rows[k], g = p->gid[k];
    uint8_t h = p->hit[r];
    uint32_t old = agg_state_keyrep(s, g);
    if( h==AGG_HIT_SKIPPED || (h==0 && !(old & GB_KEYREP_LAST)) ){
      if( old & GB_KEYREP_LAST ) agg_state_set_keyrep(s, g, old & ~GB_KEYREP_LAST);
      continue;
    }
    uint32_t bits = GB_KEYREP_LAST | GB_KEYREP_SET;
    for(int j=0; j<gb->nrep; j++){
      pred_value v = agg_value_at(rv[j], r);
      if( v.type!=CV_REAL ) continue;
      bits |= 1u << (2*j);
      if( signbit(v.f) ) bits |= 2u << (2*j);
    }
    agg_state_set_keyrep(s, g, bits);
  }
}

/* Look up and aggregate rows p->rows[0..n) of f into partition p. */
static int gb_part_feed(groupby *gb, gb_part *p, const gb_feed *f, uint32_t n){
  col_error *err = &p->err;
  uint32_t before = p->table.ngroup, nnew;
  int rc;
  if( gb->keys.n==0 ){
    /* the one group, made at groupby_new; nothing else writes gid then */
    if( n>p->gzero ){ memset(p->gid + p->gzero, 0, (size_t)(n - p->gzero)*4); p->gzero = n; }
  }else{
    rc = gb_part_lookup(gb, p, f->kv, f->hashes, f->lazy, n, &nnew, err);
    if( rc ) return rc;
    if( p->table.max_groups && p->table.ngroup>=p->table.max_groups ){
      /* rows of keys past the first max_groups: no group, dropped */
      uint32_t m = 0;
      for(uint32_t k=0; k<n; k++){
        if( p->gid[k]==AGG_EMPTY ) continue;
        p->rows[m] = p->rows[k]; p->gid[m] = p->gid[k]; m++;
      }
      if( m<n ) p->iota = 0;
      n = m;
      if( n==0 ) return COL_OK;
    }
  }
  if( gb->nthread>1 && p->table.ngroup>before ){
    if( p->table.ngroup>p->first_cap ){
      uint32_t cap = p->first_cap ? p->first_cap : 64;
      while( cap<p->table.ngroup ) cap *= 2;
      uint64_t *fr = agg_zone_realloc(p->table.zone, p->first_row, (size_t)cap*8);
      if( fr==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
      p->first_row = fr; p->first_cap = cap;
    }
    /* new groups take slots in the order of their first rows: past the
    ** last one's, no row has more to tell */
    uint32_t expect = before, last = p->table.ngroup;
    for(uint32_t k=0; k<n && expect<last; k++){
      if( p->gid[k]==expect ){
        p->first_row[expect] = f->rowid ? f->rowid[p->rows[k]] : f->base + p->rows[k];
        expect++;
      }
    }
  }
  if( gb->nbase && f->cols ){
    if( gb_lin_reserve(gb, p, p->table.ngroup) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    }
    for(int bi=0; bi<gb->nbase; bi++){
      if( !gb->bases[bi].active ) continue;
      gb_lin_update(p->lsum[bi], p->lcnt[bi], &f->cols[gb->bases[bi].bcol],
                    p->rows, p->gid, n, p->table.ngroup==1);
    }
  }
  if( gb->nrep ){
    if( f->nrow>p->hit_cap ){
      uint8_t *h = realloc(p->hit, f->nrow);
      if( h==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
      p->hit = h; p->hit_cap = f->nrow;
    }
    for(uint32_t k=0; k<n; k++) p->hit[p->rows[k]] = 0;
  }
  for(int a=0; a<gb->aggs.n; a++){
    agg_state *s = &p->states[a];
    if( gb->lin_base[a]>=0 && gb->bases[gb->lin_base[a]].active ) continue;
    if( gb->aggs.items[a].nob ){
      rc = agg_ordbuf_add(&p->ord[a], &f->ov[gb->ov_at[a]], f->av[a], f->sv[a], f->nrow,
                          p->rows, p->gid, n, err);
      if( rc ) return rc;
      continue;
    }
    if( (rc = agg_state_reserve(s, p->table.ngroup, err))!=0 ) return rc;
    uint32_t *rows = p->rows, *gid = p->gid;
    if( s->distinct ){
      memcpy(p->rows2, p->rows, (size_t)n*4);
      memcpy(p->gid2, p->gid, (size_t)n*4);
      rows = p->rows2; gid = p->gid2;
    }
    if( gb->nrep && gb->rep_hit[a] ) s->hit = p->hit;
    rc = agg_state_update(s, f->av[a], f->sv[a], f->nrow, rows, gid, n, err);
    s->hit = 0;
    if( rc ) return rc;
  }
  if( gb->nrep ) gb_keyrep_rows(gb, p, f, n);
  return COL_OK;
}

/* Look up and aggregate this partition's rows of the current batch. */
static int gb_part_consume(groupby *gb, int w){
  gb_part *p = &gb->parts[w];
  const col_batch *b = gb->batch;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  col_error *err = &p->err;
  uint32_t need = gb->lane && gb->nthread>1 ? p->nfill : nsel;
  if( gb_part_scratch(p, need ? need : 1) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  }
  uint32_t n = 0;
  if( gb->lane && gb->nthread>1 ){
    n = p->nfill;                /* gb_scatter chose them */
  }else if( gb->nthread==1 || gb->keys.n==0 ){
    /* every live row (no keys: partition 0 holds the one group) */
    if( w!=0 ) return COL_OK;
    gb_rows_live(p, b, nsel);
    n = nsel;
  }else{
    uint32_t T = (uint32_t)gb->nthread;
    p->iota = 0;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      if( (uint32_t)((gb->hashes[r]>>32) % T)==(uint32_t)w ) p->rows[n++] = r;
    }
  }
  if( n==0 ) return COL_OK;
  /* a batch's rows spread over many partitions: together their tables
  ** outgrow the caches long before any one would ask for prefetching */
  p->table.cold = gb->nthread >= 16;
  gb_feed f = { gb->kv, gb->av, gb->sv, gb->ov, gb->hashes, gb->hash_lazy, b->cols, b->n,
                gb->lane ? (uint64_t)b->first_row : gb->row_base, 0 };
  return gb_part_feed(gb, p, &f, n);
}

/* Lanes: every row to its partition's rows, in one pass (the partitions
** are consumed one after another on this thread). */
static int gb_scatter(groupby *gb, const col_batch *b, uint32_t nsel, col_error *err){
  uint32_t T = (uint32_t)gb->nthread;
  uint32_t count[256];
  /* Each partition's scratch holds only its own rows: T lanes of T
  ** partitions each sized for a whole batch would be T*T batches. */
  if( nsel > gb->spcap ){
    uint8_t *sp = realloc(gb->spart, nsel);
    if( sp==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    gb->spart = sp; gb->spcap = nsel;
  }
  memset(count, 0, sizeof(count));
  const uint64_t *h = gb->hashes;
  uint8_t *sp = gb->spart;
  if( (T & (T-1))==0 && b->sel==0 ){
    /* a power of two (radix lanes' 256, two lanes): a mask, not a divide */
    uint32_t mask = T - 1;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t w = (uint32_t)(h[k]>>32) & mask;
      sp[k] = (uint8_t)w;
      count[w]++;
    }
  }else{
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      uint32_t w = (uint32_t)((h[r]>>32) % T);
      sp[k] = (uint8_t)w;
      count[w]++;
    }
  }
  for(uint32_t w=0; w<T; w++){
    gb_part *p = &gb->parts[w];
    if( gb_part_scratch(p, count[w] ? count[w] : 1) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    }
    p->nfill = 0;
    p->iota = 0;
  }
  if( b->sel ){
    for(uint32_t k=0; k<nsel; k++){
      gb_part *p = &gb->parts[sp[k]];
      p->rows[p->nfill++] = b->sel[k];
    }
  }else{
    for(uint32_t k=0; k<nsel; k++){
      gb_part *p = &gb->parts[sp[k]];
      p->rows[p->nfill++] = k;
    }
  }
  return COL_OK;
}

/* A single lane: every row to partition 0, as the serial path takes them
** (consecutive rows stay a sequence the aggregates read in order). */
static int gb_single_rows(groupby *gb, const col_batch *b, uint32_t nsel, col_error *err){
  gb_part *p = &gb->parts[0];
  if( gb_part_scratch(p, nsel ? nsel : 1) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  }
  gb_rows_live(p, b, nsel);
  p->nfill = nsel;
  for(int w=1; w<gb->nthread; w++) gb->parts[w].nfill = 0;
  return COL_OK;
}

/* ---- radix lanes (agg/radix.h) ------------------------------------------ */

static int gb_radix_number(const agg_expr *e, const col_schema *schema){
  int t = agg_expr_type(e, schema);
  return t==CV_INT || t==CV_REAL || agg_expr_never_text(e);
}

/* Can rows be held back? Keys of any class (agg/radix.h holds short text
** too: gb_radix_hold checks every batch's and stops holding past it);
** arguments that are numbers, of aggregates whose rows need no order. A
** column said to be a number may still bring a TEXT row (a CSV field kept
** as text), held like any other. */
static int gb_radix_eligible(const groupby *gb, const col_schema *schema){
  if( gb->keys.n==0 ) return 0;
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    if( it->distinct || it->nob || it->sep || AGG_KIND_TEXT(it->kind) ) return 0;
    if( it->expr && !gb_radix_number(it->expr, schema) ) return 0;
  }
  return 1;
}

int groupby_radix_ok(const groupby *gb){ return gb->radix_ok; }

/* Does holding this lane's rows back pay, judged by batch b's keys?
** Numbers always do (a row held is a few bytes). Text keys only while
** each probe of the lane's table misses the cache and nothing cheaper is
** at hand: not when their text would be more bytes to copy than
** AGG_RADIX_TEXT_ROW a row (URL's 54: Q34 0.47 -> 0.61 s held at
** threads=2), nor when every key is a dictionary's codes, which the
** stream looks up once per combination (gb_part_lookup_codes) and held
** rows would look up one by one (GROUP BY SearchPhrase 0.23 -> 0.53 s
** held; Q15, SearchEngineID and SearchPhrase, 164 -> 216 ms). GROUP BY
** UserID, SearchPhrase (Q17, 5 bytes of text a row) at threads=2: 0.62-0.67
** s streamed, 0.44-0.49 s held, and as a process's first query 0.71-0.75 s
** against 0.57-0.63 s. (Session 27 measured a first query twice as slow
** held, 1.68-1.97 s against 0.80-0.84 s, and auto held numbers only; the
** connection's slab pool and the zones since made held bytes cheap.)
** Text keys are held only from a lane's first radix_after groups and only
** if gb_radix_hold_early, their text counted, foresees few bytes: GROUP BY
** UserID, minute, SearchPhrase (Q19, 9M groups, 31 bytes held a row) ran
** 0.74-1.13 s held against 1.14-1.73 s streamed, but as a process's first
** query 1.9-2.6 s against 1.4-1.9 s. Returns -1 where text does not pay,
** 0 where the batch has none, else 1 and the text's bytes a row. */
static int gb_radix_suits(const groupby *gb, const col_batch *b, uint32_t nsel,
                          double *text_row){
  int text = 0, dict = 0;
  for(int k=0; k<gb->nindep; k++) dict += gb->kv[k]->form==CV_DICT;
  uint64_t bytes = agg_radix_text(gb->kv, gb->nindep, b->sel, nsel, &text);
  if( !text ) return 0;
  if( dict==gb->nindep || bytes > (uint64_t)nsel*AGG_RADIX_TEXT_ROW ) return -1;
  *text_row = nsel ? (double)bytes / nsel : 0;
  return 1;
}

int groupby_radix_narrow(const groupby *gb){
  if( !gb->radix_ok || gb->nindep!=1 ) return 0;
  for(int a=0; a<gb->aggs.n; a++) if( gb->aggs.items[a].expr ) return 0;
  return 1;
}

int groupby_radix_holds(const groupby *gb){
  for(int i=0; gb->held.parts && i<gb->held.nparts; i++){
    if( agg_radix_has(&gb->held, i) ) return 1;
  }
  return 0;
}

/* The vectors a held row carries: the table's keys, then the aggregates'
** arguments (count(*) has none). Returns how many. */
static int gb_radix_vectors(const groupby *gb, const col_vector **kv,
                            const col_vector **av, const col_vector **out){
  int n = 0;
  for(int k=0; k<gb->nindep; k++) out[n++] = kv[k];
  for(int a=0; a<gb->aggs.n; a++) if( gb->aggs.items[a].expr ) out[n++] = av[a];
  return n;
}

/* A lane's partitions become nto (a power of two, a multiple of the
** lane's partition count): each group moves to the partition its hash
** names among nto, which lies within its old one (the same hash bits
** route rows, gb_scatter), so each new partition takes a subsequence of
** one old partition's groups, in first-seen order still. A single lane
** (gb->single) holds every group in partition 0 whatever its hash: it
** splits as one partition. The column sums (gb_base) move along, or with
** stop_bases become states first (held rows carry every argument). */
static int gb_parts_split(groupby *gb, int nto, int stop_bases, col_error *err){
  int F = gb->single ? 1 : gb->nthread, rc = COL_OK;
  if( stop_bases ){
    for(int b=0; b<gb->nbase; b++){
      if( gb->bases[b].active && (rc = gb_lin_stop(gb, b, err))!=0 ) return rc;
    }
  }
  if( F>=nto ) return COL_OK;
  gb_part *np = calloc((size_t)nto, sizeof(gb_part));
  agg_table **dst = calloc((size_t)nto, sizeof(agg_table*));
  agg_state **ds = calloc((size_t)nto, sizeof(agg_state*));
  uint8_t *part = 0;
  uint32_t *map = 0;
  int ninit = 0;
  if( np==0 || dst==0 || ds==0 ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    goto done;
  }
  /* 256 partitions, each a handful of arrays of a few KiB to a MiB: in a
  ** zone of huge pages, not faulted in 4 KiB at a time (agg_zone). GROUP
  ** BY UserID at threads=2, in-process, min of 6: 300-312 -> 214-239 ms;
  ** GROUP BY ClientIP, ClientIP - 1, ... 379-419 -> 195-236 ms */
  if( gb->zone==0 && (gb->zone = agg_zone_new(gb->slab_pool))==0 ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    goto done;
  }
  for(; ninit<nto; ninit++){
    if( (rc = gb_part_init(gb, &np[ninit], err))!=0 ) goto done;
    dst[ninit] = &np[ninit].table;
  }
  for(int q=0; q<F; q++){
    gb_part *sp = &gb->parts[q];
    uint32_t ns = sp->table.ngroup;
    if( ns==0 ) continue;
    free(part); free(map);
    part = malloc(ns); map = malloc((size_t)ns*4);
    if( !part || !map ){ rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory"); goto done; }
    if( (rc = agg_table_split(dst, (uint32_t)nto-1, &sp->table, part, map, err))!=0 ) goto done;
    /* the groups of partition q go to the new partitions p with p % F ==
    ** q (both are hash bits above 32); one pass over them, not one per p */
    for(int p=q; p<nto; p+=F){
      gb_part *d = &np[p];
      uint32_t ng = d->table.ngroup;
      if( ng==0 ) continue;
      uint64_t *fr = agg_zone_realloc(d->table.zone, d->first_row, (size_t)ng*8);
      if( fr==0 || gb_lin_reserve(gb, d, ng) ){
        if( fr ) d->first_row = fr;
        rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory");
        goto done;
      }
      d->first_row = fr; d->first_cap = ng;
    }
    for(uint32_t g=0; g<ns; g++) np[part[g]].first_row[map[g]] = sp->first_row[g];
    for(int b=0; b<gb->nbase; b++){
      if( !gb->bases[b].active ) continue;
      /* a group past lcap has summed nothing: its new slot holds zeros */
      uint32_t n = ns < sp->lcap ? ns : sp->lcap;
      for(uint32_t g=0; g<n; g++){
        np[part[g]].lsum[b][map[g]] = sp->lsum[b][g];
        np[part[g]].lcnt[b][map[g]] = sp->lcnt[b][g];
      }
    }
    for(int a=0; a<gb->aggs.n; a++){
      if( gb->lin_base[a]>=0 && gb->bases[gb->lin_base[a]].active ) continue;
      /* gb_single_ok and gb_radix_eligible keep ORDER BY aggregates (their
      ** rows wait in ordbufs) and DISTINCT ones from here */
      const agg_item *it = &gb->aggs.items[a];
      if( it->nob || it->distinct ){
        rc = col_error_set(err, COL_ERROR, "group_by: internal error: split of %s aggregate",
                           it->nob ? "an ordered" : "a DISTINCT");
        goto done;
      }
      memset(ds, 0, (size_t)nto*sizeof(agg_state*));
      for(int p=q; p<nto; p+=F){
        gb_part *d = &np[p];
        ds[p] = d->table.ngroup ? &d->states[a] : 0;
        if( ds[p] && (rc = agg_state_reserve(ds[p], d->table.ngroup, err))!=0 ) goto done;
      }
      /* every group lands in a state of its own, fresh: no separator */
      if( (rc = agg_state_merge_split(ds, nto, part, &sp->states[a], map, ns, 0, err))!=0 ) goto done;
    }
  }
done:
  free(part); free(map); free(dst); free(ds);
  if( rc ){
    for(int i=0; i<ninit; i++) gb_part_free(gb, &np[i]);
    free(np);
    return rc;
  }
  for(int i=0; i<gb->nparts; i++) gb_part_free(gb, &gb->parts[i]);
  free(gb->parts);
  gb->parts = np;
  gb->nthread = gb->nparts = nto;
  gb->single = 0;
  return COL_OK;
}

/* Radix lanes' 256 partitions. */
static int gb_radix_split(groupby *gb, col_error *err){
  return gb_parts_split(gb, GB_RADIX_PARTS, 1, err);
}

/* A single lane spreads its groups over its partitions (gb_single_ok). */
int gb_single_split(groupby *gb, col_error *err){
  return gb->single ? gb_parts_split(gb, gb->nthread, 0, err) : COL_OK;
}

int groupby_radix_widen(groupby *gb, col_error *err){ return gb_radix_split(gb, err); }

/* Should a lane of radix_repeats, at its first radix_after (g) groups,
** hold rows back now? If the rows it has left look set to make
** GB_RADIX_WAIT times as many groups and to take GB_RADIX_HOLD_SMALL
** bytes or less. The rows so far (this batch's n included) tell how many
** of the rest will pass the filters, and how many of those will be new
** (fewer, in truth: the guess leans to holding). text_row: the bytes of
** text keys a row brings besides (gb_radix_suits). */
static int gb_radix_hold_early(const groupby *gb, uint64_t g, uint32_t n,
                               double text_row){
  uint64_t seen = gb->row_base + n;
  if( gb->lane_rows==0 || gb->live_rows==0 || seen>=gb->lane_rows ) return 0;
  int nvec = gb->nindep;
  for(int a=0; a<gb->aggs.n; a++) nvec += gb->aggs.items[a].expr!=0;
  double left = (double)(gb->lane_rows - seen) * (double)gb->live_rows / (double)seen;
  double groups = (double)g + left * (double)g / (double)gb->live_rows;
  return groups >= (double)gb->radix_after * GB_RADIX_WAIT
      && left * (2.0 + 8.0*nvec + text_row) <= (double)GB_RADIX_HOLD_SMALL;
}

/* Start holding rows back, in GB_RADIX_PARTS partitions. */
static int gb_radix_start(groupby *gb, col_error *err){
  int nvec = gb->nindep, rc;
  for(int a=0; a<gb->aggs.n; a++) nvec += gb->aggs.items[a].expr!=0;
  if( (rc = gb_radix_split(gb, err))!=0 ) return rc;
  if( agg_radix_init(&gb->held, gb->nthread, nvec, gb->slab_pool) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  }
  gb->radix_on = 1;
  return COL_OK;
}

/* Partition part of src's held rows into partition part of dst (src may
** be dst), in the order they were held; then frees them. */
static int gb_radix_feed(groupby *dst, groupby *src, int part, col_error *err){
  agg_radix *r = &src->held;
  if( r->parts==0 || !agg_radix_has(r, part) ) return COL_OK;
  gb_part *p = &dst->parts[part];
  int na = dst->aggs.n, rc = COL_OK;
  p->table.cold = 0;      /* one partition at a time: its table stays cached */
  agg_radix_cols cols;
  agg_hasher hs;
  agg_hasher_init(&hs);
  const col_vector **vp = calloc((size_t)(dst->nindep + 2*na + 1), sizeof(*vp));
  uint64_t *hashes = malloc(AGG_RADIX_CHUNK_MAX * sizeof(uint64_t));
  if( agg_radix_cols_init(&cols, r->nvec) || vp==0 || hashes==0
   || gb_part_scratch(p, AGG_RADIX_CHUNK_MAX) ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    goto done;
  }
  const col_vector **kv = vp, **av = vp + dst->nindep, **none = av + na;
  int x = 0;
  for(int k=0; k<dst->nindep; k++) kv[k] = &cols.v[x++];
  for(int a=0; a<na; a++) av[a] = dst->aggs.items[a].expr ? &cols.v[x++] : 0;
  for(const agg_radix_chunk *c = r->parts[part].head; c; c = c->next){
    agg_radix_unpack(r, c, &cols);
    uint32_t n = cols.n;
    if( agg_hash_keys(&hs, kv, dst->nindep, 0, n, hashes) ){
      rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory hashing keys");
      break;
    }
    gb_rows_iota(p, n);
    gb_feed f = { kv, av, none, none, hashes, 0, 0, n, 0, cols.row };
    col_error_clear(&p->err);
    if( (rc = gb_part_feed(dst, p, &f, n))!=0 ){ *err = p->err; break; }
  }
done:
  agg_radix_free_part(r, part);
  agg_radix_cols_free(&cols);
  agg_hasher_free(&hs);
  free(vp); free(hashes);
  return rc;
}

/* Stop holding rows back (a batch brought more text than agg_radix_fits
** holds): the rows held go into this lane's own partitions, in order, and
** later rows stream. */
static int gb_radix_stop(groupby *gb, col_error *err){
  int rc = COL_OK;
  for(int i=0; i<gb->held.nparts && rc==COL_OK; i++) rc = gb_radix_feed(gb, gb, i, err);
  agg_radix_free(&gb->held);
  gb->radix_on = 0;
  gb->radix_after = 0;
  return rc;
}

/* This batch's rows, scattered already (gb_scatter), held back: 1 when
** they are, 0 when they must stream after all, -1 on an error. */
static int gb_radix_hold(groupby *gb, const col_batch *b, uint32_t nsel, col_error *err){
  const col_vector *hv[64];
  const col_vector **v = hv;
  int nvec = gb->held.nvec, rc = 1;
  if( nvec > 64 && (v = malloc((size_t)nvec * sizeof(*v)))==0 ){
    col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    return -1;
  }
  gb_radix_vectors(gb, gb->kv, gb->av, v);
  uint64_t rows = 0, text = 0;
  for(int w=0; w<gb->nthread; w++){
    gb_part *p = &gb->parts[w];
    rows += p->nfill;
    text += agg_radix_text(v, nvec, p->rows, p->nfill, 0);
  }
  if( !agg_radix_fits(&gb->held, rows, text) ){
    rc = gb_radix_stop(gb, err) ? -1 : 0;
  }else{
    agg_radix_sketch(&gb->held, gb->hashes, b->sel, gb->spart, nsel);
    for(int w=0; w<gb->nthread; w++){
      gb_part *p = &gb->parts[w];
      if( p->nfill && agg_radix_append(&gb->held, w, v, p->rows, p->nfill, b->first_row) ){
        col_error_set(err, COL_ENOMEM, "group_by: out of memory holding rows");
        rc = -1;
        break;
      }
    }
  }
  if( v!=hv ) free(v);
  return rc;
}

int groupby_radix_begin(groupby **lanes, int nlane, col_error *err){
  groupby *dst = lanes[0];
  /* widened (or split when they began holding rows): no column sums left */
  int rc = gb_radix_split(dst, err);
  if( rc ) return rc;
  for(int i=1; i<nlane; i++){
    if( (rc = groupby_merge_begin(dst, lanes[i], err))!=0 ) return rc;
  }
  return COL_OK;
}

/* Room in partition part of dst for the groups it is about to take: those
** the lanes made (few: they hold rows back past radix_after) and about as
** many as the held rows' keys are distinct. One allocation each, where
** doubling had copied and faulted in every array many times over: with
** ten million groups in 256 partitions, most of the time. */
static int gb_radix_reserve(groupby **lanes, int nlane, int part, void **spare,
                            col_error *err){
  groupby *dst = lanes[0];
  gb_part *p = &dst->parts[part];
  const agg_radix *hr[64] = { 0 };
  const agg_radix **rs = hr;
  if( nlane>64 && (rs = malloc((size_t)nlane * sizeof(*rs)))==0 ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  }
  double want = 0;
  for(int i=0; i<nlane; i++){
    rs[i] = &lanes[i]->held;
    want += lanes[i]->parts[part].table.ngroup;
  }
  double distinct = agg_radix_distinct(rs, nlane, part);
  want += 1.25 * distinct + 16;
  if( rs!=hr ) free(rs);
  uint32_t n = want > AGG_MAX_GROUPS ? AGG_MAX_GROUPS : (uint32_t)want;
  if( agg_table_reserve_spare(&p->table, n, spare) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory growing the hash table");
  }
  /* text keys' bytes: as many as the held rows' share of them that are
  ** distinct, where doubling had copied each partition's heap up */
  uint64_t rows = 0;
  for(int i=0; i<nlane; i++) rows += agg_radix_rows(&lanes[i]->held, part);
  double share = rows ? 1.25 * distinct / (double)rows : 0;
  if( share>1 ) share = 1;
  for(int k=0; k<dst->nindep && rows; k++){
    uint64_t text = 0;
    for(int i=0; i<nlane; i++) text += agg_radix_vtext(&lanes[i]->held, part, k);
    uint64_t bytes = p->table.cols[k].cur_len + (uint64_t)(share * (double)text);
    if( text && agg_keycol_reserve_heap(&p->table.cols[k], bytes) ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory growing the hash table");
    }
  }
  for(int a=0; a<dst->aggs.n; a++){
    int rc = agg_state_reserve_exact(&p->states[a], n, err);
    if( rc ) return rc;
  }
  if( n>p->first_cap ){
    uint64_t *f = agg_zone_realloc(p->table.zone, p->first_row, (size_t)n*8);
    if( f==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    p->first_row = f; p->first_cap = n;
  }
  return COL_OK;
}

int groupby_radix_part(groupby **lanes, int nlane, int part, void **spare, col_error *err){
  groupby *dst = lanes[0];
  int held = 0;
  for(int i=0; i<nlane; i++) held |= agg_radix_has(&lanes[i]->held, part);
  int rc = held ? gb_radix_reserve(lanes, nlane, part, spare, err) : COL_OK;
  if( rc==COL_OK ) rc = gb_radix_feed(dst, dst, part, err);
  for(int i=1; i<nlane && rc==COL_OK; i++){
    rc = groupby_merge_part(dst, lanes[i], part, err);
    if( rc==COL_OK ) rc = gb_radix_feed(dst, lanes[i], part, err);
  }
  if( rc==COL_OK ){
    /* the partition is complete and never probed again: the next one this
    ** thread takes reuses the larger of its buckets and the spare */
    void *b = agg_table_release_buckets(&dst->parts[part].table);
    if( agg_mem_size(b) > agg_mem_size(*spare) ){ void *t = *spare; *spare = b; b = t; }
    agg_mem_free(b);
    /* and its feed's scratch, which the next partition mallocs again from
    ** these very bytes: kept, 256 partitions' scratch was 16 MiB of fresh
    ** pages faulted in */
    gb_part_scratch_free(&dst->parts[part]);
  }
  return rc;
}

static void *gb_worker(void *arg){
  gb_worker_arg *wa = arg;
  groupby *gb = wa->gb;
  int w = wa->part;
  free(wa);
  uint64_t seen = 0;
  for(;;){
    pthread_mutex_lock(&gb->mu);
    while( gb->gen==seen && !gb->quit ) pthread_cond_wait(&gb->go, &gb->mu);
    if( gb->quit ){ pthread_mutex_unlock(&gb->mu); break; }
    seen = gb->gen;
    pthread_mutex_unlock(&gb->mu);
    gb_part_consume(gb, w);
    pthread_mutex_lock(&gb->mu);
    gb->ndone++;
    pthread_cond_signal(&gb->done);
    pthread_mutex_unlock(&gb->mu);
  }
  return 0;
}

static int gb_start_workers(groupby *gb, col_error *err){
  while( gb->nstarted < gb->nthread-1 ){
    gb_worker_arg *wa = malloc(sizeof(*wa));
    if( wa==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    wa->gb = gb; wa->part = gb->nstarted + 1;
    if( pthread_create(&gb->tids[gb->nstarted], 0, gb_worker, wa) ){
      free(wa);
      return col_error_set(err, COL_ERROR, "group_by: cannot start a worker thread");
    }
    gb->nstarted++;
  }
  return COL_OK;
}

uint64_t groupby_memory(const groupby *gb){
  uint64_t m = (uint64_t)gb->hcap*8 + gb->arena.cap_total + agg_expr_memory(gb->where);
  if( gb->held.parts ) m += agg_radix_memory(&gb->held);
  for(int k=0; k<gb->keys.n; k++) m += agg_expr_memory(gb->keys.items[k].expr);
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    for(int j=0; j<2+it->nob; j++) m += agg_expr_memory(gb_agg_expr(it, j));
  }
  for(int i=0; i<gb->nparts; i++){
    const gb_part *p = &gb->parts[i];
    m += agg_table_footprint(&p->table) + agg_table_owned(&p->table);
    m += (uint64_t)p->first_cap*8 + (uint64_t)p->cap*16 + (uint64_t)p->dc_cap*4 + (uint64_t)p->dd_cap*8;
    for(int b=0; b<gb->nbase; b++) if( gb->bases[b].active ) m += (uint64_t)p->lcap*16;
    for(int a=0; a<gb->aggs.n; a++){
      m += agg_state_footprint(&p->states[a]);
      if( p->ord ) m += agg_ordbuf_footprint(&p->ord[a]);
    }
  }
  return m;
}

int groupby_where_never(groupby *gb, int *never, col_error *err){
  if( gb->where_never==0 ){
    int nv;
    int rc = agg_expr_where_never(gb->where, &gb->arena, &nv, err);
    if( rc ) return rc;
    gb->where_never = nv ? 2 : 1;
  }
  *never = gb->where_never==2;
  return COL_OK;
}

/* The rows of b where gb->where is true (sqlite3VdbeBooleanValue, NULL
** false), as a batch sharing b's columns. */
static int gb_where(groupby *gb, const col_batch *b, col_batch *wb, col_error *err){
  const col_vector *v;
  if( b->n+1 > gb->wcap ){
    uint32_t *w = realloc(gb->wsel, ((size_t)b->n + 1)*4);
    if( w==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    gb->wsel = w; gb->wcap = b->n + 1;
  }
  int never;
  int rc = groupby_where_never(gb, &never, err);
  if( rc ) return rc;
  if( never ){
    *wb = *b;
    wb->sel = gb->wsel; wb->nsel = 0;
    return COL_OK;
  }
  rc = agg_expr_eval_where(gb->where, b, &gb->arena, &v, err);
  if( rc ) return rc;
  uint32_t nsel = b->sel ? b->nsel : b->n, m = 0;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    pred_value x = agg_value_at(v, r);
    int t = x.type==CV_NULL ? 0 : x.type==CV_INT ? x.i!=0 : agg_real_value(gb->dialect.atof_mode, &x)!=0.0;
    if( t ) gb->wsel[m++] = r;
  }
  *wb = *b;
  wb->sel = gb->wsel; wb->nsel = m;
  return COL_OK;
}

/* A LIMIT without ORDER BY (agg_table.max_groups) whose table is full:
** a row whose first key is an INTEGER that no group's first key equals
** can have no group, so it is dropped before its keys are hashed. In
** GROUP BY UserID, SearchPhrase LIMIT 10 that is nearly every row. 0 with
** *fb the batch of the rows kept, 1 when this does not apply, -1 on OOM. */
static inline uint32_t gb_cut_home(int64_t x, uint32_t mask){
  return (uint32_t)(((uint64_t)x * 0x9e3779b97f4a7c15ull) >> 40) & mask;
}
static int gb_cut_prefilter(groupby *gb, const col_batch *b, col_batch *fb, col_error *err){
  gb_part *p = &gb->parts[0];
  /* max_groups is set only on a serial table (groupby_new); its keys may
  ** all be derived, and then it holds no key column to test */
  if( gb->cut_state<0 || gb->nindep<1 || p->table.max_groups==0
   || p->table.ngroup < p->table.max_groups ) return 1;
  const col_vector *v = gb->kv[0];
  if( v->form!=CV_FLAT || v->tags || v->type!=CV_INT ) return 1;
  if( gb->cut_state==0 ){
    /* the groups are fixed from now on: the set is made once */
    const agg_keycol *kc = &p->table.cols[0];
    uint32_t ng = p->table.ngroup;
    if( kc->tags || kc->utag!=CV_INT || ng > 4096 ){ gb->cut_state = -1; return 1; }
    /* sparse, so that nearly every row finds its home slot empty and the
    ** branch on it is predicted (a quarter full, it mispredicted a row in
    ** six); used[] stays within L1 */
    uint32_t cap = 16;
    while( cap < ng*4 || (cap < ng*256 && cap < 32768) ) cap *= 2;
    gb->cut_keys = malloc((size_t)cap*8);
    gb->cut_used = calloc(cap, 1);
    if( !gb->cut_keys || !gb->cut_used ){
      col_error_set(err, COL_ENOMEM, "group_by: out of memory");
      return -1;
    }
    gb->cut_mask = cap - 1;
    for(uint32_t g=0; g<ng; g++){
      int64_t x = (int64_t)AGG_KEY_WORD(kc, g);
      uint32_t at = gb_cut_home(x, gb->cut_mask);
      while( gb->cut_used[at] && gb->cut_keys[at]!=x ) at = (at + 1) & gb->cut_mask;
      gb->cut_used[at] = 1; gb->cut_keys[at] = x;
    }
    gb->cut_state = 1;
  }
  if( b->n > gb->cut_cap ){
    uint32_t *sel = realloc(gb->cut_sel, (size_t)b->n*4);
    if( sel==0 ){ col_error_set(err, COL_ENOMEM, "group_by: out of memory"); return -1; }
    gb->cut_sel = sel; gb->cut_cap = b->n;
  }
  uint32_t nsel = b->sel ? b->nsel : b->n, m = 0;
  const int64_t *keys = gb->cut_keys;
  const uint8_t *used = gb->cut_used;
  uint32_t mask = gb->cut_mask;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    int64_t x = v->i64[r];
    uint32_t at = gb_cut_home(x, mask);
    while( used[at] ){
      if( keys[at]==x ){ gb->cut_sel[m++] = r; break; }
      at = (at + 1) & mask;
    }
  }
  *fb = *b;
  fb->sel = gb->cut_sel; fb->nsel = m;
  return 0;
}

int groupby_consume(groupby *gb, const col_batch *b0, col_error *err){
  int rc;
  const col_batch *b = b0;
  col_batch wb;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( nsel==0 ){ gb->row_base += b->n; return COL_OK; }
  col_arena_reset(&gb->arena);
  if( gb->where ){
    if( (rc = gb_where(gb, b0, &wb, err))!=0 ) return rc;
    b = &wb;
    nsel = wb.nsel;
    if( nsel==0 ){ gb->row_base += b->n; return COL_OK; }
  }
  for(int bi=0; bi<gb->nbase; bi++){
    gb_base *bs = &gb->bases[bi];
    if( !bs->active ) continue;
    double m;
    if( gb_lin_scan(&b->cols[bs->bcol], b, &m) ){
      double mx = m>bs->maxabs ? m : bs->maxabs;
      if( (bs->rows + nsel) * (mx + (double)bs->maxk) < 4503599627370496.0 ){
        bs->maxabs = mx;
        bs->rows += nsel;
        continue;
      }
    }
    if( (rc = gb_lin_stop(gb, bi, err))!=0 ) return rc;
  }
  for(int i=0; i<gb->keys.n; i++){
    if( gb->kcol[i]<0 ) continue;
    rc = agg_expr_eval(gb->keys.items[i].expr, b, &gb->arena, &gb->kv[gb->kcol[i]], err);
    if( rc ) return rc;
  }
  col_batch fb;
  int cut = gb_cut_prefilter(gb, b, &fb, err);
  if( cut<0 ) return err->code;
  if( cut==0 ){
    b = &fb;
    nsel = fb.nsel;
    if( nsel==0 ){ gb->row_base += b->n; return COL_OK; }
  }
  for(int i=0; i<gb->aggs.n; i++){
    const agg_item *it = &gb->aggs.items[i];
    gb->av[i] = 0; gb->sv[i] = 0;
    if( gb->lin_base[i]>=0 && gb->bases[gb->lin_base[i]].active ) continue;
    if( it->expr && (rc = agg_expr_eval(it->expr, b, &gb->arena, &gb->av[i], err))!=0 ) return rc;
    if( it->sep && (rc = agg_expr_eval(it->sep, b, &gb->arena, &gb->sv[i], err))!=0 ) return rc;
    for(int t=0; t<it->nob; t++){
      rc = agg_expr_eval(it->ob[t], b, &gb->arena, &gb->ov[gb->ov_at[i] + t], err);
      if( rc ) return rc;
    }
  }
  if( b->n > gb->hcap ){
    uint64_t *h = realloc(gb->hashes, (size_t)b->n*8);
    if( h==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    gb->hashes = h; gb->hcap = b->n;
  }
  gb->hash_lazy = gb_hash_lazy(gb);
  if( gb->keys.n && !gb->hash_lazy && gb_hash_rows(gb, gb->kv, b->sel, nsel, gb->hashes, err) ){
    return err->code;
  }
  gb->batch = b;
  for(int i=0; i<gb->nthread; i++) col_error_clear(&gb->parts[i].err);
  if( gb->nthread>1 && gb->lane ){
    rc = gb->single ? gb_single_rows(gb, b, nsel, err) : gb_scatter(gb, b, nsel, err);
    if( rc ) return rc;
    int held = gb->radix_on ? gb_radix_hold(gb, b, nsel, err) : 0;
    if( held<0 ) return err->code;
    if( !held ) for(int w=0; w<gb->nthread; w++) gb_part_consume(gb, w);
    gb->live_rows += nsel;
    if( gb->radix_after && !gb->radix_on ){
      uint64_t g = 0;
      for(int i=0; i<gb->nthread; i++) g += gb->parts[i].table.ngroup;
      if( g>=gb->radix_after ){
        int hold = 1;
        double text_row = 0;
        int text = gb->radix_after>1 ? gb_radix_suits(gb, b, nsel, &text_row) : 0;
        if( text<0 || (text>0 && (gb->radix_waited || !gb_radix_hold_early(gb, g, b->n, text_row))) ){
          gb->radix_after = 0;      /* radix=auto, text that does not pay */
          hold = 0;
        }else if( text==0 && gb->radix_repeats && !gb->radix_waited ){
          if( !gb_radix_hold_early(gb, g, b->n, 0) ){
            gb->radix_after *= GB_RADIX_WAIT;   /* look again there */
            gb->radix_waited = 1;
            hold = 0;
          }
        }else if( text==0 && gb->radix_repeats && (gb->live_rows - g) * GB_RADIX_REPEATS < gb->live_rows ){
          gb->radix_after = 0;      /* keys nearly all new: stream on */
          hold = 0;
        }
        if( hold && (rc = gb_radix_start(gb, err))!=0 ) return rc;
      }
    }
  }else if( gb->nthread>1 ){
    if( (rc = gb_start_workers(gb, err))!=0 ) return rc;
    pthread_mutex_lock(&gb->mu);
    gb->ndone = 0;
    gb->gen++;
    pthread_cond_broadcast(&gb->go);
    pthread_mutex_unlock(&gb->mu);
    gb_part_consume(gb, 0);
    pthread_mutex_lock(&gb->mu);
    while( gb->ndone < gb->nstarted ) pthread_cond_wait(&gb->done, &gb->mu);
    pthread_mutex_unlock(&gb->mu);
  }else{
    gb_part_consume(gb, 0);
  }
  gb->batch = 0;
  gb->row_base += b->n;
  for(int i=0; i<gb->nthread; i++){
    if( gb->parts[i].err.code ){
      col_error_set(err, gb->parts[i].err.code, "%s", gb->parts[i].err.msg);
      return err->code;
    }
  }
  if( gb->single && gb->parts[0].table.ngroup >= GB_SINGLE_GROUPS/(uint32_t)gb->nthread
   && (rc = gb_single_split(gb, err))!=0 ) return rc;
  if( gb->memory_limit ){
    uint64_t m = groupby_memory(gb);
    if( m > gb->memory_limit ){
      uint64_t g = 0;
      for(int i=0; i<gb->nthread; i++) g += gb->parts[i].table.ngroup;
      return col_error_set(err, COL_ECONSTRAINT,
          "group_by: memory limit of %llu bytes exceeded (%llu bytes in use for %llu groups); "
          "raise memory_limit= or group by fewer distinct keys",
          (unsigned long long)gb->memory_limit, (unsigned long long)m, (unsigned long long)g);
    }
  }
  return COL_OK;
}

/* ---- constant expressions ---------------------------------------------- */

void gb_count_col(void *ctx, int c){ (void)c; (*(int*)ctx)++; }

/* The value of a constant expression e (no column references), else 0. */
int gb_const_value(agg_expr *e, col_arena *arena, pred_value *out){
  int ncol = 0;
  agg_expr_columns(e, gb_count_col, &ncol);
  if( ncol ) return 0;
  col_batch b;
  memset(&b, 0, sizeof(b));
  b.n = 1; b.nsel = 1;
  const col_vector *v;
  col_error err;
  col_error_clear(&err);
  if( agg_expr_eval(e, &b, arena, &v, &err) ) return 0;
  *out = agg_value_at(v, 0);
  return 1;
}
