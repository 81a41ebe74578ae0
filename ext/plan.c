/*
** plan.c — how a scan table's xBestIndex hands its plan to xFilter.
**
** HOW IT WORKS
**
** xBestIndex looks at every usable constraint and decides, per constraint,
** one of:
**   exact   the reader applies it to the bit (SQLite's rules) and SQLite is
**           told to omit it;
**   filter  the reader drops rows that certainly fail it, SQLite re-checks
**           (LIKE: ASCII case-insensitive matching is a superset of what any
**           case_sensitive_like setting accepts);
**   prune   only statistics use it (row groups, pages, chunks);
**   unused  not passed at all (a custom collation, an operator we lack).
** Constraints it uses get an argvIndex in order. The plan is idxStr:
**
**     U<colUsed as 16 hex digits>;<rec>;<rec>;...
**
** with one <rec> per argv slot, in argv order:
**
**     <op><col>,<flags>
**
** <op> is one letter: e(=) n(!=) l(<) L(<=) g(>) G(>=) i(IS) I(IS NOT)
** k(LIKE) b(GLOB), and for constraints without a
** right-hand side (no argv slot) u(IS NULL) U(IS NOT NULL). <col> is the
** column number in decimal. <flags> is a decimal bitmask: 1 apply as a row
** filter, 2 exact (omitted), 4 IN list (sqlite3_vtab_in), 8 the right-hand
** side gets TEXT affinity (TEXT column, constant right-hand side), 16 the
** right-hand side gets NUMERIC affinity (numeric column), 32 filter only
** when the right-hand side is TEXT/BLOB/NULL (TEXT column, right-hand side
** unknown at plan time), 64/128 collation NOCASE/RTRIM.
**
** colUsed becomes the projection: bit i is column i, bit 63 every column
** from 63 on. The read set is the projection plus the exact predicates'
** columns, which the reader decodes without emitting.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "plan.h"
#include "conn.h"
#include "../reader/predicate.h"
#include "../agg/value.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F_FILTER 1
#define F_EXACT 2
#define F_IN 4
#define F_TEXTAFF 8
#define F_NUMAFF 16
#define F_TEXTONLY 32
#define F_NOCASE 64
#define F_RTRIM 128
#define F_ANYCOLL 256

static char op_letter(int op){
  switch( op ){
    case SQLITE_INDEX_CONSTRAINT_EQ: return 'e';
    case SQLITE_INDEX_CONSTRAINT_NE: return 'n';
    case SQLITE_INDEX_CONSTRAINT_LT: return 'l';
    case SQLITE_INDEX_CONSTRAINT_LE: return 'L';
    case SQLITE_INDEX_CONSTRAINT_GT: return 'g';
    case SQLITE_INDEX_CONSTRAINT_GE: return 'G';
    case SQLITE_INDEX_CONSTRAINT_IS: return 'i';
    case SQLITE_INDEX_CONSTRAINT_ISNOT: return 'I';
    case SQLITE_INDEX_CONSTRAINT_LIKE: return 'k';
    case SQLITE_INDEX_CONSTRAINT_GLOB: return 'b';
    case SQLITE_INDEX_CONSTRAINT_LIMIT: return 'm';
    case SQLITE_INDEX_CONSTRAINT_OFFSET: return 'o';
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return 'u';
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return 'U';
    default: return 0;
  }
}

static int plan_value(scan_plan *p, sqlite3_value *v, int flags, pred_value *out);
static double plan_estimate(const col_dataset *ds, sqlite3_index_info *info);
static int plan_blind_topk_ok(const col_dataset *ds, sqlite3_index_info *info);

static int is_numeric_col(const col_def *c){
  return c->decl && (strcmp(c->decl, "INTEGER")==0 || strcmp(c->decl, "REAL")==0);
}
static int is_text_col(const col_def *c){
  return c->decl && strcmp(c->decl, "TEXT")==0;
}

/* Can the table sort for this ORDER BY with this LIMIT (scan_topk.h)?
** The rows to keep (LIMIT + OFFSET, known now, at most
** SCAN_TOPK_MAX_ROWS), or 0. Every term must be a column (SQLite offers
** no others: expressions, other collations and NULLS LAST stay its own),
** the dataset must fetch rows by number, and not already be sorted so. */
static int plan_topk_terms_ok(const col_dataset *ds, sqlite3_index_info *info){
  if( info->nOrderBy<1 || info->nOrderBy>SCAN_TOPK_MAX_TERMS ) return 0;
  if( !ds->row_select || info->orderByConsumed ) return 0;
  for(int i=0; i<info->nOrderBy; i++){
    int col = info->aOrderBy[i].iColumn;
    if( col<0 || col>=ds->schema.n ) return 0;
  }
  return 1;
}

