/*
** sniff.c — dialect, header and type detection from a sample.
**
** Delimiter: each candidate (',' ';' '\t' '|', or the user's) splits the
** first 2000 records of the sample; the winner has the most records with
** its modal field count, that count being above 1 (ties: more columns, then
** candidate order). With no winner the delimiter is ','.
** Header (when not given): with some typed column, the first record is a
** header when each typed column's first value is non-empty and not of the
** column's type; with every column TEXT, when its values are non-empty,
** unique and none is a number. Names are made unique DuckDB's way (a, a_1);
** empty names and files without a header give c0, c1, ... (csv.c's names).
** Types: see types.c; a column with no non-null sample value is TEXT, and
** one with a number written with a leading zero ("007", a zip code) is TEXT,
** as DuckDB decides (a typed column still reads "007" as 7 when scanning).
*/
#include "sniff.h"
#include "types.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t csv_bom_len(const char *p, size_t n){
  return n>=3 && (unsigned char)p[0]==0xEF && (unsigned char)p[1]==0xBB
      && (unsigned char)p[2]==0xBF ? 3 : 0;
}

void csv_sniff_free(csv_sniff *s){
  if( s->names ){
    for(int i=0; i<s->ncols; i++) free(s->names[i]);
  }
  free(s->names);
  free(s->kinds);
  memset(s, 0, sizeof(*s));
}

/* Offset where records start: after the BOM and o->skip lines. */
static size_t sniff_start(const char *buf, size_t n, int eof, int skip){
  size_t pos = csv_bom_len(buf, n);
  for(int i=0; i<skip && pos<n; i++){
    size_t k = csv_tok_line(buf+pos, n-pos, eof);
    if( k==0 ){ pos = n; break; }
    pos += k;
  }
  return pos;
}

/* Score delimiter d: records with the modal field count (0 if that is 1). */
static long sniff_score(const char *p, size_t n, int eof, const csv_dialect *d,
                        int *ncols){
  csv_tok t;
  col_error e;
  col_error_clear(&e);
  *ncols = 0;
  if( csv_tok_init(&t, d) ) return -1;
  enum { MAXC = 16384 };
  int *counts = calloc(MAXC+1, sizeof(int));
  if( counts==0 ){ csv_tok_free(&t); return -1; }
  size_t pos = 0, used;
  for(int r=0; r<2000; ){
    int rc = csv_tok_record(&t, p+pos, n-pos, eof, &used, &e);
    if( rc==CSV_TOK_BLANK ){ pos += used; continue; }
    if( rc!=CSV_TOK_ROW ) break;
    pos += used;
    counts[t.nf>MAXC ? MAXC : t.nf]++;  /* wider files are ragged errors */
    r++;
  }
  csv_tok_free(&t);
  int best = 0;
  for(int c=1; c<=MAXC; c++) if( counts[c]>counts[best] || (best==0 && counts[c]) ) best = c;
  *ncols = best;
  long score = best>1 ? counts[best] : 0;
  free(counts);
  return score;
}

static char *sniff_strdup(const char *p, size_t n){
  char *z = malloc(n+1);
  if( z ){ memcpy(z, p, n); z[n] = 0; }
  return z;
}

/* Is field f of the record at rec NULL by the options? */
static int sniff_is_null(const csv_options *o, const csv_tok *t, const char *rec,
                         int f){
  uint32_t n = t->fe[f]-t->fs[f];
  if( n==0 ) return 1;
  for(int i=0; i<o->nnulls; i++){
    if( strlen(o->nulls[i])==n && memcmp(o->nulls[i], rec+t->fs[f], n)==0 ) return 1;
  }
  return 0;
}

/* A set of strings by hash, for duplicate checks over thousands of column
** names without a quadratic scan. */
typedef struct name_set {
  const char **slot;      /* open addressing, NULL = empty */
  size_t mask;            /* slots - 1 (power of two) */
} name_set;

static uint64_t name_hash(const char *s){
  uint64_t h = 1469598103934665603ull;
  for(; *s; s++){ h ^= (unsigned char)*s; h *= 1099511628211ull; }
  return h;
}
static int name_set_init(name_set *ns, int n){
  size_t cap = 16;
  while( cap < (size_t)n*2 + 2 ) cap *= 2;
  ns->slot = calloc(cap, sizeof(char*));
  ns->mask = cap-1;
  return ns->slot ? COL_OK : COL_ENOMEM;
}
/* 1 if s was already present, else adds it and returns 0. */
static int name_set_add(name_set *ns, const char *s){
  size_t i = (size_t)name_hash(s) & ns->mask;
  while( ns->slot[i] ){
    if( strcmp(ns->slot[i], s)==0 ) return 1;
    i = (i+1) & ns->mask;
  }
  ns->slot[i] = s;
  return 0;
}

