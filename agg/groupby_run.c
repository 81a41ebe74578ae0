/*
** groupby_run.c — one scan into a group by, or parallel lanes folded
** together; see groupby_run.h.
*/
#include "groupby_run.h"
#include "bigmem.h"
#include "../reader/split.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Batches between two calls of the poll callback. */
#define RUN_POLL_EVERY 4

/* Jobs (row groups) a lane must have left unstarted for an idle thread to
** take half of them as a new lane. */
#define RUN_STEAL_MIN 4
/* Lanes per thread at most (starting ones included). */
#define RUN_LANES_PER_THREAD 4

typedef struct run_lane {
  struct run_state *st;   /* the shared run */
  int index;              /* part of the rows this lane scans */
  groupby *gb;            /* its group by */
  col_error err;          /* why it stopped early */
  _Atomic uint64_t mem;   /* bytes its table holds, as last measured */
  scan_stats stats;       /* what its scan did */
  int started;            /* a thread runs it (lanes > 0) */
  pthread_t tid;
} run_lane;

typedef struct run_state {
  col_dataset *ds;
  const scan_spec *spec;
  const groupby_run_opts *o;
  int nthread;            /* lane threads, the caller's among them; also the
                          ** hash partitions of every lane's groups */
  int nlane;              /* lanes made (the split's count once it runs) */
  run_lane *lanes;        /* maxlane of them, indexed as the split's */
  int maxlane;
  struct col_split *split;  /* lanes past nthread take jobs from others;
                          ** NULL: nthread fixed shards */
  groupby_options go;     /* a new lane's group by */
  _Atomic int stop;       /* set once any lane fails or poll says stop */
  int radix;              /* lanes may hold rows back (radix lanes) */
  _Atomic int held;       /* ... and one does: no lane is taken over now */
  pthread_mutex_t mu;     /* guards running */
  pthread_cond_t done;    /* a lane finished */
  int running;            /* lane threads not yet finished */
} run_state;

static uint64_t run_memory(run_state *st){
  uint64_t m = 0;
  /* every slot: lanes a steal makes appear while this runs (an unused
  ** slot holds 0) */
  for(int i=0; i<st->maxlane; i++) m += atomic_load_explicit(&st->lanes[i].mem, memory_order_relaxed);
  return m;
}

static int run_over_limit(run_state *st, col_error *err){
  uint64_t lim = st->o->memory_limit;
  if( lim==0 ) return 0;
  uint64_t m = run_memory(st);
  if( m<=lim ) return 0;
  col_error_set(err, COL_ECONSTRAINT,
      "group_by: memory limit of %llu bytes exceeded (%llu bytes in use by %d lanes); "
      "raise memory_limit= or group by fewer distinct keys",
      (unsigned long long)lim, (unsigned long long)m, st->nlane);
  return 1;
}

/* Scan lane l's part into its table. The caller's thread polls. */
static int run_lane_scan(run_state *st, run_lane *l, int polls){
  scan_spec spec = *st->spec;
  if( st->nlane>1 ){
    spec.shard = l->index; spec.nshard = st->nthread;
    spec.split = st->split;
    spec.threads = 1;
  }
  batch_source *src = 0;
  if( st->ds->m->scan(st->ds, &spec, &src, &l->err) ) return l->err.code;
  src->interrupt = &st->stop;
  int rc = COL_OK;
  for(int nb=0;; nb++){
    if( st->stop ){
      rc = col_error_set(&l->err, COL_EINTERRUPT, "interrupted");
      break;
    }
    if( polls && st->o->poll && nb % RUN_POLL_EVERY==0 && st->o->poll(st->o->poll_ctx) ){
      st->stop = 1;
      rc = col_error_set(&l->err, COL_EINTERRUPT, "interrupted");
      break;
    }
    col_batch *b = 0;
    if( src->m->next(src, &b) ){ l->err = src->err; rc = l->err.code; break; }
    if( b==0 ) break;
    if( (rc = groupby_consume(l->gb, b, &l->err))!=0 ) break;
    if( st->radix && !atomic_load_explicit(&st->held, memory_order_relaxed)
     && groupby_radix_holds(l->gb) ){
      atomic_store_explicit(&st->held, 1, memory_order_relaxed);
    }
    if( st->nlane>1 ){
      atomic_store_explicit(&l->mem, groupby_memory(l->gb), memory_order_relaxed);
      if( run_over_limit(st, &l->err) ){ rc = l->err.code; break; }
    }
  }
  scan_stats_add(&l->stats, &src->stats);
  src->m->close(src);
  if( rc ) st->stop = 1;
  return rc;
}