static int64_t plan_topk_rows(const col_dataset *ds, sqlite3_index_info *info,
                              int ilimit, int ioffset){
  if( ilimit<0 || !plan_topk_terms_ok(ds, info) ) return 0;
  sqlite3_value *v = 0;
  if( sqlite3_vtab_rhs_value(info, ilimit, &v)!=SQLITE_OK || v==0
   || sqlite3_value_type(v)!=SQLITE_INTEGER ) return 0;
  int64_t k = sqlite3_value_int64(v);
  if( k<0 ) return 0;
  if( ioffset>=0 ){
    sqlite3_value *o = 0;
    if( sqlite3_vtab_rhs_value(info, ioffset, &o)!=SQLITE_OK || o==0
     || sqlite3_value_type(o)!=SQLITE_INTEGER ) return 0;
    int64_t off = sqlite3_value_int64(o);
    if( off>0 ){
      if( off > SCAN_TOPK_MAX_ROWS ) return 0;
      k += off;
    }
  }
  if( k > SCAN_TOPK_MAX_ROWS ) return 0;
  return k>0 ? k : 1;
}

int scan_plan_in_suspect(sqlite3_index_info *info, int i, int or_in_exact){
  if( or_in_exact || info->aConstraint[i].op!=SQLITE_INDEX_CONSTRAINT_EQ ) return PLAN_IN_PLAIN;
  if( i>=32 ) return PLAN_IN_REFUSE;
  return sqlite3_vtab_in(info, i, -1) ? PLAN_IN_SUPERSET : PLAN_IN_PLAIN;
}