/* Make names unique: a, a_1, a_2 ... */
static int sniff_unique(char **names, int n){
  name_set ns;
  if( name_set_init(&ns, n*2) ) return COL_ENOMEM;
  for(int i=0; i<n; i++){
    if( !name_set_add(&ns, names[i]) ) continue;
    size_t len = strlen(names[i]);
    char *z = malloc(len+24);
    if( z==0 ){ free(ns.slot); return COL_ENOMEM; }
    for(int k=1; ; k++){
      snprintf(z, len+24, "%s_%d", names[i], k);
      if( !name_set_add(&ns, z) ) break;
    }
    free(names[i]);
    names[i] = z;
  }
  free(ns.slot);
  return COL_OK;
}

/* Apply the types= override ("INTEGER,TEXT" by position or "a=REAL,b=TEXT"). */
static int sniff_types_override(const char *spec, csv_sniff *s, col_error *err){
  const char *p = spec;
  int pos = 0;
  while( *p ){
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e-p) : strlen(p);
    const char *eq = memchr(p, '=', n);
    const char *tn = eq ? eq+1 : p;
    size_t tl = (size_t)(p+n-tn);
    while( tl && *tn==' ' ){ tn++; tl--; }
    while( tl && tn[tl-1]==' ' ) tl--;
    int kind = csv_type_from_name(tn, (uint32_t)tl);
    if( kind<0 ){
      return col_error_set(err, COL_ERROR, "csv: types: unknown type '%.*s'", (int)tl, tn);
    }
    int col = pos;
    if( eq ){
      const char *cn = p;
      size_t cl = (size_t)(eq-p);
      while( cl && *cn==' ' ){ cn++; cl--; }
      while( cl && cn[cl-1]==' ' ) cl--;
      col = -1;
      for(int i=0; i<s->ncols; i++){
        if( strlen(s->names[i])==cl && strncmp(s->names[i], cn, cl)==0 ) col = i;
      }
      if( col<0 ) return col_error_set(err, COL_ERROR, "csv: types: no column '%.*s'", (int)cl, cn);
    }else if( col>=s->ncols ){
      return col_error_set(err, COL_ERROR, "csv: types: more types than the %d columns", s->ncols);
    }
    s->kinds[col] = kind;
    pos++;
    p = e ? e+1 : p+n;
  }
  return COL_OK;
}

