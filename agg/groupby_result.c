/*
** groupby_result.c — the group by's answer: finishing the aggregates that
** wait for every row (ORDER BY aggregates replayed, by a team of threads
** when they are many), and each group's keys and values read out; see
** groupby.h.
*/
#include "groupby_int.h"

/* Partitions past which gb_order_upto keeps a heap rather than scanning
** every partition's next group per row (a radix lane's 256). */
#define GB_ORDER_SCAN 8

/* The first row of partition i's next group; none left: past every row. */
static inline uint64_t gb_order_key(const groupby *gb, uint32_t i){
  const gb_part *p = &gb->parts[i];
  uint32_t a = gb->order_at[i];
  return a<p->table.ngroup ? p->first_row[a] : UINT64_MAX;
}

static void gb_order_sift(groupby *gb, uint32_t at){
  uint32_t *h = gb->order_heap, n = gb->order_nheap;
  uint32_t x = h[at];
  uint64_t kx = gb_order_key(gb, x);
  for(;;){
    uint32_t c = 2*at + 1;
    if( c>=n ) break;
    uint64_t kc = gb_order_key(gb, h[c]);
    if( c+1<n ){
      uint64_t k2 = gb_order_key(gb, h[c+1]);
      if( k2<kc ){ c++; kc = k2; }
    }
    if( kx<=kc ) break;
    h[at] = h[c];
    at = c;
  }
  h[at] = x;
}