int scan_plan_best_index(sqlite3 *db, const col_dataset *ds, int or_in_exact,
                         sqlite3_index_info *info){
  sqlite3_str *s = sqlite3_str_new(0);
  int argv_next = 1;
  double rows = ds->total_rows>0 ? (double)ds->total_rows : 1e6;
  int nexact = 0;
  int ilimit = -1, ioffset = -1; /* LIMIT / OFFSET constraints */
  uint64_t like_cols = scan_plan_like_cols(info);
  int has_like = 0;              /* some column has one (past 63 too) */
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    has_like |= c->usable && c->iColumn>=0
      && (c->op==SQLITE_INDEX_CONSTRAINT_LIKE || c->op==SQLITE_INDEX_CONSTRAINT_GLOB);
  }
  sqlite3_str_appendf(s, "U%016llx", (unsigned long long)info->colUsed);
  int glob_ours = -1;            /* glob() is SQLite's: asked once, if needed */
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( !c->usable ) continue;
    char op = op_letter(c->op);
    if( op=='m' ){ ilimit = i; continue; }
    if( op=='o' ){ ioffset = i; continue; }
    if( !op ) continue;
    /* GLOB is taken exactly (omitted): an extension's glob() is not ours to
    ** stand in for */
    if( op=='b' && glob_ours<0 ) glob_ours = columnar_glob_is_sqlites(db);
    if( op=='b' && !glob_ours ) continue;
    if( c->iColumn<0 || c->iColumn>=ds->schema.n ) continue;
    const col_def *cd = &ds->schema.cols[c->iColumn];
    int flags = 0;
    int cl = columnar_collation(db, sqlite3_vtab_collation(info, i));
    if( cl<0 ) continue;   /* a collation we cannot apply */
    if( cl==COLL_NOCASE ) flags |= F_NOCASE;
    if( cl==COLL_RTRIM ) flags |= F_RTRIM;
    int suspect = col_def_may_text(cd) ? scan_plan_in_suspect(info, i, or_in_exact) : PLAN_IN_PLAIN;
    if( suspect==PLAN_IN_REFUSE ) continue;
    int any_coll = suspect==PLAN_IN_SUPERSET;
    if( op=='u' || op=='U' ){
      flags |= F_FILTER | F_EXACT;
      info->aConstraintUsage[i].omit = 1;
      sqlite3_str_appendf(s, ";%c%d,%d", op, c->iColumn, flags);
      /* no argv slot: plan_build knows these letters take none */
      nexact++;
      rows *= op=='u' ? 0.1 : 0.9;
      continue;
    }
    sqlite3_value *rhs = 0;
    int known = sqlite3_vtab_rhs_value(info, i, &rhs)==SQLITE_OK;
    /* SQLite reports BINARY for every <> and IS NOT constraint, whatever
    ** COLLATE it carries; such a COLLATE also hides the value from
    ** sqlite3_vtab_rhs_value, so only a known value is surely BINARY's */
    if( (op=='n' || op=='I') && !known ) continue;
    int use = PLAN_RHS_EXACT;
    if( op!='k' && op!='b' ){
      use = scan_plan_rhs_use(is_text_col(cd), op=='e' || op=='i', known ? rhs : 0,
                              c->iColumn<64 && ((like_cols >> c->iColumn) & 1));
      if( use==PLAN_RHS_SQLITE ) continue;
    }
    if( op=='k' ){
      flags |= F_FILTER;             /* superset filter; SQLite re-checks */
      if( is_numeric_col(cd) ) flags |= F_NUMAFF;
    }else if( op=='b' ){
      flags |= F_FILTER | F_EXACT;
    }else if( is_numeric_col(cd) ){
      flags |= F_FILTER | F_EXACT | F_NUMAFF;
    }else if( is_text_col(cd) ){
      flags |= use==PLAN_RHS_EXACT ? F_FILTER | F_EXACT | F_TEXTAFF : F_FILTER | F_TEXTONLY;
    }else{
      flags |= F_FILTER | F_EXACT;   /* BLOB / no affinity: nothing converts */
    }
    if( op=='e' && (flags & (F_EXACT|F_TEXTONLY)) && sqlite3_vtab_in(info, i, -1) ){
      sqlite3_vtab_in(info, i, 1);
      flags |= F_IN;
    }
    if( any_coll ){
      /* a superset: equal under any collation; SQLite checks its OR */
      flags = (flags & ~(F_EXACT | F_NOCASE | F_RTRIM)) | F_ANYCOLL;
    }
    info->aConstraintUsage[i].argvIndex = argv_next++;
    if( flags & F_EXACT ){
      info->aConstraintUsage[i].omit = 1;
      nexact++;
    }
    sqlite3_str_appendf(s, ";%c%d,%d", op, c->iColumn, flags);
    switch( op ){
      case 'e': case 'i': rows *= (flags & F_IN) ? 0.05 : 0.01; break;
      case 'n': case 'I': rows *= 0.9; break;
      case 'k': case 'b': rows *= 0.2; break;
      default: rows *= 0.3; break;
    }
  }
  /* ORDER BY on the columns the files are sorted by (verified across row
  ** groups by the reader) needs no sorting: rows come out in file order. */
  if( info->nOrderBy>0 && ds->m->sorted_by ){
    int ns = 0;
    const int *desc = 0;
    const int *sorted = ds->m->sorted_by((col_dataset*)ds, &ns, &desc);
    int ok = sorted && info->nOrderBy<=ns;
    for(int i=0; ok && i<info->nOrderBy; i++){
      ok = info->aOrderBy[i].iColumn==sorted[i] && (info->aOrderBy[i].desc!=0)==(desc[i]!=0);
    }
    if( ok ) info->orderByConsumed = 1;
  }
  /* A LIMIT alone is not used. SQLite 3.40 offers it even when a WHERE
  ** term it never showed us (x = y on two of our own columns) still has to
  ** drop rows, so a reader stopping at the limit would return too few. The
  ** scan is lazy anyway: SQLite stops calling xNext, and the reader decodes
  ** the first row group before any worker starts reading ahead. With an
  ** ORDER BY, though, SQLite would read every row to sort them: there the
  ** table keeps the first LIMIT + OFFSET rows itself (scan_topk.h). */
  int64_t k = plan_topk_rows(ds, info, ilimit, ioffset);
  int blind = k==0 && ilimit<0 && has_like && plan_topk_terms_ok(ds, info)
           && plan_blind_topk_ok(ds, info);
  if( k>0 || blind ){
    for(int i=0; i<info->nOrderBy; i++){
      sqlite3_str_appendf(s, ";T%d,%d", info->aOrderBy[i].iColumn, info->aOrderBy[i].desc ? 1 : 0);
    }
    info->orderByConsumed = 1;
  }
  if( blind ) sqlite3_str_appendf(s, ";M0,0");
  if( k>0 ){
    info->aConstraintUsage[ilimit].argvIndex = argv_next++;
    sqlite3_str_appendf(s, ";m0,0");
    if( ioffset>=0 ){
      info->aConstraintUsage[ioffset].argvIndex = argv_next++;
      sqlite3_str_appendf(s, ";o0,0");
    }
  }
  char *idx = sqlite3_str_finish(s);
  if( !idx ) return SQLITE_NOMEM;
  /* With constant right-hand sides the reader can say, from statistics, how
  ** many rows may match: a key lookup on a sorted file is then cheap. */
  double est = plan_estimate(ds, info);
  if( est>=0 ) rows = est;
  info->idxStr = idx;
  info->needToFreeIdxStr = 1;
  if( rows < 1 ) rows = 1;
  int ncols = 0;
  for(int b=0; b<64; b++) ncols += (info->colUsed >> b) & 1;
  info->estimatedRows = (sqlite3_int64)rows;
  /* Reading is proportional to the columns read and, with pushed filters,
  ** to the rows that survive pruning. */
  double total = ds->total_rows>0 ? (double)ds->total_rows : 1e6;
  info->estimatedCost = 10.0 + total*0.001*(1+ncols) + rows*(1+ncols) / (1.0 + nexact*0.0);
  return SQLITE_OK;
}

