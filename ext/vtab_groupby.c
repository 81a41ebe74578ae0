/*
** vtab_groupby.c — group_by: GROUP BY aggregates computed off column batches.
**
**   CREATE VIRTUAL TABLE temp.by_region USING group_by(
**     'hits.parquet',                  -- path or glob, or a parquet/csv table name
**     keys = 'RegionID',
**     aggregates = 'count(DISTINCT UserID) AS users, count(*) AS n, avg(Width)',
**     filter = 'AdvEngineID <> 0',     -- optional; pushed into the scan, exact
**     threads = 4,                     -- optional; 1 is exactly serial
**     memory_limit = 1000000000,       -- optional; bytes the hash tables may hold
**     lanes = auto,                    -- optional; on/off: threads > 1 over
**                                      -- Parquet runs parallel lanes always/never
**     radix = auto                     -- optional; lanes hold numeric rows back
**                                      -- by hash partition and aggregate a
**                                      -- partition at a time at the end
**                                      -- (radix.h): auto past 65536 groups for
**                                      -- one key and count(*), for others there
**                                      -- when many groups and few bytes to hold
**                                      -- are foreseen, else past 262144 if their
**                                      -- rows repeat keys; on from the first
**                                      -- batch; off never
**   );
**   SELECT * FROM by_region ORDER BY users DESC LIMIT 10;
**
** The answer is what SQLite's `SELECT keys, aggs FROM t WHERE filter GROUP
** BY keys` gives (agg/ has the semantics). Columns: the keys, then the
** aggregates, each named by its AS alias or its text. Zero keys: one row.
** Other key=value arguments (header=, binary_as_string=, ...) go to the
** reader.
**
** HOW IT WORKS
**
** xCreate/xConnect open the dataset once and parse keys/aggregates/filter
** (errors surface at CREATE). xBestIndex offers to push comparisons on key
** columns that are plain source columns (= != < <= > >= IS IS NOT, IS
** [NOT] NULL, BINARY/NOCASE/RTRIM collation) into the scan as exact
** predicates: a group's rows all have keys equal to the group's key under
** SQLite's comparison, so dropping rows that fail drops exactly the groups
** that fail. The plan is idxStr: one record per argv slot, "<op>,<col>;"
** with op the SQLITE_INDEX_CONSTRAINT_* number and col the source column
** (and +1000 * collation). xFilter applies the source column's affinity
** to each argv value, runs the whole aggregation (scan -> groupby_consume),
** and keeps the result in the cursor; xNext/xColumn walk it. With no keys
** and no filter, agg/summary.c may answer from the dataset's metadata
** (Parquet footer statistics) instead: then no scan runs at all.
**
** Interrupts: SQLite 3.40 offers a virtual table no direct way to see
** sqlite3_interrupt() (sqlite3_is_interrupted() arrived in 3.41). Between
** batches the aggregation steps a tiny prepared statement ("SELECT 1") on
** the same connection: while the outer statement runs, an interrupt makes
** that step return SQLITE_INTERRUPT, and its VM steps count toward the
** progress handler, which can stop it the same way. Either ends the
** aggregation with SQLITE_INTERRUPT.
**
** The table reads files named in SQL, so it is SQLITE_VTAB_DIRECTONLY.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "vtab_groupby.h"
#include "scan_vtab.h"
#include "plan.h"
#include "../agg/groupby.h"
#include "../agg/groupby_run.h"
#include "../agg/filter.h"
#include "../agg/summary.h"
#include "../agg/order.h"
#include "../reader/dataset.h"
#include "../reader/predicate.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct gb_table {
  sqlite3_vtab base;
  sqlite3 *db;            /* the connection */
  columnar_conn *cc;      /* its registry and dialect */
  col_dataset *ds;        /* the source, opened once */
  char *keys;             /* keys= text (sqlite3_malloc'd) */
  char *aggs;             /* aggregates= text (sqlite3_malloc'd) */
  agg_filter filter;      /* filter= predicates */
  int threads;            /* threads= (>=1) */
  uint64_t memory_limit;  /* memory_limit= bytes, 0 none */
  int lanes;              /* lanes=: 0 auto, 1 on, -1 off */
  int radix;              /* radix=: 0 auto, 1 on, -1 off */
  int nkey;               /* key columns */
  int *key_src;           /* per key: source column if a plain column, else -1 */
  int ncol;               /* output columns */
  uint8_t *sortable;      /* per output column: declared without a COLLATE, so
                          ** SQLite orders it under BINARY (agg/order.h) */
  scan_stats last;        /* what its last aggregation's scans did, for */
  int have_last;          /* scan_stats(): valid when set */
} gb_table;

#define GB_MAX_SORT 16   /* ORDER BY terms the table will consume */
#define GB_DISTINCT_SPLIT_AT 65536   /* pairs before a count(DISTINCT) splits */
#define GB_LANE_MIN_ROWS (1 << 21) /* rows to decode before threads run lanes */
#define GB_RADIX_AFTER 65536     /* radix=auto: groups a lane holds before it holds
                                 ** rows back (its table outgrows L2) */

typedef struct gb_cursor {
  sqlite3_vtab_cursor base;
  groupby *gb;            /* the finished aggregation */
  uint32_t row;           /* current output row */
  uint32_t nrow;          /* output rows */
  uint64_t *order;        /* ORDER BY consumed: the groups in order
                          ** (GROUPBY_GROUP), the first norder of them
                          ** (else output rows 0..nrow-1) */
  uint32_t norder;        /* rows order holds: LIMIT + OFFSET of them, or all */
  groupby_sort_term sort[GB_MAX_SORT];  /* the ORDER BY */
  int nsort;
  pred_value *fixed;      /* the one row, when metadata answered (no scan) */
  int nfixed;
  uint32_t first_k;       /* LIMIT without ORDER BY: the aggregation kept
                          ** the first first_k groups alone (0: all) */
  char *plan;             /* while first_k: xFilter's idxStr and arguments, */
  sqlite3_value **args;   /* to aggregate in full if SQLite reads past */
  int nargs;              /* first_k rows (gb_next) */
} gb_cursor;

static char *gb_arg_value(const char *v, int n){
  return columnar_unquote(v, n);
}

/* Declared type of a source column for CREATE TABLE. */
static const char *gb_decl(const col_schema *s, int c){
  return s->cols[c].decl ? s->cols[c].decl : "";
}

/* Does a declared type name a collation (then ORDER BY on the column is
** left to SQLite)? */
static int gb_has_collate(const char *decl){
  for(const char *p=decl; *p; p++){
    if( strncasecmp(p, "collate", 7)==0 ) return 1;
  }
  return 0;
}