/* A lane that takes over the jobs the busiest lane has not started (the
** split's new lane), or NULL when none is left worth a lane. */
static run_lane *run_steal(run_state *st){
  if( st->split==0 || st->stop ) return 0;
  if( atomic_load_explicit(&st->held, memory_order_relaxed) ) return 0;
  int i = col_split_steal(st->split, st->o->steal_min>0 ? st->o->steal_min : RUN_STEAL_MIN);
  if( i<0 ) return 0;
  run_lane *l = &st->lanes[i];
  l->st = st; l->index = i;
  col_error_clear(&l->err);
  if( groupby_new(st->o->keys, st->o->aggs, st->o->schema, &st->go, &l->gb, &l->err) ){
    st->stop = 1;   /* its jobs are nobody's now */
    return 0;
  }
  return l;
}

/* A thread's lanes: its own, then any it takes over, until no jobs are
** left to take or a lane fails. */
static void run_thread_lanes(run_state *st, run_lane *l, int polls){
  while( l ){
    if( run_lane_scan(st, l, polls) ) break;
    l = run_steal(st);
  }
}

static void *run_lane_thread(void *arg){
  run_lane *l = arg;
  run_state *st = l->st;
  run_thread_lanes(st, l, 0);
  pthread_mutex_lock(&st->mu);
  st->running--;
  pthread_cond_signal(&st->done);
  pthread_mutex_unlock(&st->mu);
  return 0;
}

/* Wait for the lane threads, polling meanwhile so an interrupt still lands. */
static void run_wait(run_state *st){
  pthread_mutex_lock(&st->mu);
  while( st->running>0 ){
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 20*1000*1000;
    if( ts.tv_nsec >= 1000000000 ){ ts.tv_sec++; ts.tv_nsec -= 1000000000; }
    pthread_cond_timedwait(&st->done, &st->mu, &ts);
    if( st->running>0 && !st->stop && st->o->poll ){
      pthread_mutex_unlock(&st->mu);
      if( st->o->poll(st->o->poll_ctx) ) st->stop = 1;
      pthread_mutex_lock(&st->mu);
    }
  }
  pthread_mutex_unlock(&st->mu);
  for(int i=1; i<st->nthread; i++){
    if( st->lanes[i].started ) pthread_join(st->lanes[i].tid, 0);
  }
}

int groupby_run_uses_lanes(const groupby *gb, const col_dataset *ds,
                           const groupby_run_opts *o){
  if( o->lanes<=1 || !ds->shardable ) return 0;
  /* Lanes fold without copying (groupby_can_fold: a group_concat with a
  ** constant separator, no DISTINCT). */
  if( groupby_can_fold(gb) ) return 1;
  /* DISTINCT sets are merged instead, when asked (lanes=on): each lane's
  ** pairs fed through lane 0's set, partition by partition
  ** (groupby_merge_part). The pipeline (decoding threads feeding one
  ** table) costs about the larger of decoding and aggregating, lanes their
  ** mean and the merge; which is less turns on the pairs the lanes would
  ** hold, unknown before the scan. Measured at threads=2 over 10M rows,
  ** alternated: Q11 0.028 -> 0.041 s and Q12 0.035 -> 0.045 s in lanes;
  ** count(DISTINCT UserID) with no keys 0.14-0.18 s against 0.16-0.19 s,
  ** Q23 0.34-0.42 s against 0.33-0.39 s (a first, unalternated run had
  ** shown 0.19 -> 0.15 s and 0.38 -> 0.295 s); auto keeps the pipeline. */
  return groupby_can_merge(gb) && o->merge_distinct;
}

/* Partitions of every lane, folded or fed (radix lanes), by a pool of
** threads (the caller's among them) that each take the next partition. */
typedef struct run_fold {
  run_state *st;
  groupby **gbs;          /* the lanes' group bys, in file order */
  int nlane;
  int radix;              /* groupby_radix_part, else groupby_fold_part */
  int merge;              /* groupby_merge_part of every lane, in order */
  int nparts;
  _Atomic int next;       /* the next partition to take */
} run_fold;