void scan_plan_free(scan_plan *p){
  for(int i=0; i<p->nmem; i++) sqlite3_free(p->mem[i]);
  sqlite3_free(p->mem);
  sqlite3_free(p->proj);
  sqlite3_free(p->lazy);
  sqlite3_free(p->preds);
  memset(p, 0, sizeof(*p));
}

static void *plan_keep(scan_plan *p, void *m){
  if( !m ) return 0;
  if( p->nmem==p->cap_mem ){
    int nc = p->cap_mem ? p->cap_mem*2 : 16;
    void **nm = sqlite3_realloc64(p->mem, sizeof(void*)*(sqlite3_uint64)nc);
    if( !nm ){ sqlite3_free(m); return 0; }
    p->mem = nm; p->cap_mem = nc;
  }
  p->mem[p->nmem++] = m;
  return m;
}

/* The literal v as a pred_value after the affinity `flags` call for.
** Returns 0 (and leaves *out NULL-typed) when the predicate must not be
** applied to this value (F_TEXTONLY with a number); -1 on OOM. */
int scan_plan_rhs_use(int text_col, int eq, sqlite3_value *rhs, int beside_like){
  int known = rhs!=0, rhs_type = rhs ? sqlite3_value_type(rhs) : SQLITE_NULL;
  /* SQLite's LIKE optimization adds x >= 'abc' AND x < 'abd' next to a
  ** LIKE, even on columns where a value that matches can fall outside
  ** them: a number (a SQLite 3.40 bug: d LIKE 'Inf' would find nothing,
  ** the infinity's text being "Inf"), and a BLOB, which LIKE matches as
  ** text in builds without SQLITE_LIKE_DOESNT_MATCH_BLOBS but which sorts
  ** after all text. SQLite does not check them itself. And with a COLLATE
  ** on its column (d COLLATE RTRIM GLOB 'Inf') the LIKE or GLOB is not
  ** offered at all, the two terms still are: on a column that is not TEXT
  ** an order against a text no number can be (the optimization takes no
  ** prefix that reads as one, so such a text is all it ever adds) is
  ** SQLite's. */
  if( !text_col ){
    if( known && rhs_type==SQLITE_TEXT ){
      if( beside_like ) return PLAN_RHS_SQLITE;
      pred_value x = scan_plan_value_of(rhs);
      if( !eq && agg_numeric_affinity(AGG_ATOF_340, &x).type==CV_TEXT ) return PLAN_RHS_SQLITE;
    }
    return PLAN_RHS_EXACT;
  }
  /* A number against a TEXT column: SQLite applies TEXT affinity to a
  ** literal 5 but NUMERIC affinity to the column against
  ** CAST(5 AS INTEGER) or an INTEGER column ('05' matches), and the two
  ** look the same here. */
  if( known ) return rhs_type==SQLITE_INTEGER || rhs_type==SQLITE_FLOAT ? PLAN_RHS_SQLITE : PLAN_RHS_EXACT;
  /* An unknown value (a join, a parameter, a subquery) may be either, and
  ** for an order even a text is: against an INTEGER column's '100%' the
  ** column's numbers sort before it. Equality holds for a text, which
  ** NUMERIC affinity leaves text only beside another text. */
  return eq ? PLAN_RHS_TEXT_ONLY : PLAN_RHS_SQLITE;
}