/* Column name `name` made unique among the names before it (names[0..n),
** compared as SQLite compares column names, without regard to case) the way
** SQLite names a view's or CREATE TABLE AS's columns: a repeated name
** loses the ":digits" it ends in, if any, and takes ":1", ":2", ... until it is
** new (aggregates='sum(x), sum(x)' gives "sum(x)" and "sum(x):1"; a third
** "sum(x)" or "sum(x):1" gives "sum(x):2"). Appended to ddl and kept in
** names[n] (sqlite3_malloc'd); SQLITE_NOMEM when out of memory. */
static int gb_append_name(sqlite3_str *ddl, char **names, int n, const char *name){
  int base = (int)strlen(name), j = base - 1;
  while( j>0 && name[j]>='0' && name[j]<='9' ) j--;
  if( j>0 && name[j]==':' ) base = j;
  char *u = sqlite3_mprintf("%s", name);
  for(int cnt=1; u; cnt++){
    int taken = 0;
    for(int k=0; k<n && !taken; k++) taken = sqlite3_stricmp(names[k], u)==0;
    if( !taken ) break;
    sqlite3_free(u);
    u = sqlite3_mprintf("%.*s:%d", base, name, cnt);
  }
  if( u==0 ) return SQLITE_NOMEM;
  names[n] = u;
  sqlite3_str_appendf(ddl, "\"%w\"", u);
  return SQLITE_OK;
}

static void gb_free_names(char **names, int n){
  for(int i=0; names && i<n; i++) sqlite3_free(names[i]);
  sqlite3_free(names);
}

static void gb_table_free(gb_table *t){
  if( t==0 ) return;
  if( t->cc ) columnar_conn_remove(t->cc, t);
  col_dataset_release(t->ds);
  sqlite3_free(t->keys); sqlite3_free(t->aggs);
  agg_filter_free(&t->filter);
  sqlite3_free(t->key_src);
  sqlite3_free(t->sortable);
  sqlite3_free(t);
}

