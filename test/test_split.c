/*
** test_split.c — jobs shared out among a parallel scan's lanes
** (reader/split.c), and group bys whose lanes take over each other's jobs
** (agg/groupby_run.c) giving the serial answer in the serial order.
*/
#include "unit.h"
#include "../reader/split.h"
#include "../reader/parquet/parquet.h"
#include "../agg/groupby.h"
#include "../agg/groupby_run.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_split_starting_runs(void){
  col_split *s = col_split_new(2, 4);
  CHECK(s!=0);
  if( s==0 ) return;
  int64_t rows[10];
  for(int j=0; j<10; j++) rows[j] = 100;
  CHECK_EQ_INT(col_split_jobs(s, 10, rows), 0);
  CHECK_EQ_INT(col_split_jobs(s, 10, rows), 0);   /* a second lane's scan */
  CHECK_EQ_INT(col_split_jobs(s, 9, rows), -1);   /* a scan that disagrees */
  /* by rows: jobs 0-4 and 5-9 */
  for(int j=0; j<5; j++) CHECK_EQ_INT(col_split_claim(s, 0), j);
  CHECK_EQ_INT(col_split_claim(s, 1), 5);
  /* lane 0 is out; lane 1 has 6, 7, 8, 9 left: a new lane takes 8, 9 */
  CHECK_EQ_INT(col_split_claim(s, 0), -1);
  CHECK_EQ_INT(col_split_steal(s, 5), -1);        /* fewer than 5 left */
  CHECK_EQ_INT(col_split_steal(s, 1), 2);
  CHECK_EQ_INT(col_split_claim(s, 1), 6);
  CHECK_EQ_INT(col_split_claim(s, 2), 8);
  CHECK_EQ_INT(col_split_claim(s, 1), 7);
  CHECK_EQ_INT(col_split_claim(s, 1), -1);
  /* one left (9): taken whole */
  CHECK_EQ_INT(col_split_steal(s, 1), 3);
  CHECK_EQ_INT(col_split_claim(s, 2), -1);
  CHECK_EQ_INT(col_split_claim(s, 3), 9);
  CHECK_EQ_INT(col_split_steal(s, 1), -1);        /* nothing left, and full */
  CHECK_EQ_INT(col_split_lanes(s), 4);
  int order[4];
  col_split_order(s, order);
  CHECK_EQ_INT(order[0], 0); CHECK_EQ_INT(order[1], 1);
  CHECK_EQ_INT(order[2], 2); CHECK_EQ_INT(order[3], 3);
  CHECK_EQ_INT(col_split_claim(s, 7), -1);        /* no such lane */
  col_split_free(s);

  /* uneven rows: the runs split the rows, not the jobs; empty lanes and
  ** no jobs at all */
  s = col_split_new(3, 3);
  int64_t uneven[5] = { 1000, 10, 10, 10, 1000 };
  CHECK_EQ_INT(col_split_jobs(s, 5, uneven), 0);
  CHECK_EQ_INT(col_split_claim(s, 0), 0);
  CHECK_EQ_INT(col_split_claim(s, 0), -1);
  CHECK_EQ_INT(col_split_claim(s, 1), 1);
  CHECK_EQ_INT(col_split_claim(s, 2), 4);
  CHECK_EQ_INT(col_split_steal(s, 1), -1);        /* maxlane reached */
  col_split_free(s);
  s = col_split_new(2, 4);
  CHECK_EQ_INT(col_split_steal(s, 1), -1);        /* no scan has opened */
  CHECK_EQ_INT(col_split_jobs(s, 0, rows), 0);
  CHECK_EQ_INT(col_split_claim(s, 0), -1);
  CHECK_EQ_INT(col_split_claim(s, 1), -1);
  CHECK_EQ_INT(col_split_steal(s, 1), -1);
  col_split_free(s);
  CHECK(col_split_new(0, 4)==0);
  CHECK(col_split_new(3, 2)==0);
}

/* The runs a dataset's jobs start in, as shards (scan_spec.nshard) and a
** split's starting lanes both take them. */
static void test_split_divide(void){
  int start[8];
  int64_t even[6] = { 10, 10, 10, 10, 10, 10 };
  col_split_divide(even, 6, 3, start);
  CHECK_EQ_INT(start[0], 0); CHECK_EQ_INT(start[1], 2);
  CHECK_EQ_INT(start[2], 4); CHECK_EQ_INT(start[3], 6);
  /* a job goes where its middle row falls: the big first job alone */
  int64_t uneven[5] = { 1000, 10, 10, 10, 1000 };
  col_split_divide(uneven, 5, 3, start);
  CHECK_EQ_INT(start[1], 1); CHECK_EQ_INT(start[2], 4); CHECK_EQ_INT(start[3], 5);
  /* more runs than jobs: some runs empty, the jobs still in order */
  int64_t two[2] = { 5, 5 };
  col_split_divide(two, 2, 5, start);
  int total = 0;
  for(int r=0; r<5; r++){ CHECK(start[r] <= start[r+1]); total += start[r+1] - start[r]; }
  CHECK_EQ_INT(start[0], 0); CHECK_EQ_INT(start[5], 2); CHECK_EQ_INT(total, 2);
  /* no jobs; jobs of no rows (a run may be empty, every job is in one) */
  col_split_divide(two, 0, 3, start);
  CHECK_EQ_INT(start[0], 0); CHECK_EQ_INT(start[3], 0);
  int64_t none[3] = { 0, 0, -1 };
  col_split_divide(none, 3, 2, start);
  CHECK_EQ_INT(start[0], 0); CHECK_EQ_INT(start[2], 3);
}