uint64_t scan_plan_like_cols(const sqlite3_index_info *info){
  uint64_t cols = 0;
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( c->usable && c->iColumn>=0 && c->iColumn<64
     && (c->op==SQLITE_INDEX_CONSTRAINT_LIKE || c->op==SQLITE_INDEX_CONSTRAINT_GLOB) ){
      cols |= (uint64_t)1 << c->iColumn;
    }
  }
  return cols;
}

pred_value scan_plan_value_of(sqlite3_value *v){
  pred_value x;
  memset(&x, 0, sizeof(x));
  switch( sqlite3_value_type(v) ){
    case SQLITE_INTEGER: x.type = CV_INT; x.i = sqlite3_value_int64(v); break;
    case SQLITE_FLOAT: x.type = CV_REAL; x.f = sqlite3_value_double(v); break;
    case SQLITE_TEXT: x.type = CV_TEXT; x.p = (const char*)sqlite3_value_text(v); x.n = (uint32_t)sqlite3_value_bytes(v); break;
    case SQLITE_BLOB: x.type = CV_BLOB; x.p = sqlite3_value_blob(v); x.n = (uint32_t)sqlite3_value_bytes(v); break;
    default: x.type = CV_NULL; break;
  }
  return x;
}

static int plan_value(scan_plan *p, sqlite3_value *v, int flags, pred_value *out){
  pred_value x = scan_plan_value_of(v);
  memset(out, 0, sizeof(*out));
  if( (flags & F_TEXTONLY) && (x.type==CV_INT || x.type==CV_REAL) ) return 0;
  /* The affinity as this SQLite applies it (its dialect: how it reads text
  ** as a number, how many digits a REAL's text has), not by converting a
  ** copy of v: sqlite3_value_numeric_type wants a value of a connection,
  ** which a copy is not (3.53 takes the connection's mutex, a NULL one). */
  char buf[PRED_NUM_TEXT_MAX];
  if( flags & F_NUMAFF ) x = agg_numeric_affinity(agg_atof_mode(&p->dialect), &x);
  else if( flags & F_TEXTAFF ) x = agg_text_affinity(&p->dialect, x, buf);
  if( x.type==CV_TEXT || x.type==CV_BLOB ){
    char *cp = plan_keep(p, sqlite3_malloc64((sqlite3_uint64)x.n+1));
    if( !cp ) return -1;
    if( x.n ) memcpy(cp, x.p, x.n);
    cp[x.n] = 0;
    x.p = cp;
  }
  *out = x;
  return 1;
}

/* info's constraints with constant right-hand sides as exact predicates,
** into preds (room for nConstraint; literal copies kept in p): with like
** 0, the comparisons and NULL tests the plan applies exactly; with like 1,
** the LIKE and GLOB constraints with TEXT patterns over TEXT columns.
** Returns how many. */
static int plan_const_preds(const col_dataset *ds, sqlite3_index_info *info, int like,
                            scan_plan *p, scan_pred *preds){
  int n = 0;
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( !c->usable || c->iColumn<0 || c->iColumn>=ds->schema.n ) continue;
    if( !like && !info->aConstraintUsage[i].omit ) continue;
    const col_def *cd = &ds->schema.cols[c->iColumn];
    scan_pred *pr = &preds[n];
    memset(pr, 0, sizeof(*pr));
    pr->col = c->iColumn;
    pr->exact = 1;
    int op = c->op;
    if( like != (op==SQLITE_INDEX_CONSTRAINT_LIKE || op==SQLITE_INDEX_CONSTRAINT_GLOB) ) continue;
    if( like && !is_text_col(cd) ) continue;
    switch( op ){
      case SQLITE_INDEX_CONSTRAINT_ISNULL: pr->op = PRED_ISNULL; n++; continue;
      case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: pr->op = PRED_NOTNULL; n++; continue;
      case SQLITE_INDEX_CONSTRAINT_EQ: pr->op = PRED_EQ; break;
      case SQLITE_INDEX_CONSTRAINT_LT: pr->op = PRED_LT; break;
      case SQLITE_INDEX_CONSTRAINT_LE: pr->op = PRED_LE; break;
      case SQLITE_INDEX_CONSTRAINT_GT: pr->op = PRED_GT; break;
      case SQLITE_INDEX_CONSTRAINT_GE: pr->op = PRED_GE; break;
      case SQLITE_INDEX_CONSTRAINT_LIKE: pr->op = PRED_LIKE; break;
      case SQLITE_INDEX_CONSTRAINT_GLOB: pr->op = PRED_GLOB; break;
      default: continue;
    }
    sqlite3_value *rhs = 0;
    if( sqlite3_vtab_rhs_value(info, i, &rhs)!=SQLITE_OK || !rhs ) continue;
    int flags = 0;
    if( like ){
      if( sqlite3_value_type(rhs)!=SQLITE_TEXT ) continue;
    }else{
      const char *coll = sqlite3_vtab_collation(info, i);
      if( coll && sqlite3_stricmp(coll, "BINARY")!=0 ) continue;
      flags = is_numeric_col(cd) ? F_NUMAFF : is_text_col(cd) ? F_TEXTAFF : 0;
    }
    if( plan_value(p, rhs, flags, &pr->v)<=0 ) continue;
    n++;
  }
  return n;
}