static int gb_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **errmsg){
  columnar_conn *cc = aux;
  gb_table *t = sqlite3_malloc64(sizeof(*t));
  const char **opts = 0;
  char *filter = 0;
  sqlite3_str *ddl = 0;
  char **names = 0;         /* the output columns' names so far */
  int nname = 0;
  groupby *gb = 0;
  col_error err;
  col_error_clear(&err);
  int rc = SQLITE_ERROR;
  if( t==0 ) return SQLITE_NOMEM;
  memset(t, 0, sizeof(*t));
  t->db = db;
  t->cc = cc;
  t->threads = columnar_default_threads();
  if( argc<4 ){
    *errmsg = sqlite3_mprintf("group_by: usage: group_by(source, keys='...', aggregates='...', filter='...', threads=N, memory_limit=N, lanes=auto|on|off, radix=auto|on|off)");
    goto connect_error;
  }
  opts = sqlite3_malloc64(sizeof(char*)*(sqlite3_uint64)argc);
  if( opts==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  int nopt = 0;
  const char *source = 0;
  for(int i=3; i<argc; i++){
    const char *k, *v;
    int nk, nv;
    if( !columnar_split_arg(argv[i], &k, &nk, &v, &nv) ){
      if( source ){ *errmsg = sqlite3_mprintf("group_by: unexpected argument: %s", argv[i]); goto connect_error; }
      source = argv[i];
      continue;
    }
    char **dst = 0;
    if( nk==4 && strncasecmp(k, "keys", 4)==0 ) dst = &t->keys;
    else if( nk==10 && strncasecmp(k, "aggregates", 10)==0 ) dst = &t->aggs;
    else if( nk==6 && strncasecmp(k, "filter", 6)==0 ) dst = &filter;
    else if( nk==7 && strncasecmp(k, "threads", 7)==0 ){
      char *s = gb_arg_value(v, nv);
      if( s==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
      long n = strtol(s, 0, 10);
      sqlite3_free(s);
      if( n<1 || n>256 ){ *errmsg = sqlite3_mprintf("group_by: threads must be between 1 and 256"); goto connect_error; }
      t->threads = (int)n;
      continue;
    }else if( nk==12 && strncasecmp(k, "memory_limit", 12)==0 ){
      char *s = gb_arg_value(v, nv);
      if( s==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
      long long n = strtoll(s, 0, 10);
      sqlite3_free(s);
      if( n<0 ){ *errmsg = sqlite3_mprintf("group_by: memory_limit must be a number of bytes"); goto connect_error; }
      t->memory_limit = (uint64_t)n;
      continue;
    }else if( nk==5 && (strncasecmp(k, "radix", 5)==0 || strncasecmp(k, "lanes", 5)==0) ){
      int radix = strncasecmp(k, "radix", 5)==0;
      int *dst3 = radix ? &t->radix : &t->lanes;
      char *s = gb_arg_value(v, nv);
      if( s==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
      int on = sqlite3_stricmp(s, "on")==0, off = sqlite3_stricmp(s, "off")==0;
      int ok = on || off || sqlite3_stricmp(s, "auto")==0;
      sqlite3_free(s);
      if( !ok ){ *errmsg = sqlite3_mprintf("group_by: %s must be auto, on or off", radix ? "radix" : "lanes"); goto connect_error; }
      *dst3 = on ? 1 : off ? -1 : 0;
      continue;
    }else{
      opts[nopt++] = argv[i];
      continue;
    }
    sqlite3_free(*dst);
    *dst = gb_arg_value(v, nv);
    if( *dst==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  }
  if( source==0 ){ *errmsg = sqlite3_mprintf("group_by: no source given"); goto connect_error; }
  if( t->aggs==0 && t->keys==0 ){
    *errmsg = sqlite3_mprintf("group_by: give keys= and/or aggregates=");
    goto connect_error;
  }
  rc = columnar_source_open(cc, source, nopt, opts, &t->ds, errmsg);
  if( rc ) goto connect_error;
  rc = SQLITE_ERROR;
  const col_schema *schema = &t->ds->schema;
  groupby_options o = { 1, 0, 0, 0, 0, &cc->dialect, 0, 0, 0, 0 };
  if( groupby_new(t->keys, t->aggs, schema, &o, &gb, &err) ){
    *errmsg = sqlite3_mprintf("%s", err.msg);
    goto connect_error;
  }
  if( agg_filter_parse(filter, schema, &cc->dialect, &t->filter, &err) ){
    *errmsg = sqlite3_mprintf("%s", err.msg);
    goto connect_error;
  }
  const agg_item_list *kl = groupby_keys(gb), *al = groupby_aggs(gb);
  t->nkey = kl->n;
  t->key_src = sqlite3_malloc64(sizeof(int)*(sqlite3_uint64)(kl->n+1));
  if( t->key_src==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  t->ncol = kl->n + al->n;
  t->sortable = sqlite3_malloc64((sqlite3_uint64)t->ncol + 1);
  if( t->sortable==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  memset(t->sortable, 1, (size_t)t->ncol + 1);
  names = sqlite3_malloc64(sizeof(char*)*(sqlite3_uint64)(t->ncol + 1));
  if( names==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  ddl = sqlite3_str_new(db);
  sqlite3_str_appendall(ddl, "CREATE TABLE x(");
  for(int i=0; i<kl->n; i++){
    t->key_src[i] = kl->items[i].src_col;
    const char *decl = kl->items[i].src_col>=0 ? gb_decl(schema, kl->items[i].src_col) : "";
    t->sortable[i] = !gb_has_collate(decl);
    if( i ) sqlite3_str_appendall(ddl, ", ");
    if( (rc = gb_append_name(ddl, names, nname, kl->items[i].name))!=SQLITE_OK ) goto connect_error;
    nname++;
    sqlite3_str_appendf(ddl, " %s", decl);
  }
  for(int i=0; i<al->n; i++){
    int k = al->items[i].kind;
    const char *decl = (k==AGG_COUNT || k==AGG_COUNT_STAR) ? "INTEGER" : "";
    if( i || kl->n ) sqlite3_str_appendall(ddl, ", ");
    if( (rc = gb_append_name(ddl, names, nname, al->items[i].name))!=SQLITE_OK ) goto connect_error;
    nname++;
    sqlite3_str_appendf(ddl, " %s", decl);
  }
  sqlite3_str_appendall(ddl, ")");
  gb_free_names(names, nname);
  names = 0;
  char *sql = sqlite3_str_finish(ddl);
  ddl = 0;
  if( sql==0 ){ rc = SQLITE_NOMEM; goto connect_error; }
  rc = sqlite3_declare_vtab(db, sql);
  if( rc ) *errmsg = sqlite3_mprintf("group_by: cannot declare columns (%s): %s", sqlite3_errmsg(db), sql);
  sqlite3_free(sql);
  if( rc ) goto connect_error;
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  if( (rc = columnar_conn_add(cc, argv[2], t, 0, &t->last, &t->have_last))!=SQLITE_OK ) goto connect_error;
  groupby_free(gb);
  sqlite3_free(filter);
  sqlite3_free((void*)opts);
  *out = &t->base;
  return SQLITE_OK;
connect_error:
  if( ddl ) sqlite3_free(sqlite3_str_finish(ddl));
  gb_free_names(names, nname);
  groupby_free(gb);
  sqlite3_free(filter);
  sqlite3_free((void*)opts);
  gb_table_free(t);
  return rc;
}

static int gb_disconnect(sqlite3_vtab *vt){
  gb_table_free((gb_table*)vt);
  return SQLITE_OK;
}

/* idxStr record of one ORDER BY term: GB_PLAN_ORDER,<output col>,<desc>,0; */
#define GB_PLAN_ORDER 1000
/* idxStr record of an output column the statement reads: GB_PLAN_USED,<col>,0,0; */
#define GB_PLAN_USED 1001
/* idxStr record: the LIMIT records that follow apply without an ORDER BY */
#define GB_PLAN_FIRST 1002
/* Added to a key constraint's collation: SQLite checks the term as well,
** and a value that is a number leaves it to SQLite alone */
#define GB_PLAN_TEXT_ONLY 16
/* Added to a key constraint's collation: an IN whose values come all at
** once (sqlite3_vtab_in) */
#define GB_PLAN_IN 32

static int gb_best_index(sqlite3_vtab *vt, sqlite3_index_info *info){
  gb_table *t = (gb_table*)vt;
  sqlite3_str *plan = sqlite3_str_new(t->db);
  int argi = 0;
  uint64_t like_cols = scan_plan_like_cols(info);
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( !c->usable || c->iColumn<0 || c->iColumn>=t->nkey || t->key_src[c->iColumn]<0 ) continue;
    switch( c->op ){
      case SQLITE_INDEX_CONSTRAINT_EQ: case SQLITE_INDEX_CONSTRAINT_NE:
      case SQLITE_INDEX_CONSTRAINT_LT: case SQLITE_INDEX_CONSTRAINT_LE:
      case SQLITE_INDEX_CONSTRAINT_GT: case SQLITE_INDEX_CONSTRAINT_GE:
      case SQLITE_INDEX_CONSTRAINT_IS: case SQLITE_INDEX_CONSTRAINT_ISNOT:
      case SQLITE_INDEX_CONSTRAINT_ISNULL: case SQLITE_INDEX_CONSTRAINT_ISNOTNULL:
        break;
      default: continue;
    }
    /* SQLite reports BINARY for every <> and IS NOT constraint, whatever
    ** COLLATE it carries (the term it builds for a virtual table keeps
    ** only the right-hand side); such a COLLATE also hides the value from
    ** sqlite3_vtab_rhs_value, so a known value means none was given */
    sqlite3_value *rhs = 0;
    if( (c->op==SQLITE_INDEX_CONSTRAINT_NE || c->op==SQLITE_INDEX_CONSTRAINT_ISNOT)
     && (sqlite3_vtab_rhs_value(info, i, &rhs)!=SQLITE_OK || rhs==0) ) continue;
    int cl = columnar_collation(t->db, sqlite3_vtab_collation(info, i));
    if( cl<0 ) continue;
    int has_rhs = c->op!=SQLITE_INDEX_CONSTRAINT_ISNULL && c->op!=SQLITE_INDEX_CONSTRAINT_ISNOTNULL;
    int text_col = strcmp(gb_decl(&t->ds->schema, t->key_src[c->iColumn]), "TEXT")==0;
    int known = has_rhs && sqlite3_vtab_rhs_value(info, i, &rhs)==SQLITE_OK && rhs!=0;
    int use = !has_rhs ? PLAN_RHS_EXACT
      : scan_plan_rhs_use(text_col, c->op==SQLITE_INDEX_CONSTRAINT_EQ || c->op==SQLITE_INDEX_CONSTRAINT_IS,
                          known ? rhs : 0, c->iColumn<64 && ((like_cols >> c->iColumn) & 1));
    if( use==PLAN_RHS_SQLITE ) continue;
    /* TEXT-only: xFilter drops the term when its value is a number */
    int text_only = use==PLAN_RHS_TEXT_ONLY;
    /* maybe an OR of = SQLite gave one branch's collation: a superset,
    ** the OR SQLite's to check, or SQLite's alone (ext/plan.h) */
    int suspect = col_def_may_text(&t->ds->schema.cols[t->key_src[c->iColumn]])
      ? scan_plan_in_suspect(info, i, t->cc->dialect.or_in_keeps_collation) : PLAN_IN_PLAIN;
    if( suspect==PLAN_IN_REFUSE ) continue;
    int any_coll = suspect==PLAN_IN_SUPERSET;
    if( any_coll ) cl = COLL_ANY;
    /* an IN: its values all at once, one scan (SQLite would otherwise run
    ** the whole group by once per value). And for a TEXT-only one, what
    ** SQLite checks is then the IN itself; one value at a time it compared
    ** each with the key's TEXT affinity, where s IN (SELECT x FROM ints)
    ** gives s NUMERIC affinity ('05' matches 5) */
    int in_list = c->op==SQLITE_INDEX_CONSTRAINT_EQ && sqlite3_vtab_in(info, i, -1);
    if( in_list ) sqlite3_vtab_in(info, i, 1);
    sqlite3_str_appendf(plan, "%d,%d,%d,%d;", c->op, t->key_src[c->iColumn],
                        cl + (text_only ? GB_PLAN_TEXT_ONLY : 0) + (in_list ? GB_PLAN_IN : 0), c->iColumn);
    if( has_rhs ) info->aConstraintUsage[i].argvIndex = ++argi;
    info->aConstraintUsage[i].omit = !text_only && !any_coll;
  }
  /* ORDER BY over output columns with a LIMIT: the first LIMIT+OFFSET rows
  ** are picked in one pass (agg/order.h) and returned in order. SQLite
  ** still applies LIMIT and OFFSET itself, and may still drop rows by a
  ** WHERE term it never showed the table (3.40 offers LIMIT even then:
  ** x = y on two output columns), so a cursor asked for more rows than
  ** that sorts the rest in full (gb_next). Without a LIMIT the ORDER BY
  ** is left to SQLite's sorter. */
  int ilimit = -1, ioffset = -1, ordered = info->nOrderBy>0;
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( !c->usable ) continue;
    if( c->op==SQLITE_INDEX_CONSTRAINT_LIMIT ) ilimit = i;
    if( c->op==SQLITE_INDEX_CONSTRAINT_OFFSET ) ioffset = i;
  }
  if( info->nOrderBy>GB_MAX_SORT ) ordered = 0;
  for(int i=0; i<info->nOrderBy && ordered; i++){
    int col = info->aOrderBy[i].iColumn;
    if( col<0 || col>=t->ncol || !t->sortable[col] ) ordered = 0;
  }
  if( ordered && ilimit>=0 ){
    sqlite3_str_appendf(plan, "%d,0,0,0;", SQLITE_INDEX_CONSTRAINT_LIMIT);
    info->aConstraintUsage[ilimit].argvIndex = ++argi;
    if( ioffset>=0 ){
      sqlite3_str_appendf(plan, "%d,0,0,0;", SQLITE_INDEX_CONSTRAINT_OFFSET);
      info->aConstraintUsage[ioffset].argvIndex = ++argi;
    }
    for(int i=0; i<info->nOrderBy; i++){
      sqlite3_str_appendf(plan, "%d,%d,%d,0;", GB_PLAN_ORDER,
                          info->aOrderBy[i].iColumn, info->aOrderBy[i].desc);
    }
    /* the columns the statement reads: SQLite's sorter would read them
    ** in every row, so a value error in any row of one must still end it */
    for(int col=0; col<t->ncol; col++){
      if( info->colUsed & ((sqlite3_uint64)1 << (col<63 ? col : 63)) ){
        sqlite3_str_appendf(plan, "%d,%d,0,0;", GB_PLAN_USED, col);
      }
    }
    info->orderByConsumed = 1;
  }else if( info->nOrderBy==0 && ilimit>=0 && t->nkey>0 ){
    /* LIMIT without ORDER BY: any LIMIT + OFFSET groups will do, and
    ** groups come out in first-seen order, so the first that many keys
    ** seen are the answer and rows of later keys can be dropped as they
    ** are read. Only when SQLite filters nothing itself: a term it
    ** keeps would make it read past them (gb_next then aggregates in
    ** full, which is correct but runs the scan twice). */
    int all_ours = 1;
    for(int i=0; i<info->nConstraint; i++){
      int op = info->aConstraint[i].op;
      if( op==SQLITE_INDEX_CONSTRAINT_LIMIT || op==SQLITE_INDEX_CONSTRAINT_OFFSET ) continue;
      if( !info->aConstraint[i].usable || !info->aConstraintUsage[i].omit ) all_ours = 0;
    }
    if( all_ours ){
      sqlite3_str_appendf(plan, "%d,0,0,0;", GB_PLAN_FIRST);
      sqlite3_str_appendf(plan, "%d,0,0,0;", SQLITE_INDEX_CONSTRAINT_LIMIT);
      info->aConstraintUsage[ilimit].argvIndex = ++argi;
      if( ioffset>=0 ){
        sqlite3_str_appendf(plan, "%d,0,0,0;", SQLITE_INDEX_CONSTRAINT_OFFSET);
        info->aConstraintUsage[ioffset].argvIndex = ++argi;
      }
    }
  }
  if( sqlite3_str_errcode(plan) ){ sqlite3_free(sqlite3_str_finish(plan)); return SQLITE_NOMEM; }
  info->idxStr = sqlite3_str_length(plan) ? sqlite3_str_finish(plan) : (sqlite3_free(sqlite3_str_finish(plan)), sqlite3_mprintf(""));
  info->needToFreeIdxStr = 1;
  /* Never so cheap that two plans cost less than none: for an OR, SQLite
  ** may run a plan per branch and merge their rows by rowid (MULTI-INDEX
  ** OR), and a group_by's rowids number the rows of one xFilter, so two
  ** groups of two branches shared a rowid and one was dropped:
  ** (s = 'abc' AND n > 1) OR (n = 3 AND s < 'm') gave 82 groups of 100. */
  info->estimatedCost = 1e6 * (0.6 + 0.4 / (1 + argi));
  info->estimatedRows = 1000;
  return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

static int gb_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out){
  gb_cursor *c = sqlite3_malloc64(sizeof(*c));
  if( c==0 ) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *out = &c->base;
  return SQLITE_OK;
}

static void gb_plan_free(char *plan, sqlite3_value **args, int nargs){
  for(int i=0; i<nargs; i++) sqlite3_value_free(args[i]);
  sqlite3_free(args);
  sqlite3_free(plan);
}

/* Drop the arguments kept for a LIMIT without ORDER BY. */
static void gb_forget_plan(gb_cursor *c){
  gb_plan_free(c->plan, c->args, c->nargs);
  c->args = 0; c->nargs = 0; c->plan = 0;
}

static int gb_close(sqlite3_vtab_cursor *cur){
  gb_cursor *c = (gb_cursor*)cur;
  gb_forget_plan(c);
  groupby_free(c->gb);
  groupby_summary_free(c->fixed, c->nfixed);
  free(c->order);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* Memory an xFilter's predicates point into, freed when it returns. */
typedef struct gb_keep {
  void **p;
  int n, cap;
} gb_keep;

static void *gb_keep_add(gb_keep *k, void *m){
  if( m==0 ) return 0;
  if( k->n==k->cap ){
    int nc = k->cap ? 2*k->cap : 16;
    void **np = sqlite3_realloc64(k->p, sizeof(void*)*(sqlite3_uint64)nc);
    if( np==0 ){ sqlite3_free(m); return 0; }
    k->p = np; k->cap = nc;
  }
  return k->p[k->n++] = m;
}

static void gb_keep_free(gb_keep *k){
  for(int i=0; i<k->n; i++) sqlite3_free(k->p[i]);
  sqlite3_free(k->p);
  memset(k, 0, sizeof(*k));
}

/* v as the scan compares it with the source column declared decl: the
** column's affinity applied (from the dialect, whose atof_mode reads
** '1e-300' as this SQLite does; not sqlite3_value_numeric_type on a copy:
** 3.53 takes the copy's connection mutex, and a copy has no connection),
** TEXT and BLOB bytes copied into k. 1, or 0 when out of memory. */
static int gb_pred_value(const char *decl, sqlite3_value *v, const col_dialect *dialect,
                         gb_keep *k, pred_value *out){
  pred_value x = scan_plan_value_of(v);
  char buf[48];
  x = agg_apply_affinity(decl, x, dialect, buf);
  if( x.type==CV_TEXT || x.type==CV_BLOB ){
    char *cp = gb_keep_add(k, sqlite3_malloc64((sqlite3_uint64)x.n + 1));
    if( cp==0 ) return 0;
    if( x.n ) memcpy(cp, x.p, x.n);
    x.p = cp;
  }
  *out = x;
  return 1;
}

static int gb_cmp_pred_value(const void *a, const void *b){
  return pred_value_compare(a, b, COLL_BINARY);
}

/* p an IN over the values of list v (sqlite3_vtab_in all at once), NULLs
** left out; 1, 0 when a TEXT-only term met a number (then SQLite alone
** checks the IN), 2 when v is one value after all (SQLite chose to loop),
** -1 out of memory, -2 SQLite failed to give the values. */
static int gb_pred_in(scan_pred *p, const char *decl, sqlite3_value *v, int text_only,
                      const col_dialect *dialect, gb_keep *k){
  pred_value *list = 0;
  int n = 0, cap = 0, rc;
  sqlite3_value *iv;
  rc = sqlite3_vtab_in_first(v, &iv);
  if( rc==SQLITE_ERROR || rc==SQLITE_MISUSE ) return 2;
  for(; rc==SQLITE_OK && iv; rc = sqlite3_vtab_in_next(v, &iv)){
    int ty = sqlite3_value_type(iv);
    /* the whole IN, not just this value: a list without it drops its rows */
    if( text_only && (ty==SQLITE_INTEGER || ty==SQLITE_FLOAT) ) return 0;
    if( ty==SQLITE_NULL ) continue;
    if( n==cap ){
      cap = cap ? 2*cap : 16;
      pred_value *nl = gb_keep_add(k, sqlite3_malloc64(sizeof(pred_value)*(sqlite3_uint64)cap));
      if( nl==0 ) return -1;
      if( n ) memcpy(nl, list, sizeof(pred_value)*(size_t)n);
      list = nl;
    }
    if( !gb_pred_value(decl, iv, dialect, k, &list[n]) ) return -1;
    if( list[n].type!=CV_NULL ) n++;
  }
  if( rc!=SQLITE_OK && rc!=SQLITE_DONE ) return -2;
  if( n ) qsort(list, (size_t)n, sizeof(pred_value), gb_cmp_pred_value);
  p->op = PRED_IN; p->in = list; p->nin = n;
  return 1;
}

static pred_op gb_pred_op(int op){
  switch( op ){
    case SQLITE_INDEX_CONSTRAINT_EQ: return PRED_EQ;
    case SQLITE_INDEX_CONSTRAINT_NE: return PRED_NE;
    case SQLITE_INDEX_CONSTRAINT_LT: return PRED_LT;
    case SQLITE_INDEX_CONSTRAINT_LE: return PRED_LE;
    case SQLITE_INDEX_CONSTRAINT_GT: return PRED_GT;
    case SQLITE_INDEX_CONSTRAINT_GE: return PRED_GE;
    case SQLITE_INDEX_CONSTRAINT_IS: return PRED_IS;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: return PRED_ISNOT;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return PRED_ISNULL;
    default: return PRED_NOTNULL;
  }
}

/* Is column col of schema always a number (INTEGER or REAL)? */
static int gb_numeric_col(const col_schema *schema, int col){
  if( col<0 || col>=schema->n ) return 0;
  int ty = schema->cols[col].type;
  return ty==CV_INT || ty==CV_REAL;
}

/* Run the aggregation for the plan and keep the result in the cursor.
** may_cut: a LIMIT without ORDER BY in the plan may keep the first groups
** alone (c->first_k). */
static int gb_run(gb_cursor *c, const char *idxStr, int argc, sqlite3_value **argv,
                  int may_cut){
  gb_table *t = (gb_table*)c->base.pVtab;
  col_error err;
  col_error_clear(&err);
  scan_pred *preds = 0;
  gb_keep keep = { 0, 0, 0 };
  int rc = SQLITE_ERROR;
  groupby_free(c->gb);
  c->gb = 0; c->row = 0; c->nrow = 0;
  free(c->order);
  c->order = 0; c->norder = 0; c->nsort = 0;
  c->first_k = 0;
  groupby_sort_term *sort = c->sort;
  uint8_t *used = sqlite3_malloc64((sqlite3_uint64)t->ncol + 1);
  if( used==0 ) return SQLITE_NOMEM;
  memset(used, 0, (size_t)t->ncol + 1);
  int has_limit = 0;
  sqlite3_int64 limit = -1, offset = 0;
  groupby_summary_free(c->fixed, c->nfixed);
  c->fixed = 0;
  int nrec = 0, first = 0;
  for(const char *s=idxStr ? idxStr : ""; *s; s++) nrec += *s==';';
  preds = sqlite3_malloc64(sizeof(scan_pred)*(sqlite3_uint64)(t->filter.npred + nrec + 1));
  if( preds==0 ){ rc = SQLITE_NOMEM; goto filter_fail; }
  int npred = t->filter.npred;
  if( npred ) memcpy(preds, t->filter.preds, sizeof(scan_pred)*(size_t)npred);
  col_dialect dialect;
  columnar_dialect_now(t->cc, 1, &dialect);
  const char *s = idxStr ? idxStr : "";
  int ai = 0;
  while( *s ){
    int op = (int)strtol(s, (char**)&s, 10); s++;
    int col = (int)strtol(s, (char**)&s, 10); s++;
    int cl = (int)strtol(s, (char**)&s, 10); s++;
    (void)strtol(s, (char**)&s, 10); s++;
    if( op==GB_PLAN_USED ){
      if( col>=0 && col<t->ncol ) used[col] = 1;
      continue;
    }
    if( op==GB_PLAN_FIRST ){ first = 1; continue; }
    if( op==GB_PLAN_ORDER ){
      if( c->nsort>=GB_MAX_SORT || col<0 || col>=t->ncol ){
        col_error_set(&err, COL_ERROR, "group_by: bad plan"); goto filter_error;
      }
      sort[c->nsort].col = col; sort[c->nsort].desc = cl; c->nsort++;
      continue;
    }
    if( op==SQLITE_INDEX_CONSTRAINT_LIMIT || op==SQLITE_INDEX_CONSTRAINT_OFFSET ){
      if( ai>=argc ){ col_error_set(&err, COL_ERROR, "group_by: bad plan"); goto filter_error; }
      sqlite3_value *v = argv[ai++];
      /* SQLite checks LIMIT/OFFSET itself; a value that is not an INTEGER
      ** here just means: return every row, ordered */
      if( sqlite3_value_type(v)!=SQLITE_INTEGER ){ has_limit = -1; continue; }
      if( op==SQLITE_INDEX_CONSTRAINT_LIMIT ){ limit = sqlite3_value_int64(v); if( has_limit==0 ) has_limit = 1; }
      else offset = sqlite3_value_int64(v);
      continue;
    }
    int in_list = cl >= GB_PLAN_IN;
    if( in_list ) cl -= GB_PLAN_IN;
    int text_only = cl >= GB_PLAN_TEXT_ONLY;
    if( text_only ) cl -= GB_PLAN_TEXT_ONLY;
    scan_pred *p = &preds[npred++];
    memset(p, 0, sizeof(*p));
    p->col = col; p->op = gb_pred_op(op); p->coll = (pred_coll)cl; p->exact = 1;
    if( p->op==PRED_ISNULL || p->op==PRED_NOTNULL ) continue;
    if( ai>=argc ){ col_error_set(&err, COL_ERROR, "group_by: bad plan"); goto filter_error; }
    sqlite3_value *v = argv[ai++];
    const char *decl = gb_decl(&t->ds->schema, col);
    if( in_list ){
      int k = gb_pred_in(p, decl, v, text_only, &dialect, &keep);
      if( k==-1 ){ rc = SQLITE_NOMEM; goto filter_fail; }
      if( k==-2 ){ col_error_set(&err, COL_ERROR, "group_by: cannot read an IN list"); goto filter_error; }
      if( k==0 ) npred--;
      if( k!=2 ) continue;
    }
    if( text_only && (sqlite3_value_type(v)==SQLITE_INTEGER || sqlite3_value_type(v)==SQLITE_FLOAT) ){
      npred--;
      continue;
    }
    if( !gb_pred_value(decl, v, &dialect, &keep, &p->v) ){ rc = SQLITE_NOMEM; goto filter_fail; }
  }
  int has_like = 0, has_glob = 0;
  for(int i=0; i<npred; i++){
    preds[i].dialect = &dialect;
    if( preds[i].op==PRED_LIKE ){
      preds[i].like_case_sensitive = dialect.like_case_sensitive;
      has_like = 1;
    }
    has_glob |= preds[i].op==PRED_GLOB;
  }
  /* threads=T busy threads in all. A Parquet source runs T lanes, each
  ** decoding and aggregating its own part of the row groups
  ** (agg/groupby_run.h). Otherwise half aggregate (hash partitions, the
  ** consumer among them) and the rest decode ahead in the reader; with T=2
  ** that is a pipeline: one worker decodes while the consumer aggregates. */
  int agg_threads = t->threads/2 > 0 ? t->threads/2 : 1;
  int scan_threads = t->threads - agg_threads + 1;
  int lanes = t->ds->shardable && t->threads>1 && t->lanes>=0 ? t->threads : 1;
  if( lanes>1 && t->lanes==0 && t->ds->m->rows_unpruned ){
    /* Few rows to decode: lanes cost more than they share out (threads
    ** made, their malloc arenas faulted in, tables merged, and each row
    ** hashed for its lane's partitions). Q43 over 10M rows, whose filter
    ** leaves 3 row groups (368640 rows): 6.0 ms in lanes, 4.5 ms in one
    ** decoding ahead for one aggregating. ClickBench Q37-Q42 and T8 (13
    ** row groups, 1.6M rows, of CounterID 62) at threads=2: Q37 91-96 ->
    ** 86-88 ms, Q38 82 -> 68-70, Q39 44 -> 40-42, Q42 26 -> 23-24, T8
    ** 38-48 -> 34-40; Q40 (five keys, one a CASE over Referer) 266-286
    ** -> 284-286 ms. */
    scan_spec est;
    memset(&est, 0, sizeof(est));
    est.npred = npred; est.preds = preds;
    if( t->ds->m->rows_unpruned(t->ds, &est) < GB_LANE_MIN_ROWS ){
      lanes = 1; agg_threads = 1; scan_threads = t->threads;
    }
  }
  groupby_options o = { agg_threads, t->memory_limit, t->filter.where, 0, 0, &dialect, 0, 0, 0, 0 };
  if( may_cut && first && has_limit==1 && limit>=0 ){
    /* The first LIMIT + OFFSET keys are known only to a serial pass; its
    ** table stays that small, so one thread aggregates while the others
    ** decode ahead. */
    uint64_t k = (uint64_t)limit + (uint64_t)(offset>0 ? offset : 0);
    /* Past what one table holds, no cut. At threads>1 the cut also gives
    ** up the lanes, which wins only when the groups far outnumber the cut:
    ** LIMIT 1000000 over 10M groups, 0.73 s cut against 1.34 s in full at
    ** threads=2, but LIMIT 5000000 over 2M groups, 1.34 s against 0.82 s.
    ** Up to 65536 groups the serial table stays small and cheap. */
    if( k < ((uint64_t)1 << 30) && (t->threads<=1 || k <= 65536) ){
      c->first_k = k>0 ? (uint32_t)k : 1;
      o.max_groups = c->first_k;
      o.threads = 1; agg_threads = 1;
      scan_threads = t->threads; lanes = 1;
    }
  }
  /* No memory_limit given: half of SQLite's hard heap limit when one is set
  ** (the hash tables live outside SQLite's allocator, so the limit itself
  ** would never see them), so a huge GROUP BY ends with an error rather
  ** than the process being killed. */
  if( o.memory_limit==0 ){
    sqlite3_int64 hard = sqlite3_hard_heap_limit64(-1);
    if( hard>0 ) o.memory_limit = (uint64_t)hard/2;
  }
  groupby_run_opts ro = { t->keys, t->aggs, &t->ds->schema, t->filter.where,
                          lanes, o.memory_limit, columnar_probe_interrupted, 0, 0, 0,
                          t->cc->slab_pool, 0, 0, 0, 0, 0 };
  /* lanes=on: DISTINCT aggregates too run in lanes (their sets merged) */
  ro.merge_distinct = t->lanes>0;
  if( groupby_new(t->keys, t->aggs, &t->ds->schema, &o, &c->gb, &err) ) goto filter_error;
  /* auto: one numeric key and count(*)-like aggregates held always (they
  ** gained in every case measured); other shapes where the groups and the
  ** bytes to hold that a lane foresees, or its rows' repeated keys, say so;
  ** text keys only early and short (agg/groupby.c, gb_radix_suits). A
  ** timestamp column read as its stored integers is held as a number:
  ** GROUP BY EventTime (2.5M groups of 10M rows) at threads=2, in-process,
  ** 303-405 ms streamed against 156-163 ms held. */
  if( t->radix>0 ) ro.radix_after = 1;
  else if( t->radix==0 && groupby_radix_ok(c->gb) ){
    ro.radix_after = GB_RADIX_AFTER;
    ro.radix_repeats = !groupby_radix_narrow(c->gb);
  }
  /* functions an extension replaced: group_by would have to evaluate them */
  int replaced = groupby_uses(c->gb, AGG_USES_STRFN | AGG_USES_DATE | AGG_USES_SCALAR | AGG_USES_JSON | AGG_USES_MATH | AGG_USES_NEWFN)
               ? columnar_functions_replaced(t->db) : 0;
  /* a COLLATE's comparisons are computed here as SQLite's own NOCASE and
  ** RTRIM compare: not when the application has replaced them */
  int nocase_foreign = groupby_uses(c->gb, AGG_USES_NOCASE) && columnar_collation(t->db, "NOCASE")<0;
  int rtrim_foreign = groupby_uses(c->gb, AGG_USES_RTRIM) && columnar_collation(t->db, "RTRIM")<0;
  const struct { int foreign, used; const char *what; } refused[] = {
    { replaced & AGG_USES_STRFN, groupby_uses(c->gb, AGG_USES_STRFN), "length(), substr() or instr() here is an extension's" },
    { replaced & AGG_USES_DATE, groupby_uses(c->gb, AGG_USES_DATE), "a date function here is an extension's" },
    { replaced & AGG_USES_SCALAR, groupby_uses(c->gb, AGG_USES_SCALAR),
      "abs(), coalesce(), ifnull(), nullif(), typeof(), trim(), ltrim(), rtrim(), replace(), round(), sign(), likely(), hex(), unicode(), char(), min() or max() here is an extension's" },
    { replaced & AGG_USES_NEWFN, groupby_uses(c->gb, AGG_USES_NEWFN),
      "concat(), concat_ws() or octet_length() here is an extension's or missing (SQLite 3.43 and 3.44 added them)" },
    { replaced & AGG_USES_MATH, groupby_uses(c->gb, AGG_USES_MATH),
      "floor(), ceil(), trunc(), mod(), pow(), sqrt(), exp(), ln() or log() here is an extension's, or this SQLite has no math functions" },
    { dialect.like_foreign, has_like || groupby_uses(c->gb, AGG_USES_LIKE), "LIKE here is an extension's like()" },
    { dialect.glob_foreign, has_glob || groupby_uses(c->gb, AGG_USES_GLOB), "GLOB here is an extension's glob()" },
    { dialect.case_foreign, groupby_uses(c->gb, AGG_USES_CASE), "lower() or upper() here is an extension's" },
    { (replaced & AGG_USES_JSON) || dialect.json_refused, groupby_uses(c->gb, AGG_USES_JSON),
      "json_group_array(), json_group_object(), json_extract(), -> or ->> here is missing, an extension's or unlike 3.40-3.53's" },
    { dialect.date_local==0, groupby_uses(c->gb, AGG_USES_LOCALTIME),
      "'localtime' or 'utc' here is computed unlike 3.40's, 3.42's and 3.53's" },
    { nocase_foreign, groupby_uses(c->gb, AGG_USES_NOCASE), "COLLATE NOCASE here is the application's collation" },
    { rtrim_foreign, groupby_uses(c->gb, AGG_USES_RTRIM), "COLLATE RTRIM here is the application's collation" },
  };
  if( !dialect.iif_multi && groupby_uses(c->gb, AGG_USES_IIF_NEW) ){
    /* as this SQLite would say of the same SQL */
    col_error_set(&err, COL_ERROR, "group_by: iif() of other than three arguments, and if(), are SQLite 3.48's, not this SQLite's");
    goto filter_error;
  }
  for(size_t i=0; i<sizeof(refused)/sizeof(refused[0]); i++){
    if( refused[i].foreign && refused[i].used ){
      col_error_set(&err, COL_ERROR, "group_by: %s, not SQLite's, and group_by cannot evaluate that one (use SQLite's own GROUP BY)", refused[i].what);
      goto filter_error;
    }
  }
  if( t->filter.npred==0 && t->filter.where==0 && (idxStr==0 || idxStr[0]==0)
      && groupby_from_summary(c->gb, t->ds, &c->fixed) ){
    /* the footers answered: no row group read */
    memset(&t->last, 0, sizeof(t->last));
    t->have_last = 1;
    c->nfixed = groupby_ncols(c->gb); c->nrow = 1; rc = SQLITE_OK;
    goto filter_done;
  }
  int nproj;
  const int *proj;
  const uint8_t *raw;
  groupby_projection(c->gb, &nproj, &proj, &raw);
  /* Without lanes (DISTINCT unless lanes=on, groupby_run_uses_lanes;
  ** CSV), one thread aggregates while another decodes. A count(DISTINCT)
  ** whose set outgrows the caches then hands half or more of its inserts
  ** to a thread of its own, on a core the decoding leaves mostly idle
  ** when the rows are numbers alone (so threads=2 runs three):
  ** count(DISTINCT UserID) at threads=2 over 10M rows, GROUP BY RegionID
  ** 0.27 -> 0.22 s, no keys 0.184 -> 0.160 s. With a string to decode
  ** there is no idle core: the same by SearchPhrase, 0.23 -> 0.27 s. */
  if( t->threads>1 && o.threads<=1 ){
    int numeric = 1;
    for(int i=0; i<nproj; i++) numeric &= gb_numeric_col(&t->ds->schema, proj[i]);
    for(int i=0; i<npred; i++) numeric &= gb_numeric_col(&t->ds->schema, preds[i].col);
    if( numeric ) groupby_split_distinct(c->gb, GB_DISTINCT_SPLIT_AT);
  }
  scan_spec spec;
  memset(&spec, 0, sizeof(spec));
  spec.nproj = nproj; spec.proj = proj; spec.raw = raw;
  spec.npred = npred; spec.preds = preds;
  spec.threads = scan_threads;
  spec.whole = 1;
  spec.batch_size = agg_threads>1 || lanes>1 ? 16384 : 0;
  /* ORDER BY ... LIMIT on other columns than ORDER BY aggregates: those
  ** are computed for the groups returned alone (sorting each group's rows
  ** is most of such a query; T10 keeps 10 of 9000 groups) */
  if( c->nsort>0 && has_limit==1 && limit>=0 ){
    const agg_item_list *al = groupby_aggs(c->gb);
    int nk = groupby_ncols(c->gb) - al->n, on_ordered = 0;
    for(int i=0; i<c->nsort; i++){
      int col = sort[i].col;
      on_ordered |= col>=nk && al->items[col-nk].nob>0;
    }
    ro.defer_ordered = !on_ordered;
  }
  sqlite3_stmt *probe = columnar_probe_open(t->db);
  ro.poll_ctx = probe;
  memset(&t->last, 0, sizeof(t->last));
  ro.stats = &t->last;
  int grc = groupby_run(&c->gb, t->ds, &spec, &ro, &err);
  t->have_last = 1;
  if( grc==COL_OK && c->nsort>0 ){
    /* LIMIT < 0 is no limit; OFFSET < 0 is none */
    uint64_t k = has_limit==1 && limit>=0 ? (uint64_t)limit + (uint64_t)(offset>0 ? offset : 0) : UINT64_MAX;
    for(int col=0; col<t->ncol && grc==COL_OK; col++){
      if( used[col] ) grc = groupby_column_check(c->gb, col, &err);
    }
    if( grc==COL_OK ) grc = groupby_order(c->gb, sort, c->nsort, k, &c->order, &c->norder, &err);
    if( grc==COL_OK ) grc = groupby_replay_groups(c->gb, c->order, c->norder, columnar_probe_interrupted, probe, &err);
  }
  sqlite3_finalize(probe);
  if( grc==COL_EINTERRUPT ){
    rc = SQLITE_INTERRUPT;
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = sqlite3_mprintf("interrupted");
    goto filter_fail;
  }
  if( grc ) goto filter_error;
  c->nrow = groupby_ngroups(c->gb);
  rc = SQLITE_OK;
  goto filter_done;
filter_error:
  rc = err.code==COL_ENOMEM && strstr(err.msg, "out of memory") ? SQLITE_NOMEM : SQLITE_ERROR;
  sqlite3_free(t->base.zErrMsg);
  t->base.zErrMsg = sqlite3_mprintf("%s", err.msg[0] ? err.msg : "group_by: scan failed");
filter_fail:
  free(c->order);
  c->order = 0; c->norder = 0;
  groupby_free(c->gb);
  c->gb = 0; c->nrow = 0; c->first_k = 0;
filter_done:
  sqlite3_free(used);
  gb_keep_free(&keep);
  sqlite3_free(preds);
  return rc;
}

static int gb_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                     int argc, sqlite3_value **argv){
  gb_cursor *c = (gb_cursor*)cur;
  (void)idxNum;
  gb_forget_plan(c);
  int rc = gb_run(c, idxStr, argc, argv, 1);
  if( rc==SQLITE_OK && c->first_k && c->nrow>=c->first_k ){
    c->plan = sqlite3_mprintf("%s", idxStr ? idxStr : "");
    c->args = sqlite3_malloc64(sizeof(sqlite3_value*)*(sqlite3_uint64)(argc + 1));
    if( c->plan==0 || c->args==0 ){ gb_forget_plan(c); return SQLITE_NOMEM; }
    for(int i=0; i<argc; i++){
      if( (c->args[i] = sqlite3_value_dup(argv[i]))==0 ){ gb_forget_plan(c); return SQLITE_NOMEM; }
      c->nargs = i + 1;
    }
  }
  return rc;
}

static int gb_next(sqlite3_vtab_cursor *cur){
  gb_cursor *c = (gb_cursor*)cur;
  c->row++;
  if( c->first_k && c->row>=c->nrow && c->plan ){
    /* SQLite read past the first first_k groups (a term it kept to itself
    ** dropped some): aggregate in full; groups keep first-seen order, so
    ** its first first_k are the ones already returned. */
    uint32_t at = c->row;
    char *plan = c->plan;
    sqlite3_value **args = c->args;
    int nargs = c->nargs;
    c->plan = 0; c->args = 0; c->nargs = 0;
    int rc = gb_run(c, plan, nargs, args, 0);
    gb_plan_free(plan, args, nargs);
    c->row = at;
    return rc;
  }
  if( c->order && c->row>=c->norder && c->row<c->nrow ){
    /* past LIMIT + OFFSET: SQLite dropped rows by a term it kept to itself.
    ** The full order's first norder rows are the ones already returned. */
    uint64_t *all;
    uint32_t nall;
    col_error err;
    col_error_clear(&err);
    int rc = groupby_order(c->gb, c->sort, c->nsort, UINT64_MAX, &all, &nall, &err);
    if( rc==COL_OK ){
      free(c->order);
      c->order = all; c->norder = nall;
      /* ORDER BY aggregates computed for the first LIMIT groups alone */
      gb_table *t = (gb_table*)cur->pVtab;
      sqlite3_stmt *probe = columnar_probe_open(t->db);
      rc = groupby_replay_groups(c->gb, 0, 0, columnar_probe_interrupted, probe, &err);
      sqlite3_finalize(probe);
    }
    if( rc ){
      sqlite3_free(cur->pVtab->zErrMsg);
      cur->pVtab->zErrMsg = sqlite3_mprintf("%s", err.msg);
      return rc==COL_EINTERRUPT ? SQLITE_INTERRUPT : rc==COL_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
    }
  }
  return SQLITE_OK;
}
static int gb_eof(sqlite3_vtab_cursor *cur){ gb_cursor *c = (gb_cursor*)cur; return c->row>=c->nrow; }

static int gb_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col){
  gb_cursor *c = (gb_cursor*)cur;
  pred_value v;
  char buf[64];
  col_error err;
  col_error_clear(&err);
  if( c->fixed ){
    v = c->fixed[col];
  }else if( c->order ? groupby_value_at(c->gb, GROUPBY_GROUP_PART(c->order[c->row]),
                                        GROUPBY_GROUP_SLOT(c->order[c->row]), col, &v, buf, &err)
                     : groupby_value(c->gb, c->row, col, &v, buf, &err) ){
    sqlite3_result_error(ctx, err.msg, -1);
    return SQLITE_OK;
  }
  switch( v.type ){
    case CV_INT: sqlite3_result_int64(ctx, v.i); break;
    case CV_REAL: sqlite3_result_double(ctx, v.f); break;
    case CV_TEXT: sqlite3_result_text64(ctx, v.p, v.n, SQLITE_TRANSIENT, SQLITE_UTF8); break;
    case CV_BLOB: sqlite3_result_blob64(ctx, v.p, v.n, SQLITE_TRANSIENT); break;
    default: sqlite3_result_null(ctx); break;
  }
  return SQLITE_OK;
}

static int gb_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid){
  gb_cursor *c = (gb_cursor*)cur;
  uint32_t row = c->row;
  if( c->order ){
    uint64_t g = c->order[c->row];
    row = groupby_group_row(c->gb, GROUPBY_GROUP_PART(g), GROUPBY_GROUP_SLOT(g));
  }
  *rowid = (sqlite3_int64)row + 1;
  return SQLITE_OK;
}

static const sqlite3_module groupby_module = {
  0, gb_connect, gb_connect, gb_best_index, gb_disconnect, gb_disconnect,
  gb_open, gb_close, gb_filter, gb_next, gb_eof, gb_column, gb_rowid,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

int columnar_register_groupby(sqlite3 *db, columnar_conn *cc){
  return sqlite3_create_module_v2(db, "group_by", &groupby_module, cc, 0);
}