int csv_sniff_sample(const char *buf, size_t n, int eof, const csv_options *o,
                     csv_sniff *s, col_error *err){
  memset(s, 0, sizeof(*s));
  csv_tok t;
  unsigned *mask = 0;
  char **first = 0;
  int nfirst = 0, have_first = 0;
  memset(&t, 0, sizeof(t));
  size_t start = sniff_start(buf, n, eof, o->skip);
  const char *p = buf+start;
  size_t np = n-start;

  /* 1. Dialect. */
  s->d.quote = (uint8_t)o->quote;
  s->d.escape = (uint8_t)(o->escape ? o->escape : o->quote);
  s->d.comment = (uint8_t)o->comment;
  if( o->delim>=0 ){
    s->d.delim = (uint8_t)o->delim;
  }else{
    static const char cands[] = { ',', ';', '\t', '|' };
    long best = -1;
    int bestc = 0;
    s->d.delim = ',';
    for(size_t i=0; i<sizeof(cands); i++){
      if( cands[i]==o->quote ) continue;
      csv_dialect d = s->d;
      d.delim = (uint8_t)cands[i];
      int nc;
      long sc = sniff_score(p, np, eof, &d, &nc);
      if( sc>0 && (sc>best || (sc==best && nc>bestc)) ){
        best = sc; bestc = nc; s->d.delim = (uint8_t)cands[i];
      }
    }
  }

  /* 2. Column count: the modal field count, or columns=N. */
  int nc;
  sniff_score(p, np, eof, &s->d, &nc);
  if( nc<1 ) nc = 1;
  if( o->ncolumns>0 ) nc = o->ncolumns;
  s->ncols = nc;
  s->kinds = calloc((size_t)nc, sizeof(int));
  s->names = calloc((size_t)nc, sizeof(char*));
  mask = malloc(sizeof(unsigned)*(size_t)nc);
  unsigned char *seen = calloc((size_t)nc, 1);
  first = calloc((size_t)nc, sizeof(char*));
  if( !s->kinds || !s->names || !mask || !seen || !first ) goto sniff_nomem;
  for(int j=0; j<nc; j++) mask[j] = CSV_T_ALL;
  if( csv_tok_init(&t, &s->d) ) goto sniff_nomem;

  /* 3. Types over records 2.., keeping record 1 aside for the header. */
  size_t pos = 0, used, first_bytes = 0, data_bytes = 0;
  int records = 0;
  col_error e;
  col_error_clear(&e);
  int limit = o->sample_rows>0 ? o->sample_rows : 20480;
  while( records<limit ){
    int rc = csv_tok_record(&t, p+pos, np-pos, eof, &used, &e);
    if( rc==CSV_TOK_BLANK ){ pos += used; continue; }
    if( rc!=CSV_TOK_ROW ) break;
    const char *rec = p+pos;
    pos += used;
    if( !have_first ){
      have_first = 1;
      first_bytes = used;
      nfirst = t.nf<nc ? t.nf : nc;
      for(int j=0; j<nfirst; j++){
        uint32_t fn = t.fe[j]-t.fs[j];
        first[j] = malloc(fn+1);
        if( first[j]==0 ) goto sniff_nomem;
        fn = (t.ff[j] & CSV_FESCAPED) ? csv_tok_unescape(&s->d, rec+t.fs[j], fn, first[j])
                                      : (memcpy(first[j], rec+t.fs[j], fn), fn);
        first[j][fn] = 0;
      }
      continue;
    }
    records++;
    data_bytes += used;
    if( t.nf!=nc ) continue;
    for(int j=0; j<nc; j++){
      if( sniff_is_null(o, &t, rec, j) ) continue;
      seen[j] = 1;
      mask[j] = csv_type_narrow(mask[j], rec+t.fs[j], t.fe[j]-t.fs[j]);
      if( csv_leading_zero(rec+t.fs[j], t.fe[j]-t.fs[j]) ) mask[j] &= ~CSV_T_NUMERIC;
    }
  }

  s->complete = have_first + records;

  /* 4. Header. */
  int header = o->header;
  if( header<0 ){
    int typed = 0, text_ok = nfirst==nc;
    name_set firstset;
    header = nfirst==nc;
    if( name_set_init(&firstset, nfirst) ) text_ok = 0, firstset.slot = 0;
    for(int j=0; j<nc && j<nfirst; j++){
      int kind = seen[j] ? csv_type_pick(mask[j]) : CSV_T_TEXT;
      size_t fl = strlen(first[j]);
      unsigned one = csv_type_narrow(CSV_T_ALL, first[j], (uint32_t)fl);
      if( fl==0 || (one & ((1u<<CSV_T_INT)|(1u<<CSV_T_REAL))) ) text_ok = 0;
      if( text_ok && firstset.slot && name_set_add(&firstset, first[j]) ) text_ok = 0;
      if( kind!=CSV_T_TEXT ){
        typed = 1;
        if( fl==0 || (one & (1u<<kind)) ) header = 0;
      }
    }
    free(firstset.slot);
    if( !typed ) header = text_ok;
    if( !have_first ) header = 0;
  }
  if( !header && have_first ){
    records++;
    data_bytes += first_bytes;
    for(int j=0; j<nfirst; j++){
      size_t fl = strlen(first[j]);
      int isnull = fl==0;
      for(int k=0; k<o->nnulls && !isnull; k++) isnull = strcmp(o->nulls[k], first[j])==0;
      if( isnull ) continue;
      seen[j] = 1;
      mask[j] = csv_type_narrow(mask[j], first[j], (uint32_t)fl);
      if( csv_leading_zero(first[j], (uint32_t)fl) ) mask[j] &= ~CSV_T_NUMERIC;
    }
  }
  s->header = header;
  s->records = records;
  s->avg_record = records ? (double)data_bytes/records : 64.0;

  /* 5. Names and kinds. */
  for(int j=0; j<nc; j++){
    char tmp[32];
    const char *nm = 0;
    if( j<o->ncolumn_names ) nm = o->column_names[j];
    else if( header && j<nfirst && first[j][0] ) nm = first[j];
    if( nm==0 ){ snprintf(tmp, sizeof(tmp), "c%d", j); nm = tmp; }
    s->names[j] = sniff_strdup(nm, strlen(nm));
    if( s->names[j]==0 ) goto sniff_nomem;
    s->kinds[j] = o->all_text || !seen[j] ? CSV_T_TEXT : csv_type_pick(mask[j]);
  }
  if( sniff_unique(s->names, nc) ) goto sniff_nomem;
  if( o->types && !o->all_text && sniff_types_override(o->types, s, err) ) goto sniff_error;

  csv_tok_free(&t);
  for(int j=0; j<nc; j++) free(first[j]);
  free(first);
  free(mask);
  free(seen);
  return COL_OK;
sniff_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
sniff_error:
  csv_tok_free(&t);
  if( first ) for(int j=0; j<nc; j++) free(first[j]);
  free(first);
  free(mask);
  free(seen);
  csv_sniff_free(s);
  return err->code;
}