typedef struct run_folder {
  run_fold *f;
  int polls;              /* the caller's thread: polls between partitions */
  col_error err;
  pthread_t tid;
  int started;
  void *spare;            /* radix: buckets to reuse (groupby_radix_part) */
} run_folder;

static void *run_fold_parts(void *arg){
  run_folder *w = arg;
  run_fold *f = w->f;
  run_state *st = f->st;
  for(;;){
    if( w->polls && st->o->poll && st->o->poll(st->o->poll_ctx) ){
      st->stop = 1;
      col_error_set(&w->err, COL_EINTERRUPT, "interrupted");
      break;
    }
    int part = atomic_fetch_add(&f->next, 1);
    if( part>=f->nparts || st->stop ) break;
    int rc = COL_OK;
    if( f->radix ){
      rc = groupby_radix_part(f->gbs, f->nlane, part, &w->spare, &w->err);
    }else if( f->merge ){
      for(int i=1; i<f->nlane && rc==COL_OK; i++){
        rc = groupby_merge_part(f->gbs[0], f->gbs[i], part, &w->err);
      }
    }else{
      rc = groupby_fold_part(f->gbs, f->nlane, part, &w->err);
    }
    if( rc ){ st->stop = 1; break; }
  }
  agg_mem_free(w->spare);
  w->spare = 0;
  return 0;
}