/* plan_const_preds into an array of its own: *preds and p hold them until
** plan_const_close. How many; -1 when out of memory. */
static int plan_const_open(const col_dataset *ds, sqlite3_index_info *info, int like,
                           scan_plan *p, scan_pred **preds){
  memset(p, 0, sizeof(*p));
  *preds = sqlite3_malloc64(sizeof(scan_pred)*(sqlite3_uint64)(info->nConstraint+1));
  if( *preds==0 ) return -1;
  return plan_const_preds(ds, info, like, p, *preds);
}

static void plan_const_close(scan_plan *p, scan_pred *preds){
  sqlite3_free(preds);
  scan_plan_free(p);
}

/* The dataset's estimate for the constraints with known right-hand sides
** that the plan applies exactly; -1 when there are none. */
static double plan_estimate(const col_dataset *ds, sqlite3_index_info *info){
  scan_plan p;
  scan_pred *preds;
  int n = plan_const_open(ds, info, 0, &p, &preds);
  if( n<0 ) return -1;
  double est = -1;
  if( n>0 ){
    scan_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.npred = n;
    spec.preds = preds;
    est = ds->m->estimate_rows((col_dataset*)ds, &spec);
  }
  plan_const_close(&p, preds);
  return est;
}

/* Row groups (shards) plan_blind_topk_ok runs the LIKE over. */
#define PLAN_SAMPLE_PARTS 4

/* Rows matching the LIKE and GLOB constraints with constant patterns over
** TEXT columns, estimated from up to PLAN_SAMPLE_PARTS row groups spread
** over the dataset (all of them in a small file); -1 when it cannot say. */
static double plan_like_sample(const col_dataset *ds, sqlite3_index_info *info){
  if( !ds->shardable || ds->nparts<1 || ds->total_rows<0 ) return -1;
  scan_plan p;
  scan_pred *preds;
  int n = plan_const_open(ds, info, 1, &p, &preds);
  if( n<0 ) return -1;
  double est = -1;
  int64_t parts = ds->nparts;
  int nsample = parts < PLAN_SAMPLE_PARTS ? (int)parts : PLAN_SAMPLE_PARTS;
  int proj = n>0 ? preds[0].col : 0;
  int64_t matched = 0;
  for(int j=0; j<nsample && n>0; j++){
    scan_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.nproj = 1; spec.proj = &proj;
    spec.npred = n; spec.preds = preds;
    spec.nshard = parts>1 ? (int)(parts < INT32_MAX ? parts : INT32_MAX) : 1;
    spec.shard = (int)((int64_t)j * spec.nshard / nsample);
    batch_source *src = 0;
    col_error err;
    col_error_clear(&err);
    if( ds->m->scan((col_dataset*)ds, &spec, &src, &err) ){ matched = -1; break; }
    for(;;){
      col_batch *b = 0;
      if( src->m->next(src, &b) ){ matched = -1; break; }
      if( b==0 ) break;
      matched += b->sel ? b->nsel : b->n;
    }
    src->m->close(src);
    if( matched<0 ) break;
  }
  if( n>0 && nsample>0 && matched>=0 ) est = (double)matched * (double)parts / nsample;
  plan_const_close(&p, preds);
  return est;
}