/* Threads that claim jobs and, out of them, steal: every job is claimed
** once, each lane's jobs are one ascending run, and the lanes in
** col_split_order cover the jobs in order. */
enum { NJOB = 2000, NTHREAD = 4, MAXLANE = 64 };
typedef struct claim_run {
  col_split *s;
  int lane_of[NJOB];      /* the lane that claimed each job */
  int seq[MAXLANE][NJOB]; /* each lane's jobs in claim order */
  int nseq[MAXLANE];
} claim_run;
typedef struct claim_arg { claim_run *r; int lane; } claim_arg;

static void *claim_thread(void *p){
  claim_arg *a = p;
  claim_run *r = a->r;
  int64_t rows[NJOB];
  for(int j=0; j<NJOB; j++) rows[j] = 1 + j % 7;
  col_split_jobs(r->s, NJOB, rows);
  for(int lane = a->lane; lane>=0; lane = col_split_steal(r->s, 1)){
    int j;
    while( (j = col_split_claim(r->s, lane))>=0 ){
      r->lane_of[j] = lane;
      r->seq[lane][r->nseq[lane]++] = j;
      if( j % 97==0 ) usleep(50);   /* uneven work */
    }
  }
  return 0;
}

static void test_split_threads(void){
  claim_run *r = calloc(1, sizeof(*r));
  if( r==0 ){ CHECK(r!=0); return; }
  for(int round=0; round<20; round++){
    memset(r, 0, sizeof(*r));
    for(int j=0; j<NJOB; j++) r->lane_of[j] = -1;
    r->s = col_split_new(NTHREAD, MAXLANE);
    pthread_t tid[NTHREAD];
    claim_arg args[NTHREAD];
    for(int t=0; t<NTHREAD; t++){
      args[t].r = r; args[t].lane = t;
      pthread_create(&tid[t], 0, claim_thread, &args[t]);
    }
    for(int t=0; t<NTHREAD; t++) pthread_join(tid[t], 0);
    int n = col_split_lanes(r->s), bad = 0;
    for(int j=0; j<NJOB; j++) bad += r->lane_of[j]<0;
    int order[MAXLANE], next = 0;
    col_split_order(r->s, order);
    for(int i=0; i<n; i++){
      int l = order[i];
      for(int k=0; k<r->nseq[l]; k++) bad += r->seq[l][k]!=next++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(next, NJOB);
    CHECK(n>NTHREAD);       /* the uneven work made lanes steal */
    col_split_free(r->s);
  }
  free(r);
}

/* ---- group bys over lanes that steal ------------------------------------ */

/* Every output row of gb as one text, in output order. */
static char *gb_rows_text(const groupby *gb){
  size_t cap = 1024, len = 0;
  char *out = malloc(cap);
  char buf[64];
  col_error err;
  if( out==0 ) return 0;
  out[0] = 0;
  for(uint32_t r=0; r<groupby_ngroups(gb); r++){
    for(int c=0; c<groupby_ncols(gb); c++){
      pred_value v;
      char cell[96];
      const char *extra = 0;
      uint32_t nextra = 0;
      col_error_clear(&err);
      if( groupby_value(gb, r, c, &v, buf, &err) ){
        snprintf(cell, sizeof(cell), "ERR|");
      }else if( v.type==CV_NULL ){
        snprintf(cell, sizeof(cell), "N|");
      }else if( v.type==CV_INT ){
        snprintf(cell, sizeof(cell), "%lld|", (long long)v.i);
      }else if( v.type==CV_REAL ){
        snprintf(cell, sizeof(cell), "%.17g|", v.f);
      }else{
        snprintf(cell, sizeof(cell), "%u:", v.n);
        extra = v.p; nextra = v.n;
      }
      size_t need = len + strlen(cell) + nextra + 2;
      if( need>cap ){
        while( need>cap ) cap *= 2;
        char *o = realloc(out, cap);
        if( o==0 ){ free(out); return 0; }
        out = o;
      }
      memcpy(out + len, cell, strlen(cell)); len += strlen(cell);
      if( nextra ){ memcpy(out + len, extra, nextra); len += nextra; out[len++] = '|'; }
      out[len] = 0;
    }
    out[len++] = '\n'; out[len] = 0;
  }
  return out;
}

/* The group by of keys/aggs over ds at `threads` lanes; its rows as text
** (NULL on error, the message in *err), what its scans did in *stats. */
static char *run_groupby(col_dataset *ds, const char *keys, const char *aggs, int threads,
                         int steal_min, int *lanes_used, scan_stats *stats, col_error *err){
  groupby *gb = 0;
  groupby_options go;
  memset(&go, 0, sizeof(go));
  go.threads = 1;
  if( groupby_new(keys, aggs, &ds->schema, &go, &gb, err) ) return 0;
  scan_spec spec;
  memset(&spec, 0, sizeof(spec));
  groupby_projection(gb, &spec.nproj, &spec.proj, &spec.raw);
  spec.threads = 1;
  spec.batch_size = threads>1 ? 256 : 0;
  groupby_run_opts ro;
  memset(&ro, 0, sizeof(ro));
  ro.keys = keys; ro.aggs = aggs; ro.schema = &ds->schema;
  ro.lanes = threads;
  ro.steal_min = steal_min;
  ro.lanes_used = lanes_used;
  ro.stats = stats;
  char *text = 0;
  if( groupby_run(&gb, ds, &spec, &ro, err)==COL_OK ) text = gb_rows_text(gb);
  groupby_free(gb);
  return text;
}

static void test_groupby_lanes_steal(void){
  /* 8 copies of a file of 8 row groups: 64 jobs */
  char dir[] = "/tmp/test_split_XXXXXX";
  if( mkdtemp(dir)==0 ){ CHECK(!"mkdtemp"); return; }
  FILE *in = fopen("test/data/parquet/rowgroups_zstd_v2.parquet", "rb");
  if( in==0 ){ CHECK(!"test/data/parquet/rowgroups_zstd_v2.parquet (run from the repo root)"); rmdir(dir); return; }
  static char data[1 << 16];
  size_t n = fread(data, 1, sizeof(data), in);
  fclose(in);
  char path[128];
  for(int i=0; i<8; i++){
    snprintf(path, sizeof(path), "%s/p%d.parquet", dir, i);
    FILE *f = fopen(path, "wb");
    if( f ){ fwrite(data, 1, n, f); fclose(f); }
  }
  snprintf(path, sizeof(path), "%s/*.parquet", dir);
  col_dataset *ds = 0;
  col_error err;
  col_error_clear(&err);
  pq_options po;
  memset(&po, 0, sizeof(po));
  po.filename_column = 1;
  CHECK_EQ_INT(pq_dataset_open(path, &po, &ds, &err), COL_OK);
  static const char *const cases[][2] = {
    { "k5", "count(*), sum(v), min(id), max(half_null), group_concat(id, ',')" },
    { "k5, half_null", "count(half_null), total(v), avg(id), group_concat(filename, ';')" },
    { "id % 300", "count(*), sum(v), group_concat(k5)" },
    { "filename, v % 3", "count(*), min(k5), max(id)" },
    { "", "count(*), sum(id), group_concat(v, '')" },
    { "k5", "group_concat(id, ',' ORDER BY v DESC), min(v ORDER BY id), count(*)" },
    { "v % 5", "group_concat(k5 ORDER BY half_null, id DESC), sum(id)" },
  };
  int stole = 0;
  for(size_t c=0; ds && c<sizeof(cases)/sizeof(cases[0]); c++){
    scan_stats want_stats, got_stats;
    char *want = run_groupby(ds, cases[c][0], cases[c][1], 1, 0, 0, &want_stats, &err);
    CHECK(want!=0);
    if( want==0 ){ fprintf(stderr, "  %s\n", err.msg); continue; }
    for(int threads=2; threads<=5; threads++){
      for(int round=0; round<6; round++){
        int used = 0;
        char *got = run_groupby(ds, cases[c][0], cases[c][1], threads, 1, &used, &got_stats, &err);
        CHECK(got!=0);
        if( got && strcmp(got, want) ){
          CHECK(!"lanes that stole gave other rows or another order");
          fprintf(stderr, "  case %zu threads %d lanes %d\n", c, threads, used);
        }
        /* scan_stats(): the lanes' scans summed count what one scan does */
        if( got && memcmp(&got_stats, &want_stats, sizeof(scan_stats)) ){
          CHECK(!"lanes' scan statistics differ from one scan's");
          fprintf(stderr, "  case %zu threads %d lanes %d: files %lld/%lld row groups %lld/%lld rows %lld/%lld bytes %lld/%lld\n",
                  c, threads, used, (long long)got_stats.files, (long long)want_stats.files,
                  (long long)got_stats.row_groups, (long long)want_stats.row_groups,
                  (long long)got_stats.rows_returned, (long long)want_stats.rows_returned,
                  (long long)got_stats.bytes_read, (long long)want_stats.bytes_read);
        }
        stole += used>threads;
        free(got);
      }
    }
    free(want);
  }
  CHECK(stole>0);
  if( ds ) ds->m->close(ds);
  for(int i=0; i<8; i++){
    snprintf(path, sizeof(path), "%s/p%d.parquet", dir, i);
    unlink(path);
  }
  rmdir(dir);
}

int main(void){
  RUN(test_split_starting_runs);
  RUN(test_split_divide);
  RUN(test_split_threads);
  RUN(test_groupby_lanes_steal);
  return unit_report("split");
}