/* gb_order_upto over many partitions: a min-heap of them by the first row
** of their next group. */
static int gb_order_heap(groupby *gb, uint32_t row, col_error *err){
  if( gb->order_heap==0 ){
    gb->order_heap = malloc((size_t)gb->nparts*4);
    if( gb->order_heap==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    gb->order_nheap = 0;
    for(int i=0; i<gb->nparts; i++){
      if( gb->parts[i].table.ngroup ) gb->order_heap[gb->order_nheap++] = (uint32_t)i;
    }
    for(uint32_t i=gb->order_nheap/2; i-- > 0; ) gb_order_sift(gb, i);
  }
  for(uint32_t o=gb->norder; o<=row && o<gb->ngroups && gb->order_nheap; o++){
    uint32_t best = gb->order_heap[0];
    gb->order_part[o] = best;
    gb->order_slot[o] = gb->order_at[best]++;
    gb->norder = o + 1;
    if( gb->order_at[best]>=gb->parts[best].table.ngroup ){
      gb->order_heap[0] = gb->order_heap[--gb->order_nheap];
    }
    if( gb->order_nheap ) gb_order_sift(gb, 0);
  }
  return COL_OK;
}

/* threads>1: output row -> (partition, slot), merging the partitions'
** groups by the row that first made each (within a partition they are in
** that order already). Built as far as the rows read, on first use: an
** ORDER BY the table consumes (agg/order.h) reads groups where they are
** and never needs it, and a LIMIT 10 needs ten. */
static int gb_order_upto(groupby *gb, uint32_t row, col_error *err){
  if( gb->order_part==0 ){
    uint32_t total = gb->ngroups;
    gb->order_part = malloc(((size_t)total+1)*4);
    gb->order_slot = malloc(((size_t)total+1)*4);
    gb->order_at = calloc((size_t)gb->nparts + 1, 4);
    gb->norder = 0;
    if( !gb->order_part || !gb->order_slot || !gb->order_at ){
      free(gb->order_part); free(gb->order_slot); free(gb->order_at);
      gb->order_part = 0; gb->order_slot = 0; gb->order_at = 0;
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
    }
  }
  uint32_t *at = gb->order_at;
  if( gb->nparts > GB_ORDER_SCAN ) return gb_order_heap(gb, row, err);
  for(uint32_t o=gb->norder; o<=row && o<gb->ngroups; o++){
    int best = -1;
    uint64_t bv = 0;
    for(int i=0; i<gb->nparts; i++){
      const gb_part *p = &gb->parts[i];
      if( at[i]<p->table.ngroup && (best<0 || p->first_row[at[i]]<bv) ){
        best = i; bv = p->first_row[at[i]];
      }
    }
    gb->order_part[o] = (uint32_t)best;
    gb->order_slot[o] = at[best]++;
    gb->norder = o + 1;
  }
  return COL_OK;
}

/* Partitions from, from+step, ...: their ORDER BY aggregates' rows sorted
** and stepped. The first (the caller's thread) polls; all stop together.
** Or, sharing the work of every partition (gb_team), the team's jobs. */
typedef struct gb_team gb_team;
typedef struct gb_replay {
  groupby *gb;
  int from, step;
  gb_team *team;          /* or NULL: partitions from, from+step, ... */
  _Atomic int *stop;
  int (*poll)(void *ctx);     /* the caller's thread only */
  void *poll_ctx;
  uint32_t tick;
  col_error err;
  pthread_t tid;
  int started;
} gb_replay;

/* One job of a team: a partition's ORDER BY aggregate laid out by group
** (plan 0), or groups [g0, g1) of its plan sorted and fed through a fork
** of its state. */
typedef struct gb_job {
  int part, agg;
  uint32_t g0, g1, rows;
  agg_state fork;
} gb_job;

struct gb_team {
  agg_ordplan **plans;    /* per partition and aggregate (part*naggs+agg) */
  gb_job *jobs;
  int njob;
  int layout;             /* jobs are layouts (the first round) */
  _Atomic int next;       /* the next job to take */
};

static int gb_replay_check(void *arg){
  gb_replay *r = arg;
  if( atomic_load_explicit(r->stop, memory_order_relaxed) ) return 1;
  if( r->poll && r->tick++ % 8==0 && r->poll(r->poll_ctx) ){
    atomic_store_explicit(r->stop, 1, memory_order_relaxed);
    return 1;
  }
  return 0;
}

/* The groups of partition part a replay computes (NULL: all). */
static const uint8_t *gb_ord_want(const groupby *gb, int part){
  return gb->ord_want ? gb->ord_want[part] : 0;
}

/* The team's jobs, taken one at a time until none is left. */
static void gb_team_work(gb_replay *r){
  gb_team *tm = r->team;
  groupby *gb = r->gb;
  for(;;){
    int i = atomic_fetch_add_explicit(&tm->next, 1, memory_order_relaxed);
    if( i>=tm->njob || atomic_load_explicit(r->stop, memory_order_relaxed) ) return;
    gb_job *j = &tm->jobs[i];
    gb_part *p = &gb->parts[j->part];
    agg_ordplan **plan = &tm->plans[j->part*gb->aggs.n + j->agg];
    int rc;
    if( tm->layout ){
      rc = agg_state_reserve(&p->states[j->agg], p->table.ngroup, &r->err);
      if( rc==COL_OK ) rc = agg_ordbuf_plan(&p->ord[j->agg], gb_ord_want(gb, j->part), plan, &r->err);
    }else{
      rc = agg_ordplan_run(*plan, j->g0, j->g1, &j->fork, gb_replay_check, r, &r->err);
    }
    if( rc ){
      atomic_store_explicit(r->stop, 1, memory_order_relaxed);
      return;
    }
  }
}

static void *gb_replay_main(void *arg){
  gb_replay *r = arg;
  groupby *gb = r->gb;
  if( r->team ){ gb_team_work(r); return 0; }
  for(int i=r->from; i<gb->nparts; i+=r->step){
    gb_part *p = &gb->parts[i];
    for(int a=0; a<gb->aggs.n && p->ord; a++){
      if( gb->aggs.items[a].nob==0 ) continue;
      int rc = agg_state_reserve(&p->states[a], p->table.ngroup, &r->err);
      if( rc==COL_OK ) rc = agg_ordbuf_replay_groups(&p->ord[a], gb_ord_want(gb, i), &p->states[a],
                                                     gb_replay_check, r, &r->err);
      if( rc ){
        atomic_store_explicit(r->stop, 1, memory_order_relaxed);
        return 0;
      }
    }
  }
  return 0;
}

/* Run gb_replay_main on r[0..nt): threads 1.. started, the caller's as 0
** (a thread that did not start leaves its work to the caller's). The
** first error into *err, unless it only answered another's. */
static int gb_replay_round(gb_replay *r, int nt, col_error *err){
  for(int t=1; t<nt; t++) r[t].started = pthread_create(&r[t].tid, 0, gb_replay_main, &r[t])==0;
  gb_replay_main(&r[0]);
  for(int t=1; t<nt; t++){
    if( r[t].started ) pthread_join(r[t].tid, 0);
    else gb_replay_main(&r[t]);
  }
  int rc = COL_OK;
  for(int t=0; t<nt; t++){
    int c = r[t].err.code;
    if( c && (rc==COL_OK || (rc==COL_EINTERRUPT && c!=COL_EINTERRUPT)) ){ *err = r[t].err; rc = c; }
  }
  return rc;
}

/* Can a team share every partition's replays: is each ORDER BY
** aggregate's state one that threads may update group by group? */
static int gb_team_ok(const groupby *gb){
  for(int i=0; i<gb->nparts; i++){
    const gb_part *p = &gb->parts[i];
    for(int a=0; a<gb->aggs.n && p->ord; a++){
      if( gb->aggs.items[a].nob && !agg_state_forkable(&p->states[a]) ) return 0;
    }
  }
  return 1;
}

static int gb_job_cmp(const void *a, const void *b){
  const gb_job *x = a, *y = b;
  return x->rows > y->rows ? -1 : x->rows < y->rows;
}

/* Every partition's ORDER BY aggregates by a team of nt threads: first
** each laid out by group (a job per partition and aggregate), then their
** groups in runs of about an eighth of a thread's share of the rows, the
** largest first, sorted and fed. Partitions by hash leave the threads
** unequal work where a few groups hold most rows (T10, group_concat
** ORDER BY over RegionID: one of two threads sorted alone for a third of
** the query); groups of one partition are independent as well. */
static int gb_replay_team(groupby *gb, gb_replay *r, int nt, col_error *err){
  int na = gb->aggs.n, nplan = gb->nparts*na, rc;
  gb_team tm;
  memset(&tm, 0, sizeof(tm));
  tm.plans = calloc((size_t)nplan, sizeof(agg_ordplan*));
  tm.jobs = calloc((size_t)nplan, sizeof(gb_job));
  if( tm.plans==0 || tm.jobs==0 ){ rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory"); goto done; }
  for(int i=0; i<gb->nparts; i++){
    for(int a=0; a<na && gb->parts[i].ord; a++){
      if( gb->aggs.items[a].nob==0 ) continue;
      tm.jobs[tm.njob].part = i; tm.jobs[tm.njob].agg = a;
      tm.njob++;
    }
  }
  tm.layout = 1;
  for(int t=0; t<nt; t++) r[t].team = &tm;
  if( (rc = gb_replay_round(r, nt, err))!=COL_OK ) goto done;
  /* the runs: contiguous groups of about `share` rows */
  uint64_t total = 0;
  for(int i=0; i<nplan; i++) if( tm.plans[i] ) total += agg_ordplan_rows(tm.plans[i], 0, agg_ordplan_groups(tm.plans[i]));
  uint64_t share = total / ((uint64_t)nt*8) + 1;
  if( share < 16384 ) share = 16384;
  free(tm.jobs);
  tm.jobs = 0; tm.njob = 0;
  int cap = 0;
  for(int i=0; i<nplan; i++){
    agg_ordplan *pl = tm.plans[i];
    uint32_t ng = pl ? agg_ordplan_groups(pl) : 0;
    for(uint32_t g0=0; g0<ng; ){
      uint32_t g1 = g0 + 1;
      while( g1<ng && agg_ordplan_rows(pl, g0, g1) < share ) g1++;
      if( tm.njob==cap ){
        cap = cap ? 2*cap : 64;
        gb_job *nj = realloc(tm.jobs, (size_t)cap*sizeof(gb_job));
        if( nj==0 ){ rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory"); goto done; }
        tm.jobs = nj;
      }
      gb_job *j = &tm.jobs[tm.njob++];
      j->part = i / na; j->agg = i % na;
      j->g0 = g0; j->g1 = g1; j->rows = agg_ordplan_rows(pl, g0, g1);
      agg_state_fork(&gb->parts[j->part].states[j->agg], &j->fork);
      g0 = g1;
    }
  }
  if( tm.njob>1 ) qsort(tm.jobs, (size_t)tm.njob, sizeof(gb_job), gb_job_cmp);
  tm.layout = 0;
  atomic_store(&tm.next, 0);
  rc = gb_replay_round(r, nt, err);
  for(int k=0; k<tm.njob; k++){
    gb_job *j = &tm.jobs[k];
    agg_state_join(&gb->parts[j->part].states[j->agg], &j->fork);
  }
done:
  for(int i=0; tm.plans && i<nplan; i++) agg_ordplan_free(tm.plans[i]);
  free(tm.plans);
  free(tm.jobs);
  return rc;
}

/* Every partition's ORDER BY aggregates, on up to nthread threads: the
** partitions are independent, and sorting is most of such a query. */
static int gb_replay_all(groupby *gb, int (*poll)(void *), void *poll_ctx, col_error *err){
  int any = 0;
  for(int a=0; a<gb->aggs.n; a++) any |= gb->aggs.items[a].nob>0;
  if( !any ) return COL_OK;
  int team = gb->nthread>1 && gb_team_ok(gb);
  int nt = team || gb->nthread < gb->nparts ? gb->nthread : gb->nparts;
  if( nt<1 ) nt = 1;
  gb_replay *r = calloc((size_t)nt, sizeof(gb_replay));
  if( r==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  _Atomic int stop = 0;
  for(int t=0; t<nt; t++){
    r[t].gb = gb; r[t].from = t; r[t].step = nt;
    r[t].stop = &stop;
    col_error_clear(&r[t].err);
  }
  r[0].poll = poll; r[0].poll_ctx = poll_ctx;
  int rc = team ? gb_replay_team(gb, r, nt, err) : gb_replay_round(r, nt, err);
  free(r);
  return rc;
}

uint64_t groupby_finish_memory(const groupby *gb){
  uint64_t m = 0;
  for(int i=0; i<gb->nparts; i++){
    const gb_part *p = &gb->parts[i];
    for(int a=0; a<gb->aggs.n && p->ord; a++) m += agg_ordbuf_sort_bytes(&p->ord[a]);
  }
  return m;
}

int groupby_finish(groupby *gb, col_error *err){
  return groupby_finish_polled(gb, 0, 0, err);
}

/* The ORDER BY aggregates' stored rows, once every group is computed. */
static void gb_ord_free(groupby *gb){
  for(int i=0; i<gb->nparts; i++){
    gb_part *p = &gb->parts[i];
    for(int a=0; a<gb->aggs.n && p->ord; a++){
      if( gb->aggs.items[a].nob ) agg_ordbuf_free(&p->ord[a]);
    }
  }
}

/* Free per-partition marks *m (NULL: none) and clear it. */
static void gb_marks_free(const groupby *gb, uint8_t ***m){
  for(int i=0; *m && i<gb->nparts; i++) free((*m)[i]);
  free(*m);
  *m = 0;
}

void gb_ord_marks_free(groupby *gb){
  gb_marks_free(gb, &gb->ord_done);
  gb_marks_free(gb, &gb->ord_want);
}

/* May the ORDER BY aggregates wait for groupby_replay_groups? When there
** are some, and computing a group's value cannot fail: group_concat and
** json_group_array fail alone on a text past text_max, and no group's can
** reach it when all the bytes its partition stored could not (a value's
** text is at most 6 times its bytes, json's escapes; a number's at most 64
** bytes, and so is the room left for quotes and a separator given once). */
static int gb_ord_deferrable(const groupby *gb){
  int any = 0;
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    if( it->nob==0 ) continue;
    any = 1;
    if( it->kind!=AGG_GROUP_CONCAT && it->kind!=AGG_JSON_ARRAY ) return 0;
    for(int i=0; i<gb->nparts; i++){
      const gb_part *p = &gb->parts[i];
      if( p->ord==0 ) continue;
      const agg_ordbuf *o = &p->ord[a];
      uint64_t bound = 6*o->heap_len + (uint64_t)o->n*(64 + (o->has_sep ? (uint64_t)o->sep.n : 0));
      if( bound >= p->states[a].text_max ) return 0;
    }
  }
  return any;
}

void groupby_defer_ordered(groupby *gb){ gb->ord_defer = 1; }

int groupby_replay_groups(groupby *gb, const uint64_t *groups, uint32_t n,
                          int (*poll)(void *ctx), void *poll_ctx, col_error *err){
  if( gb->ord_done==0 ) return COL_OK;
  int rc = COL_OK;
  if( groups ){
    if( (gb->ord_want = calloc((size_t)gb->nparts, sizeof(uint8_t*)))==0 ) goto oom;
    for(int i=0; i<gb->nparts; i++){
      if( (gb->ord_want[i] = calloc((size_t)gb->parts[i].table.ngroup + 1, 1))==0 ) goto oom;
    }
    int any = 0;
    for(uint32_t k=0; k<n; k++){
      int part = GROUPBY_GROUP_PART(groups[k]);
      uint32_t slot = GROUPBY_GROUP_SLOT(groups[k]);
      if( part<0 || part>=gb->nparts || slot>=gb->parts[part].table.ngroup ) continue;
      if( gb->ord_done[part][slot] ) continue;
      gb->ord_done[part][slot] = gb->ord_want[part][slot] = 1;
      gb->ord_left--;
      any = 1;
    }
    if( any ) rc = gb_replay_all(gb, poll, poll_ctx, err);
  }else{
    /* the rest: those done are left out */
    gb->ord_want = gb->ord_done;
    for(int i=0; i<gb->nparts; i++){
      uint8_t *w = gb->ord_want[i];
      for(uint32_t g=0; g<gb->parts[i].table.ngroup; g++) w[g] ^= 1;
    }
    rc = gb_replay_all(gb, poll, poll_ctx, err);
    gb->ord_want = 0;
    gb->ord_left = 0;
  }
  gb_marks_free(gb, &gb->ord_want);
  if( gb->ord_left==0 ){
    gb_ord_free(gb);
    gb_ord_marks_free(gb);
  }
  return rc;
oom:
  gb_ord_marks_free(gb);
  gb_ord_free(gb);
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
}

int groupby_finish_polled(groupby *gb, int (*poll)(void *ctx), void *poll_ctx, col_error *err){
  if( gb->ord_defer && gb_ord_deferrable(gb) ){
    if( (gb->ord_done = calloc((size_t)gb->nparts, sizeof(uint8_t*)))==0 ) goto oom;
    gb->ord_left = 0;
    for(int i=0; i<gb->nparts; i++){
      if( (gb->ord_done[i] = calloc((size_t)gb->parts[i].table.ngroup + 1, 1))==0 ) goto oom;
      gb->ord_left += gb->parts[i].table.ngroup;
    }
  }else{
    int rc0 = gb_replay_all(gb, poll, poll_ctx, err);
    gb_ord_free(gb);
    if( rc0 ) return rc0;
  }
  for(int i=0; i<gb->nparts; i++){
    for(int a=0; a<gb->aggs.n; a++){
      int rc = agg_state_settle(&gb->parts[i].states[a], err);
      if( rc ) return rc;
    }
  }
  uint64_t total = 0;
  for(int i=0; i<gb->nparts; i++) total += gb->parts[i].table.ngroup;
  if( total > AGG_MAX_GROUPS ){
    return col_error_set(err, COL_ENOMEM, "group_by: too many groups");
  }
  gb->ngroups = (uint32_t)total;
  /* the row order is built from these groups when first read */
  free(gb->order_part); free(gb->order_slot); free(gb->order_at); free(gb->order_heap);
  gb->order_part = 0; gb->order_slot = 0; gb->order_at = 0; gb->order_heap = 0;
  gb->norder = 0;
  int eager = 0;
  for(int k=0; k<gb->keys.n; k++) eager |= gb->kcol[k]==GB_DERIVED;
  for(int i=0; i<gb->nparts && eager; i++){
    int rc = gb_derive(gb, &gb->parts[i], GB_DERIVED, 0, err);
    if( rc ) return rc;
  }
  gb->finished = 1;
  return COL_OK;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
}

uint32_t groupby_ngroups(const groupby *gb){ return gb->ngroups; }
int groupby_ncols(const groupby *gb){ return gb->keys.n + gb->aggs.n; }

int groupby_column_check(const groupby *gb, int col, col_error *err){
  if( col < gb->keys.n ) return COL_OK;
  int a = col - gb->keys.n;
  if( gb->lin_base[a]>=0 && gb->bases[gb->lin_base[a]].active ) return COL_OK;
  for(int i=0; i<gb->nparts; i++){
    int rc = agg_state_check(&gb->parts[i].states[a], gb->parts[i].table.ngroup, err);
    if( rc ) return rc;
  }
  return COL_OK;
}

uint32_t groupby_part_groups(const groupby *gb, int part){
  return gb->parts[part].table.ngroup;
}

uint64_t groupby_group_seen(const groupby *gb, int part, uint32_t slot){
  return gb->nthread>1 ? gb->parts[part].first_row[slot] : slot;
}

uint32_t groupby_group_row(const groupby *gb, int part, uint32_t slot){
  if( gb->nthread<=1 ) return slot;
  /* each partition's first rows ascend: count the earlier groups of the
  ** others by binary search */
  uint64_t seen = gb->parts[part].first_row[slot];
  uint32_t row = slot;
  for(int i=0; i<gb->nparts; i++){
    if( i==part ) continue;
    const gb_part *p = &gb->parts[i];
    uint32_t lo = 0, hi = p->table.ngroup;
    while( lo<hi ){
      uint32_t mid = lo + (hi-lo)/2;
      if( p->first_row[mid]<seen ) lo = mid + 1; else hi = mid;
    }
    row += lo;
  }
  return row;
}

int groupby_value(const groupby *gb, uint32_t row, int col, pred_value *out,
                  char *buf, col_error *err){
  if( gb->nthread<=1 ) return groupby_value_at(gb, 0, row, col, out, buf, err);
  if( gb->order_part==0 || row>=gb->norder ){
    /* the output is read once finished, by one thread: building the row
    ** order lazily mutates nothing a reader of values sees */
    int rc = gb_order_upto((groupby*)gb, row, err);
    if( rc ) return rc;
  }
  return groupby_value_at(gb, (int)gb->order_part[row], gb->order_slot[row], col, out, buf, err);
}

int groupby_value_in_buf(const groupby *gb, int col){
  return col < gb->keys.n && gb->key_ts[col];
}

const int64_t *groupby_int_column(const groupby *gb, int part, int col){
  const gb_part *p = &gb->parts[part];
  uint32_t ng = p->table.ngroup;
  if( col < gb->keys.n ){
    if( gb->key_ts[col] ) return 0;   /* shown as text, ordered as text */
    if( gb->nrep && gb->key_rep[col]>=0 ) return 0;   /* may read as REAL */
    int kc = gb->kcol[col];
    const agg_keycol *k = kc>=0 ? &p->table.cols[kc] : kc==GB_DERIVED && p->dkeys ? &p->dkeys[col] : 0;
    if( k==0 || k->tags || k->utag!=CV_INT || k->cap<ng || k->stride!=1 ) return 0;
    return (const int64_t*)k->vals;
  }
  const agg_state *s = &p->states[col - gb->keys.n];
  if( s->kind!=AGG_COUNT_STAR && s->kind!=AGG_COUNT ) return 0;
  if( s->cap<ng ) return 0;
  return (const int64_t*)s->a;
}

int groupby_value_at(const groupby *gb, int part, uint32_t slot, int col,
                     pred_value *out, char *buf, col_error *err){
  const gb_part *p = &gb->parts[part];
  if( col < gb->keys.n ){
    int kc = gb->kcol[col];
    if( kc>=0 ){
      *out = agg_table_key(&p->table, kc, slot);
      uint32_t bits = gb->nrep && gb->key_rep[col]>=0 ? agg_state_keyrep(&p->states[gb->rep_agg], slot) : 0;
      if( (bits & GB_KEYREP_SET) && (out->type==CV_INT || out->type==CV_REAL) ){
        int j = gb->key_rep[col];
        if( GB_KEYREP_REAL(bits, j) ){
          if( out->type==CV_INT ){ out->type = CV_REAL; out->f = (double)out->i; }
          if( out->f==0.0 ) out->f = GB_KEYREP_NEG(bits, j) ? -0.0 : 0.0;
        }else if( out->type==CV_REAL && out->f>=-9223372036854775808.0 && out->f<9223372036854775808.0
               && out->f==(double)(int64_t)out->f ){
          /* that row's an INTEGER equal to it */
          out->type = CV_INT; out->i = (int64_t)out->f;
        }
      }
      if( gb->key_ts[col] && out->type==CV_INT ){
        /* a timestamp kept as its integer: the text the reader shows */
        int n = agg_ts_text(out->i, gb->key_ts[col], buf);
        out->type = CV_TEXT; out->p = buf; out->n = (uint32_t)n;
      }
    }else if( kc==GB_DERIVED ){
      *out = agg_keycol_value(&p->dkeys[col], slot);
    }else{
      int rc = gb_derive_lazy(gb, part, slot, err);
      if( rc ) return rc;
      *out = agg_keycol_value(&p->dkeys[col], slot - p->dfrom);
    }
    return COL_OK;
  }
  int a = col - gb->keys.n;
  if( gb->ord_done && gb->aggs.items[a].nob && !gb->ord_done[part][slot] ){
    return col_error_set(err, COL_ERROR, "group_by: internal error: an ORDER BY aggregate read before it was computed");
  }
  int bi = gb->lin_base[a];
  if( bi>=0 && gb->bases[bi].active ){
    int64_t S = slot<p->lcap ? p->lsum[bi][slot] : 0;
    int64_t C = slot<p->lcap ? p->lcnt[bi][slot] : 0;
    agg_sum_exact_result((agg_kind)gb->aggs.items[a].kind, S + C*gb->lin_k[a], C, out);
    return COL_OK;
  }
  return agg_state_result(&p->states[a], slot, out, buf, err);
}