/* SQLite 3.40 shows xBestIndex no LIMIT when the WHERE holds a LIKE or
** GLOB (the pattern's own term is not on the table's cursor, only the
** constraint made from it), so ORDER BY ... LIMIT 10 over such a filter
** would read every matching row whole and sort them (ClickBench's
** SELECT * ... WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 10:
** all 105 columns of every row group). The table sorts anyway, not
** knowing the LIMIT (scan_topk: a few rows fetched first, the rest in one
** more fetch should SQLite read on), when the sample says so few rows
** match that all of them fit that fetch, so that a query without a LIMIT
** costs about one more pass, never many. */
static int plan_blind_topk_ok(const col_dataset *ds, sqlite3_index_info *info){
  double est = plan_like_sample(ds, info);
  if( est<0 || est > SCAN_TOPK_MAX_ROWS/2 ) return 0;
  /* the columns fetched (colUsed's last bit stands for the 64th and on) */
  int ncols = 0;
  for(int b=0; b<63; b++) ncols += (info->colUsed >> b) & 1;
  if( (info->colUsed >> 63) & 1 ) ncols += ds->schema.n > 63 ? ds->schema.n - 63 : 1;
  return est * (ncols>0 ? ncols : 1) <= (double)SCAN_TOPK_CHUNK_VALUES;
}

static int cmp_pred_value(const void *a, const void *b){
  return pred_value_compare(a, b, COLL_BINARY);
}