/* Fold lanes gbs[0..n) (in file order) into gbs[0]: the serial step, then
** the partitions on st->nthread threads (the caller's among them), then
** (folding) gbs[0] adopts what the others kept. */
static int run_fold_lanes(run_state *st, groupby **gbs, int n, int radix, col_error *err){
  size_t nt = st->nthread>0 ? (size_t)st->nthread : 1;
  run_folder *w = calloc(nt, sizeof(run_folder));
  if( w==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  /* DISTINCT sets are not folded in place: they are merged, each lane's
  ** pairs fed through lane 0's set (groupby_can_fold) */
  int merge = !radix && !groupby_can_fold(gbs[0]);
  int rc = COL_OK;
  if( radix ) rc = groupby_radix_begin(gbs, n, err);
  else if( !merge ) rc = groupby_fold_begin(gbs, n, err);
  for(int i=1; merge && i<n && rc==COL_OK; i++) rc = groupby_merge_begin(gbs[0], gbs[i], err);
  if( rc ){ free(w); return rc; }
  run_fold f;
  f.st = st; f.gbs = gbs; f.nlane = n; f.radix = radix; f.merge = merge;
  f.nparts = groupby_parts(gbs[0]);
  atomic_init(&f.next, 0);
  for(size_t t=0; t<nt; t++){
    w[t].f = &f;
    w[t].polls = t==0;
    col_error_clear(&w[t].err);
    if( t>0 && pthread_create(&w[t].tid, 0, run_fold_parts, &w[t])==0 ) w[t].started = 1;
  }
  run_fold_parts(&w[0]);
  for(size_t t=1; t<nt; t++) if( w[t].started ) pthread_join(w[t].tid, 0);
  /* the first real error wins over the interrupt it caused */
  for(size_t t=0; t<nt; t++){
    int c = w[t].err.code;
    if( c && (rc==COL_OK || (rc==COL_EINTERRUPT && c!=COL_EINTERRUPT)) ){ *err = w[t].err; rc = c; }
  }
  if( rc==COL_OK && st->stop ) rc = col_error_set(err, COL_EINTERRUPT, "interrupted");
  if( rc==COL_OK && !radix && !merge ) rc = groupby_fold_adopt(gbs, n, err);
  free(w);
  return rc;
}

/* One pass: lanes (nthread > 1, made here; the merged one replaces *gbp)
** or a single scan into *gbp. */
static int run_pass(groupby **gbp, col_dataset *ds, const scan_spec *spec,
                    const groupby_run_opts *o, int nthread, col_error *err){
  run_state st;
  memset(&st, 0, sizeof(st));
  atomic_init(&st.stop, 0);
  st.ds = ds; st.spec = spec; st.o = o;
  st.nthread = st.nlane = nthread;
  int radix = nthread>1 && o->radix_after && groupby_radix_ok(*gbp);
  /* More lanes than threads only where jobs can be handed over, and not
  ** once radix lanes hold rows back: theirs aggregate at the fold, each
  ** partition from every lane's rows, where a lane more cost more than the
  ** scan's balance gave back (GROUP BY UserID at threads=2, 155-165 ->
  ** 163-173 ms in-process). Until then they are taken over as any: radix
  ** lanes of few groups never hold, and the row groups of a file's halves
  ** can cost very different amounts (Q28 at threads=2, GROUP BY CounterID
  ** over 10M rows: one lane scanned ~90 ms alone after the other ended). */
  st.radix = radix;
  atomic_init(&st.held, 0);
  st.maxlane = nthread>1 && ds->splittable ? nthread*RUN_LANES_PER_THREAD : nthread;
  st.lanes = calloc((size_t)st.maxlane, sizeof(run_lane));
  if( st.lanes==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  int rc = COL_OK;
  for(int i=0; i<st.maxlane; i++){
    run_lane *l = &st.lanes[i];
    l->st = &st; l->index = i;
    atomic_init(&l->mem, 0);
    col_error_clear(&l->err);
  }
  groupby **gbs = 0;
  int *order = 0;
  if( st.nthread==1 ){
    st.lanes[0].gb = *gbp;
    run_lane_scan(&st, &st.lanes[0], 1);
    rc = st.lanes[0].err.code;
    if( rc ) *err = st.lanes[0].err;
    if( o->stats ) *o->stats = st.lanes[0].stats;
    free(st.lanes);
    return rc;
  }
  if( st.maxlane>st.nthread && (st.split = col_split_new(st.nthread, st.maxlane))==0 ){
    free(st.lanes);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory");
  }
  /* Every lane keeps its groups in nthread partitions by hash, so the fold
  ** keeps nthread threads busy; radix lanes keep 256 partitions. A lane's
  ** rows: those of the row groups statistics keep, shared out evenly. */
  int64_t rows = ds->m->rows_unpruned ? ds->m->rows_unpruned(ds, spec) : ds->total_rows;
  st.go = (groupby_options){ st.nthread, 0, o->where, 1, 0, groupby_dialect(*gbp),
                             radix ? o->radix_after : 0, o->radix_repeats, o->slab_pool,
                             rows>0 ? (uint64_t)rows / (uint64_t)st.nthread : 0 };
  for(int i=0; i<st.nthread; i++){
    if( (rc = groupby_new(o->keys, o->aggs, o->schema, &st.go, &st.lanes[i].gb, err))!=0 ) goto done;
  }
  pthread_mutex_init(&st.mu, 0);
  pthread_cond_init(&st.done, 0);
  for(int i=1; i<st.nthread; i++){
    run_lane *l = &st.lanes[i];
    pthread_mutex_lock(&st.mu);
    st.running++;
    pthread_mutex_unlock(&st.mu);
    if( pthread_create(&l->tid, 0, run_lane_thread, l) ){
      pthread_mutex_lock(&st.mu);
      st.running--;
      pthread_mutex_unlock(&st.mu);
      st.stop = 1;
      col_error_set(&l->err, COL_ERROR, "group_by: cannot start a lane thread");
      break;
    }
    l->started = 1;
  }
  run_thread_lanes(&st, &st.lanes[0], 1);
  run_wait(&st);
  pthread_mutex_destroy(&st.mu);
  pthread_cond_destroy(&st.done);
  if( st.split ) st.nlane = col_split_lanes(st.split);
  if( o->lanes_used ) *o->lanes_used = st.nlane;
  if( o->stats ){
    /* lane 0 alone counts what statistics pruned before any lane began */
    memset(o->stats, 0, sizeof(*o->stats));
    for(int i=0; i<st.nlane; i++) scan_stats_add(o->stats, &st.lanes[i].stats);
  }
  /* The first real error wins over the interrupts it caused in other lanes. */
  int bad = -1;
  for(int i=0; i<st.nlane; i++){
    int c = st.lanes[i].err.code;
    if( c==0 ) continue;
    if( bad<0 || (st.lanes[bad].err.code==COL_EINTERRUPT && c!=COL_EINTERRUPT) ) bad = i;
  }
  if( bad<0 && st.stop ){
    bad = 0;
    col_error_set(&st.lanes[0].err, COL_EINTERRUPT, "interrupted");
  }
  if( bad>=0 ){
    *err = st.lanes[bad].err;
    rc = err->code;
    goto done;
  }
  /* the lanes in file order: lane 0 first (its run starts the file) */
  gbs = calloc((size_t)st.nlane, sizeof(groupby*));
  order = calloc((size_t)st.nlane, sizeof(int));
  if( gbs==0 || order==0 ){ rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory"); goto done; }
  if( st.split ) col_split_order(st.split, order);
  else for(int i=0; i<st.nlane; i++) order[i] = i;
  for(int i=0; i<st.nlane; i++) gbs[i] = st.lanes[order[i]].gb;
  /* Radix lanes that held rows back (their partitions made many) finish
  ** a partition at a time, the others widened to as many; lanes that never
  ** did fold as any others. */
  int wide = 0;
  for(int i=0; i<st.nlane && radix; i++) wide |= groupby_parts(gbs[i]) > st.nthread;
  for(int i=0; i<st.nlane && wide; i++){
    if( (rc = groupby_radix_widen(gbs[i], err))!=0 ) goto done;
  }
  if( (rc = run_fold_lanes(&st, gbs, st.nlane, wide, err))!=0 ) goto done;
  for(int i=1; i<st.nlane; i++){
    groupby_free(gbs[i]);
    st.lanes[order[i]].gb = 0;
    atomic_store_explicit(&st.lanes[order[i]].mem, 0, memory_order_relaxed);
  }
  atomic_store_explicit(&st.lanes[order[0]].mem, groupby_memory(gbs[0]), memory_order_relaxed);
  if( run_over_limit(&st, err) ){ rc = err->code; goto done; }
  groupby_free(*gbp);
  *gbp = gbs[0];
  st.lanes[order[0]].gb = 0;
done:
  for(int i=0; i<st.nlane; i++) groupby_free(st.lanes[i].gb);
  free(gbs); free(order);
  col_split_free(st.split);
  free(st.lanes);
  return rc;
}

int groupby_run(groupby **gbp, col_dataset *ds, const scan_spec *spec,
                const groupby_run_opts *o, col_error *err){
  int nlane = groupby_run_uses_lanes(*gbp, ds, o) ? o->lanes : 1;
  /* a lane scans whole row groups: more lanes than those would idle */
  if( ds->nparts>0 && nlane>ds->nparts ) nlane = ds->nparts>1 ? (int)ds->nparts : 1;
  /* before any row, even where the scan would bring none */
  int never = 0;
  int rc = groupby_where_never(*gbp, &never, err);
  if( rc==COL_OK && !never ) rc = run_pass(gbp, ds, spec, o, nlane, err);
  if( rc==COL_OK && !never && nlane>1 && !groupby_merge_exact(*gbp) ){
    col_dialect dialect = *groupby_dialect(*gbp);
    groupby_free(*gbp);
    *gbp = 0;
    groupby_options go = { 1, o->memory_limit, o->where, 0, 0, &dialect, 0, 0, 0, 0 };
    rc = groupby_new(o->keys, o->aggs, o->schema, &go, gbp, err);
    scan_spec serial = *spec;
    if( rc==COL_OK ){
      groupby_projection(*gbp, &serial.nproj, &serial.proj, &serial.raw);   /* spec's was the old gb's */
      rc = run_pass(gbp, ds, &serial, o, 1, err);
    }
  }
  if( rc ) return rc;
  uint64_t sort = groupby_finish_memory(*gbp), held = groupby_memory(*gbp);
  if( o->memory_limit && sort && held + sort > o->memory_limit ){
    return col_error_set(err, COL_ECONSTRAINT,
        "group_by: memory limit of %llu bytes exceeded (%llu bytes in use, %llu more to sort "
        "the rows of ORDER BY aggregates); raise memory_limit=",
        (unsigned long long)o->memory_limit, (unsigned long long)held, (unsigned long long)sort);
  }
  if( o->defer_ordered ) groupby_defer_ordered(*gbp);
  return groupby_finish_polled(*gbp, o->poll, o->poll_ctx, err);
}