int scan_plan_build(const col_dataset *ds, const char *idx, int argc,
                    sqlite3_value **argv, int threads, const col_dialect *dialect,
                    scan_plan *p, char **errmsg){
  memset(p, 0, sizeof(*p));
  if( dialect ) p->dialect = *dialect;
  if( !idx || idx[0]!='U' ){ *errmsg = sqlite3_mprintf("bad plan"); return SQLITE_ERROR; }
  unsigned long long used = strtoull(idx+1, 0, 16);
  int ncol = ds->schema.n;
  p->proj = sqlite3_malloc64(sizeof(int)*(sqlite3_uint64)(ncol+1));
  int nrec = 0;
  for(const char *c=idx; *c; c++) nrec += *c==';';
  p->preds = sqlite3_malloc64(sizeof(scan_pred)*(sqlite3_uint64)(nrec+1));
  if( !p->proj || !p->preds ) goto plan_nomem;
  memset(p->preds, 0, sizeof(scan_pred)*(size_t)(nrec+1));
  for(int i=0; i<ncol; i++){
    if( (i<63 && (used>>i)&1) || (i>=63 && (used>>63)&1) ) p->proj[p->spec.nproj++] = i;
  }
  if( ncol>63 && (used>>63)&1 ){
    /* colUsed's last bit stands for every column from the 64th on: the
    ** scan decodes those only when xColumn asks for one. A filter on
    ** RefererHash (the 103rd of 105) counted rows while 41 other columns
    ** were decoded for nobody (ClickBench Q41's WHERE: 80 -> 16 ms). */
    p->lazy = sqlite3_malloc64((sqlite3_uint64)p->spec.nproj);
    if( !p->lazy ) goto plan_nomem;
    for(int k=0; k<p->spec.nproj; k++) p->lazy[k] = p->proj[k]>=63;
  }
  int64_t limit = -1, offset = 0;
  int ai = 0;   /* next argv */
  const char *r = strchr(idx, ';');
  while( r ){
    r++;
    char op = *r++;
    int col = (int)strtol(r, (char**)&r, 10);
    r++; /* ',' */
    int flags = (int)strtol(r, (char**)&r, 10);
    r = strchr(r, ';');
    if( op=='T' ){
      if( p->nsort>=SCAN_TOPK_MAX_TERMS || col<0 || col>=ncol ){ *errmsg = sqlite3_mprintf("bad plan"); goto plan_error; }
      p->sort[p->nsort].bcol = col;
      p->sort[p->nsort].desc = flags!=0;
      p->nsort++;
      continue;
    }
    if( op=='M' ){
      p->sort_first = SCAN_TOPK_BLIND_FIRST;
      continue;
    }
    if( op=='u' || op=='U' ){
      scan_pred *pr = &p->preds[p->spec.npred++];
      pr->col = col;
      pr->op = op=='u' ? PRED_ISNULL : PRED_NOTNULL;
      pr->exact = 1;
      continue;
    }
    if( ai>=argc ){ *errmsg = sqlite3_mprintf("plan and arguments disagree"); goto plan_error; }
    sqlite3_value *v = argv[ai++];
    if( op=='m' ){ limit = sqlite3_value_type(v)==SQLITE_INTEGER ? sqlite3_value_int64(v) : -1; continue; }
    if( op=='o' ){ offset = sqlite3_value_type(v)==SQLITE_INTEGER ? sqlite3_value_int64(v) : 0; continue; }
    scan_pred *pr = &p->preds[p->spec.npred];
    memset(pr, 0, sizeof(*pr));
    pr->col = col;
    pr->coll = (flags & F_ANYCOLL) ? COLL_ANY : (flags & F_NOCASE) ? COLL_NOCASE
             : (flags & F_RTRIM) ? COLL_RTRIM : COLL_BINARY;
    pr->exact = (flags & F_FILTER)!=0;
    switch( op ){
      case 'e': pr->op = PRED_EQ; break;
      case 'n': pr->op = PRED_NE; break;
      case 'l': pr->op = PRED_LT; break;
      case 'L': pr->op = PRED_LE; break;
      case 'g': pr->op = PRED_GT; break;
      case 'G': pr->op = PRED_GE; break;
      case 'i': pr->op = PRED_IS; break;
      case 'I': pr->op = PRED_ISNOT; break;
      case 'k':
        /* an extension's like() is not ours to stand in for: SQLite,
        ** which re-checks LIKE anyway, filters alone */
        if( p->dialect.like_foreign ) continue;
        pr->op = PRED_LIKE;
        break;
      case 'b': pr->op = PRED_GLOB; break;
      default: continue;
    }
    sqlite3_value *iv0 = 0;
    int in_rc = (flags & F_IN) ? sqlite3_vtab_in_first(v, &iv0) : SQLITE_OK;
    if( in_rc==SQLITE_ERROR || in_rc==SQLITE_MISUSE ){
      flags &= ~F_IN;      /* one value after all: SQLite chose to loop */
    }
    if( flags & F_IN ){
      sqlite3_value *iv;
      int n = 0, cap = 16;
      pred_value *list = plan_keep(p, sqlite3_malloc64(sizeof(pred_value)*(sqlite3_uint64)cap));
      if( !list ) goto plan_nomem;
      int rc, whole = 1;
      for(rc = sqlite3_vtab_in_first(v, &iv); rc==SQLITE_OK && iv; rc = sqlite3_vtab_in_next(v, &iv)){
        pred_value pv;
        int k = plan_value(p, iv, flags, &pv);
        if( k<0 ) goto plan_nomem;
        /* a value a TEXT-only list cannot take leaves the IN to SQLite,
        ** which checks it (as a whole: a list without that value would
        ** drop its rows) */
        if( k==0 && (flags & F_TEXTONLY) ){ whole = 0; break; }
        if( k==0 || pv.type==CV_NULL ) continue;
        if( n==cap ){
          pred_value *nl = plan_keep(p, sqlite3_malloc64(sizeof(pred_value)*(sqlite3_uint64)cap*2));
          if( !nl ) goto plan_nomem;
          memcpy(nl, list, sizeof(pred_value)*(size_t)n);
          list = nl; cap *= 2;
        }
        list[n++] = pv;
      }
      if( !whole ) continue;
      if( rc!=SQLITE_OK && rc!=SQLITE_DONE ){ *errmsg = sqlite3_mprintf("IN list: %s", sqlite3_errstr(rc)); goto plan_error; }
      qsort(list, (size_t)n, sizeof(pred_value), cmp_pred_value);
      pr->op = PRED_IN;
      pr->in = list;
      pr->nin = n;
      p->spec.npred++;
      continue;
    }
    int k = plan_value(p, v, flags, &pr->v);
    if( k<0 ) goto plan_nomem;
    if( k==0 ) continue;             /* not applicable to this value */
    if( pr->op==PRED_LIKE ) pr->like_case_sensitive = 0;
    p->spec.npred++;
  }
  if( p->nsort ){
    /* SQLite applies LIMIT and OFFSET itself: keep enough rows for them
    ** (more are fetched if it reads on) */
    int64_t k = limit>=0 ? limit + (offset>0 ? offset : 0) : SCAN_TOPK_MAX_ROWS;
    p->sort_k = (uint32_t)(k<1 ? 1 : k > SCAN_TOPK_MAX_ROWS ? SCAN_TOPK_MAX_ROWS : k);
  }else if( limit>=0 ){
    p->spec.max_rows = limit + (offset>0 ? offset : 0);
  }
  for(int i=0; i<p->spec.npred; i++) p->preds[i].dialect = &p->dialect;
  p->spec.proj = p->proj;
  /* a top-k reads its columns itself, a few rows each */
  p->spec.lazy = p->nsort ? 0 : p->lazy;
  p->spec.preds = p->preds;
  p->spec.threads = threads;
  p->spec.batch_size = DEFAULT_BATCH_SIZE;
  return SQLITE_OK;
plan_nomem:
  *errmsg = sqlite3_mprintf("out of memory");
plan_error:
  scan_plan_free(p);
  return SQLITE_ERROR;
}
