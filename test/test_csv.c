/*
** test_csv.c — unit tests of the native CSV reader (reader/csv/).
**
** Every case builds a dataset from csv(...) arguments as SQLite would pass
** them, scans it, and compares the rows rendered as text ("i:1|t:a|NULL").
** The conformance part compares against DuckDB's read_csv answers stored
** in test/data/csv/<name>.expected.jsonl (made by test/csv_conformance.mjs).
** Set CSV_BENCH=1 to also time a generated 100 MB file.
*/
#include "../reader/csv/csv.h"
#include "../reader/csv/tokenize.h"
#include "../reader/csv/types.h"
#include "../reader/csv/csv_impl.h"
#include "../reader/predicate.h"
#include "unit.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

/* A second copy of the tokenizer built without SIMD (the portable mask
** and search loops), renamed, for the differential test below. */
int scalar_tok_init(csv_tok *t, const csv_dialect *d);
void scalar_tok_free(csv_tok *t);
int scalar_tok_record(csv_tok *t, const char *p, size_t n, int eof,
                      size_t *used, col_error *err);
uint32_t scalar_tok_unescape(const csv_dialect *d, const char *p, uint32_t n,
                             char *out);
size_t scalar_tok_line(const char *p, size_t n, int eof);
int scalar_count_lines(const char *p, size_t n);
#define CSV_NO_SIMD 1
#define csv_tok_init scalar_tok_init
#define csv_tok_free scalar_tok_free
#define csv_tok_record scalar_tok_record
#define csv_tok_unescape scalar_tok_unescape
#define csv_tok_line scalar_tok_line
#define csv_count_lines scalar_count_lines
#include "../reader/csv/tokenize.c"
#undef csv_tok_init
#undef csv_tok_free
#undef csv_tok_record
#undef csv_tok_unescape
#undef csv_tok_line
#undef csv_count_lines

static char tmpdir[256];

/* A growable string. */
typedef struct sb { char *p; size_t n, cap; } sb;
static void sb_add(sb *s, const char *z, size_t n){
  if( s->n+n+1 > s->cap ){
    s->cap = (s->n+n+1)*2;
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p+s->n, z, n);
  s->n += n;
  s->p[s->n] = 0;
}
static void sb_str(sb *s, const char *z){ sb_add(s, z, strlen(z)); }

/* Shortest %g that reads back the same double; ".0" when integral. */
static void fmt_real(double d, char *out, size_t cap){
  for(int prec=1; prec<=17; prec++){
    snprintf(out, cap, "%.*g", prec, d);
    if( strtod(out, 0)==d ) break;
  }
  /* Plain notation for moderate magnitudes, as JavaScript prints them. */
  if( strchr(out, 'e') && fabs(d)>=1e-6 && fabs(d)<1e21 ){
    int e10 = (int)floor(log10(fabs(d)));
    for(int prec=e10+1; prec<=17; prec++){
      snprintf(out, cap, "%.*g", prec, d);
      if( !strchr(out, 'e') && strtod(out, 0)==d ) break;
    }
  }
  if( !strpbrk(out, ".eni") ) strcat(out, ".0");
}

/* Row values as JSON strings ("i:1", "r:1.5", "t:x", "b:hex") or null. */
static void render_value(sb *s, const col_vector *v, uint32_t r, int json){
  char tmp[64];
  int tag = cv_tag(v, r);
  if( tag==CV_NULL ){ sb_str(s, json ? "null" : "NULL"); return; }
  if( json ) sb_str(s, "\"");
  if( tag==CV_INT ){ snprintf(tmp, sizeof(tmp), "i:%lld", (long long)cv_int(v, r)); sb_str(s, tmp); }
  else if( tag==CV_REAL ){ sb_str(s, "r:"); fmt_real(cv_real(v, r), tmp, sizeof(tmp)); sb_str(s, tmp); }
  else{
    cv_str x = cv_bytes(v, r);
    sb_str(s, tag==CV_TEXT ? "t:" : "b:");
    for(uint32_t i=0; i<x.n; i++){
      unsigned char c = (unsigned char)x.p[i];
      if( tag==CV_BLOB ){ snprintf(tmp, sizeof(tmp), "%02x", c); sb_str(s, tmp); continue; }
      if( json && (c=='"' || c=='\\') ){ sb_add(s, "\\", 1); sb_add(s, (char*)&c, 1); }
      else if( json && c=='\n' ) sb_str(s, "\\n");
      else if( json && c=='\r' ) sb_str(s, "\\r");
      else if( json && c=='\t' ) sb_str(s, "\\t");
      else if( json && c<0x20 ){ snprintf(tmp, sizeof(tmp), "\\u%04x", c); sb_str(s, tmp); }
      else sb_add(s, (char*)&c, 1);
    }
  }
  if( json ) sb_str(s, "\"");
}

typedef struct scan_opts {
  int threads;            /* spec.threads */
  int batch;              /* spec.batch_size */
  int nproj;              /* -1: all columns */
  const int *proj;        /* projection when nproj>=0 */
  int npred;              /* predicates */
  const scan_pred *preds;
  int json;               /* render rows as JSON arrays */
  int64_t max_rows;
} scan_opts;

static scan_stats last_stats;
static col_schema *last_schema;

/* Open csv(args...) and scan it; rows joined by '\n', values by '|'.
** NULL return: err says why (open or scan error). */
static char *scan_args(int nargs, const char *const *args, const scan_opts *so,
                       col_error *err){
  csv_options o;
  csv_options_init(&o);
  col_dataset *ds = 0;
  batch_source *src = 0;
  sb s = {0};
  col_error_clear(err);
  if( csv_options_parse(nargs, args, &o, err) || csv_dataset_open(&o, &ds, err) ){
    csv_options_free(&o);
    return 0;
  }
  csv_options_free(&o);
  int all[1024];
  int n = ds->schema.n;
  for(int i=0; i<n && i<1024; i++) all[i] = i;
  scan_spec spec;
  memset(&spec, 0, sizeof(spec));
  spec.nproj = so && so->nproj>=0 ? so->nproj : n;
  spec.proj = so && so->nproj>=0 ? so->proj : all;
  spec.npred = so ? so->npred : 0;
  spec.preds = so ? so->preds : 0;
  spec.threads = so ? so->threads : 0;
  spec.batch_size = so ? so->batch : 0;
  spec.max_rows = so ? so->max_rows : 0;
  int json = so && so->json;
  if( json ){
    sb_str(&s, "[");
    for(int i=0; i<n; i++){
      if( i ) sb_str(&s, ",");
      sb_str(&s, "\""); sb_str(&s, ds->schema.cols[i].name); sb_str(&s, "\"");
    }
    sb_str(&s, "]\n");
  }
  if( ds->m->scan(ds, &spec, &src, err) ) goto done;
  sb_str(&s, "");
  for(;;){
    col_batch *b;
    if( src->m->next(src, &b) ){ *err = src->err; break; }
    if( b==0 ) break;
    for(uint32_t k=0; k<b->nsel && spec.nproj>0; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      if( json ) sb_str(&s, "[");
      for(int c=0; c<b->ncols; c++){
        if( c ) sb_str(&s, json ? "," : "|");
        render_value(&s, &b->cols[c], r, json);
      }
      sb_str(&s, json ? "]\n" : "\n");
    }
  }
  last_stats = src->stats;
  src->m->close(src);
done:
  if( last_schema ){ col_schema_free(last_schema); free(last_schema); last_schema = 0; }
  last_schema = calloc(1, sizeof(col_schema));
  last_schema->n = ds->schema.n;
  last_schema->cols = calloc((size_t)ds->schema.n+1, sizeof(col_def));
  for(int i=0; i<ds->schema.n; i++){
    last_schema->cols[i] = ds->schema.cols[i];
    last_schema->cols[i].name = strdup(ds->schema.cols[i].name);
  }
  ds->m->close(ds);
  if( err->code ){ free(s.p); return 0; }
  if( s.p==0 ) sb_str(&s, "");
  return s.p;
}

/* Scan inline data with extra arguments; returns rows or "ERROR: msg". */
static char *scan_data(const char *data, const char *extra1, const char *extra2,
                       const scan_opts *so){
  static char msgbuf[600];
  const char *args[4];
  int n = 0;
  char *d = malloc(strlen(data)*2+16);
  char *q = d;
  q += sprintf(q, "data='");
  for(const char *p=data; *p; p++){ if( *p=='\'' ) *q++ = '\''; *q++ = *p; }
  *q++ = '\''; *q = 0;
  args[n++] = d;
  if( extra1 ) args[n++] = extra1;
  if( extra2 ) args[n++] = extra2;
  col_error err;
  char *r = scan_args(n, args, so, &err);
  free(d);
  if( r==0 ){
    snprintf(msgbuf, sizeof(msgbuf), "ERROR: %s", err.msg);
    return strdup(msgbuf);
  }
  return r;
}

#define EXPECT_DATA(data, e1, e2, so, want) do{ char *_r = scan_data(data, e1, e2, so); \
  CHECK_EQ_STR(_r, want); free(_r); }while(0)

static void write_file(const char *path, const void *p, size_t n){
  FILE *f = fopen(path, "wb");
  fwrite(p, 1, n, f);
  fclose(f);
}

/* ---- tokenizer and types ---------------------------------------------- */

static void test_types(void){
  int64_t i; double d; char buf[40]; uint32_t n;
  CHECK(csv_parse_int("007", 3, &i) && i==7);
  CHECK(csv_parse_int("-9223372036854775808", 20, &i) && i==INT64_MIN);
  CHECK(!csv_parse_int("9223372036854775808", 19, &i));
  CHECK(!csv_parse_int("1.0", 3, &i));
  CHECK(!csv_parse_int("-", 1, &i));
  CHECK(csv_parse_real("1.5e3", 5, &d)==1 && d==1500);
  CHECK(csv_parse_real("0.1", 3, &d)==1 && d==0.1);
  CHECK(csv_parse_real(".5", 2, &d)==1 && d==0.5);
  CHECK(csv_parse_real("NaN", 3, &d)==2);
  CHECK(csv_parse_real("-inf", 4, &d)==1 && isinf(d) && d<0);
  CHECK(csv_parse_real("1.7976931348623157e308", 22, &d)==1 && d==1.7976931348623157e308);
  CHECK(csv_parse_real("123456789012345678901234", 24, &d)==1 && d==123456789012345678901234.0);
  CHECK(!csv_parse_real("1e", 2, &d));
  CHECK(!csv_parse_real(".", 1, &d));
  CHECK(!csv_parse_real("1,5", 3, &d));
  CHECK(csv_parse_bool("TRUE", 4, &i) && i==1);
  CHECK(csv_parse_date("2024-02-29", 10, buf, &n));
  CHECK(!csv_parse_date("2023-02-29", 10, buf, &n));
  CHECK(csv_parse_ts("2024-01-02T03:04:05.1", 21, buf, &n));
  buf[n] = 0; CHECK_EQ_STR(buf, "2024-01-02 03:04:05.100");
  CHECK(csv_parse_ts("2024-01-02 03:04:05.1234", 24, buf, &n));
  buf[n] = 0; CHECK_EQ_STR(buf, "2024-01-02 03:04:05.123400");
  CHECK(csv_parse_ts("2024-01-02 03:04:05.000", 23, buf, &n));
  buf[n] = 0; CHECK_EQ_STR(buf, "2024-01-02 03:04:05");
  CHECK(csv_parse_time("23:59", 5, buf, &n));
  buf[n] = 0; CHECK_EQ_STR(buf, "23:59:00");
  CHECK(csv_utf8_valid("h\xc3\xa9llo", 6));
  CHECK(!csv_utf8_valid("\xc3(", 2));
  CHECK(!csv_utf8_valid("\xed\xa0\x80", 3));
  CHECK(!csv_utf8_valid("\xc0\xaf", 2));
  CHECK(csv_utf8_valid("\xd0\x9c\xd0\xbe \xd1\x81", 7));   /* Cyrillic */
  CHECK(!csv_utf8_valid("ab\xd0", 3));                      /* cut short */
  CHECK(!csv_utf8_valid("\xd0\xd0", 2));                    /* no continuation */
  CHECK(!csv_utf8_valid("\xdf\xc0", 2));
}

static void test_tokenizer(void){
  csv_dialect d = { ',', '"', '"', 0 };
  csv_tok t;
  col_error e; col_error_clear(&e);
  csv_tok_init(&t, &d);
  size_t used;
  const char *s = "a,\"b,\"\"c\"\"\",\r\nx";
  CHECK_EQ_INT(csv_tok_record(&t, s, strlen(s), 0, &used, &e), CSV_TOK_ROW);
  CHECK_EQ_INT(t.nf, 3);
  CHECK_EQ_INT(used, 14);
  CHECK(t.ff[1]==(CSV_FQUOTED|CSV_FESCAPED));
  char out[16];
  uint32_t n = csv_tok_unescape(&d, s+t.fs[1], t.fe[1]-t.fs[1], out);
  CHECK(n==6 && memcmp(out, "b,\"c\"\"", 6)==0 ? 0 : 1);
  out[n] = 0; CHECK_EQ_STR(out, "b,\"c\"");
  CHECK_EQ_INT(csv_tok_record(&t, s+used, 1, 0, &used, &e), CSV_TOK_MORE);
  CHECK_EQ_INT(csv_tok_record(&t, "x", 1, 1, &used, &e), CSV_TOK_ROW);
  CHECK_EQ_INT(csv_tok_record(&t, "\"abc", 4, 1, &used, &e), CSV_TOK_ERR);
  /* Long unquoted run crosses the SIMD block. */
  const char *l = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n";
  CHECK_EQ_INT(csv_tok_record(&t, l, strlen(l), 0, &used, &e), CSV_TOK_ROW);
  CHECK_EQ_INT(t.fe[0], 41);
  CHECK_EQ_INT(used, strlen(l));
  csv_tok_free(&t);
}

/* ---- whole scans of inline data ---------------------------------------- */

static void test_basic(void){
  EXPECT_DATA("a,b\n1,x\n2,y\n", 0, 0, 0, "i:1|t:x\ni:2|t:y\n");
  CHECK_EQ_STR(last_schema->cols[0].name, "a");
  CHECK_EQ_STR(last_schema->cols[0].decl, "INTEGER");
  CHECK_EQ_STR(last_schema->cols[1].decl, "TEXT");
  /* No header: all-numeric first row. */
  EXPECT_DATA("1,2\n3,4", 0, 0, 0, "i:1|i:2\ni:3|i:4\n");
  CHECK_EQ_STR(last_schema->cols[1].name, "c1");
  /* header=false forces the first row to data (types widen to TEXT). */
  EXPECT_DATA("a,b\n1,2\n", "header=false", 0, 0, "t:a|t:b\nt:1|t:2\n");
  /* Reals, booleans, empty -> NULL, quoted empty -> '' in TEXT. */
  EXPECT_DATA("x,y,z,w\n1.5,true,,\"\"\n2,FALSE,3,q\n", 0, 0, 0,
              "r:1.5|i:1|NULL|t:\nr:2.0|i:0|i:3|t:q\n");
  /* Dates and timestamps normalized. */
  EXPECT_DATA("d,ts\n2024-01-02,2024-01-02T03:04:05.5\n2024-12-31,2024-01-02\n", 0, 0, 0,
              "t:2024-01-02|t:2024-01-02 03:04:05.500\nt:2024-12-31|t:2024-01-02 00:00:00\n");
  /* NaN is NULL. */
  EXPECT_DATA("v\n1.5\nnan\n", 0, 0, 0, "r:1.5\nNULL\n");
  /* all_text: csv.c behaviour. */
  EXPECT_DATA("a,b\n1,\n", "all_text=true", "header=true", 0, "t:1|t:\n");
  CHECK_EQ_STR(last_schema->cols[0].decl, "TEXT");
}

static void test_dialects(void){
  EXPECT_DATA("a;b\n1;2\n", 0, 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a\tb\n1\t2\n", 0, 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a|b\n1|2\n", 0, 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a:b\n1:2\n", "delim=':'", 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a\tb\n1\t2\n", "delim='\\t'", 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a\tb\n1\t2\n", "delim=tab", 0, 0, "i:1|i:2\n");
  /* CRLF, BOM, lone CR. */
  EXPECT_DATA("\xEF\xBB\xBFname,n\r\nx,1\r\ny,2\r\n", 0, 0, 0, "t:x|i:1\nt:y|i:2\n");
  CHECK_EQ_STR(last_schema->cols[0].name, "name");
  EXPECT_DATA("a,b\r1,2\r3,4", 0, 0, 0, "i:1|i:2\ni:3|i:4\n");
  /* Quoting: embedded delimiter, newline, doubled quotes. */
  EXPECT_DATA("a,b\n\"x,y\",\"l1\nl2\"\n\"say \"\"hi\"\"\",z\n", 0, 0, 0,
              "t:x,y|t:l1\nl2\nt:say \"hi\"|t:z\n");
  /* Backslash escape. */
  EXPECT_DATA("a,b\n\"x\\\"y\",1\n", "escape='\\\\'", 0, 0, "t:x\"y|i:1\n");
  /* quote='' : quotes are data. */
  EXPECT_DATA("a,b\n\"x,1\n", "quote=''", 0, 0, "t:\"x|i:1\n");
  /* skip and comment. */
  EXPECT_DATA("junk line\na,b\n#c\n1,2\n", "skip=1", "comment='#'", 0, "i:1|i:2\n");
  /* Blank lines are skipped. */
  EXPECT_DATA("a,b\n\n1,2\n\n", 0, 0, 0, "i:1|i:2\n");
  /* Header uniqueness. */
  EXPECT_DATA("a,a,,a\n1,2,3,4\n", "header=true", 0, 0, "i:1|i:2|i:3|i:4\n");
  CHECK_EQ_STR(last_schema->cols[1].name, "a_1");
  CHECK_EQ_STR(last_schema->cols[2].name, "c2");
  CHECK_EQ_STR(last_schema->cols[3].name, "a_2");
  /* columns=N and null= */
  EXPECT_DATA("1,2,3\n4\n", "columns=2", "header=false", 0, "i:1|i:2\ni:4|NULL\n");
  EXPECT_DATA("a,b\nNA,1\nx,NA\n", "null='NA'", 0, 0, "NULL|i:1\nt:x|NULL\n");
  /* types= override. */
  EXPECT_DATA("a,b\n1,2\n", "types='TEXT,REAL'", 0, 0, "t:1|r:2.0\n");
  EXPECT_DATA("a,b\n1,2\n", "types='b=TEXT'", 0, 0, "i:1|t:2\n");
}

static void test_errors(void){
  /* A type error names file, line and column. */
  char data[4096];
  strcpy(data, "id,price\n");
  for(int i=0; i<30; i++) sprintf(data+strlen(data), "%d,%d.5\n", i, i);
  strcat(data, "99,abc\n");
  EXPECT_DATA(data, "sample_rows=10", 0, 0,
              "ERROR: data: line 32, column 'price': 'abc' is not a REAL");
  char *r = scan_data(data, "sample_rows=10", "on_error=null", 0);
  CHECK(strstr(r, "i:99|NULL\n")!=0); free(r);
  r = scan_data(data, "sample_rows=10", "on_error=skip", 0);
  CHECK(strstr(r, "i:99")==0 && strstr(r, "i:29|r:29.5\n")!=0); free(r);
  CHECK_EQ_INT(last_stats.rows_skipped, 1);
  r = scan_data(data, "sample_rows=10", "on_error=text", 0);
  CHECK(strstr(r, "i:99|t:abc\n")!=0); free(r);
  /* Ragged rows. */
  EXPECT_DATA("a,b\n1,2\n3\n", 0, 0, 0, "ERROR: data: line 3: expected 2 fields, found 1");
  EXPECT_DATA("a,b\n1,2\n3\n", "on_error=skip", 0, 0, "i:1|i:2\n");
  EXPECT_DATA("a,b\n1,2\n3\n", "on_error=null", 0, 0, "i:1|i:2\ni:3|NULL\n");
  /* Unterminated quote names the line it opened on. */
  EXPECT_DATA("a,b\n1,2\n3,\"oops\nmore\n", 0, 0, 0, "ERROR: data: line 3: unterminated quoted field");
  EXPECT_DATA("a,b\n1,\"x\"y\n", 0, 0, 0, "ERROR: data: line 2: unexpected character after a closing quote");
  /* Invalid UTF-8. */
  EXPECT_DATA("a,b\nx\xff,1\n", 0, 0, 0, "ERROR: data: line 2, column 'a': 'x?' is not valid UTF-8");
  EXPECT_DATA("a,b\nx\xff,1\n", "on_error=null", 0, 0, "NULL|i:1\n");
  EXPECT_DATA("a,b\nx\xff,1\n", "on_error=text", 0, 0, "b:78ff|i:1\n");
  /* Options. */
  EXPECT_DATA("a\n1\n", "bogus=1", 0, 0, "ERROR: csv: unknown argument 'bogus'");
  EXPECT_DATA("a\n1\n", "on_error=maybe", 0, 0, "ERROR: csv: on_error must be error, null, skip or text, not 'maybe'");
  EXPECT_DATA("a\n1\n", "delim='ab'", 0, 0, "ERROR: csv: delim must be a single character, not 'ab'");
  col_error e;
  const char *args[] = { "'/nonexistent/x.csv'" };
  CHECK(scan_args(1, args, 0, &e)==0 && strstr(e.msg, "/nonexistent/x.csv: cannot open")!=0);
}

static void test_options_parse(void){
  csv_options o;
  col_error e; col_error_clear(&e);
  csv_options_init(&o);
  const char *args[] = { "\"my file.csv\"", "header = 'true'", "null='NA'", "null=''",
                         "schema='CREATE TABLE x(\"a\",''b'')'", "threads=4",
                         "filename_column=1", "on_error=skip", "escape='\\'" };
  CHECK_EQ_INT(csv_options_parse(9, args, &o, &e), COL_OK);
  CHECK_EQ_STR(o.filename, "my file.csv");
  CHECK_EQ_INT(o.header, 1);
  CHECK_EQ_INT(o.nnulls, 2);
  CHECK_EQ_STR(o.nulls[1], "");
  CHECK_EQ_STR(o.schema, "CREATE TABLE x(\"a\",'b')");
  CHECK_EQ_INT(o.threads, 4);
  CHECK_EQ_INT(o.filename_column, 1);
  CHECK_EQ_INT(o.on_error, CSV_ON_ERROR_SKIP);
  CHECK_EQ_INT(o.escape, '\\');
  csv_options_free(&o);
}

static void test_projection_and_preds(void){
  /* Column b has junk but is not read: no error (documented choice). */
  const char *data = "a,b\n1,2\n2,3\n3,x\n";
  int p0[] = {0};
  scan_opts so = { .nproj = 1, .proj = p0, .batch = 2 };
  char *r = scan_data(data, "types='INTEGER,INTEGER'", 0, &so);
  CHECK_EQ_STR(r, "i:1\ni:2\ni:3\n"); free(r);
  /* count(*): no columns. */
  scan_opts cnt = { .nproj = 0 };
  r = scan_data(data, 0, 0, &cnt);
  CHECK_EQ_STR(r, ""); free(r);
  CHECK_EQ_INT(last_stats.rows_returned, 3);
  /* Exact predicate on a column not projected. */
  int p1[] = {1};
  scan_pred pr;
  memset(&pr, 0, sizeof(pr));
  pr.col = 0; pr.op = PRED_GE; pr.exact = 1; pr.v.type = CV_INT; pr.v.i = 2;
  scan_opts sp = { .nproj = 1, .proj = p1, .npred = 1, .preds = &pr };
  r = scan_data(data, 0, 0, &sp);
  CHECK_EQ_STR(r, "t:3\nt:x\n"); free(r);
  CHECK_EQ_INT(last_stats.rows_returned, 2);
  CHECK_EQ_INT(last_stats.rows_decoded, 3);
  /* Small batches across many rows, and max_rows. */
  sb big = {0};
  sb_str(&big, "n,s\n");
  for(int i=0; i<1000; i++){ char t[64]; sprintf(t, "%d,\"v%d\"\n", i, i); sb_str(&big, t); }
  scan_opts sm = { .nproj = -1, .batch = 7 };
  r = scan_data(big.p, 0, 0, &sm);
  CHECK(strstr(r, "i:999|t:v999\n")!=0);
  free(r);
  scan_opts mx = { .nproj = -1, .max_rows = 10 };
  r = scan_data(big.p, 0, 0, &mx);
  CHECK_EQ_INT(last_stats.rows_returned, 10);
  free(r);
  free(big.p);
}

/* ---- files: compression, globs, threads ------------------------------- */

static char *scan_file(const char *path, const char *e1, const scan_opts *so, col_error *err){
  char arg[600];
  snprintf(arg, sizeof(arg), "'%.590s'", path);
  const char *args[] = { arg, e1 };
  return scan_args(e1 ? 2 : 1, args, so, err);
}

static void test_compressed(void){
  const char *text = "a,b\n1,x\n2,\"y\nz\"\n";
  char path[512];
  size_t n = strlen(text);
  /* gzip: two concatenated members. */
  unsigned char gz[512];
  z_stream z; memset(&z, 0, sizeof(z));
  deflateInit2(&z, 6, Z_DEFLATED, 15+16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = (unsigned char*)text; z.avail_in = 8; z.next_out = gz; z.avail_out = sizeof(gz);
  deflate(&z, Z_FINISH);
  size_t m1 = sizeof(gz) - z.avail_out;
  deflateReset(&z);
  z.next_in = (unsigned char*)text+8; z.avail_in = (uInt)(n-8); z.next_out = gz+m1; z.avail_out = (uInt)(sizeof(gz)-m1);
  deflate(&z, Z_FINISH);
  size_t gzn = sizeof(gz) - z.avail_out;
  deflateEnd(&z);
  snprintf(path, sizeof(path), "%s/t.csv.gz", tmpdir);
  write_file(path, gz, gzn);
  col_error err;
  char *r = scan_file(path, 0, 0, &err);
  CHECK(r && strcmp(r, "i:1|t:x\ni:2|t:y\nz\n")==0);
  free(r);
  /* Truncated gzip is an error. */
  write_file(path, gz, gzn-6);
  r = scan_file(path, 0, 0, &err);
  CHECK(r==0 && strstr(err.msg, "gzip")!=0);
  free(r);
  /* zstd */
  unsigned char zs[512];
  size_t zn = ZSTD_compress(zs, sizeof(zs), text, n, 3);
  snprintf(path, sizeof(path), "%s/t.csv.zst", tmpdir);
  write_file(path, zs, zn);
  r = scan_file(path, 0, 0, &err);
  CHECK(r && strcmp(r, "i:1|t:x\ni:2|t:y\nz\n")==0);
  free(r);
  write_file(path, zs, zn-3);
  r = scan_file(path, 0, 0, &err);
  CHECK(r==0 && strstr(err.msg, "zstd")!=0);
  free(r);
}

static void test_glob(void){
  char dir[512], path[600];
  snprintf(dir, sizeof(dir), "%s/g", tmpdir);
  mkdir(dir, 0755);
  for(int f=0; f<3; f++){
    snprintf(path, sizeof(path), "%s/part%d.csv", dir, f);
    char body[128];
    snprintf(body, sizeof(body), "k,v\n%d,a%d\n%d,b%d\n", f*10, f, f*10+1, f);
    write_file(path, body, strlen(body));
  }
  snprintf(path, sizeof(path), "%s/part*.csv", dir);
  col_error err;
  int p[] = {0, 2};
  scan_opts so = { .nproj = 2, .proj = p };
  char *r = scan_file(path, "filename_column=true", &so, &err);
  char want[4096];
  snprintf(want, sizeof(want), "i:0|t:%s/part0.csv\ni:1|t:%s/part0.csv\ni:10|t:%s/part1.csv\n"
           "i:11|t:%s/part1.csv\ni:20|t:%s/part2.csv\ni:21|t:%s/part2.csv\n", dir, dir, dir, dir, dir, dir);
  CHECK(r && strcmp(r, want)==0);
  free(r);
  CHECK_EQ_INT(last_stats.files, 3);
  snprintf(path, sizeof(path), "%s/none*.csv", dir);
  r = scan_file(path, 0, 0, &err);
  CHECK(r==0 && strstr(err.msg, "no file matches"));
}

/* Generate n rows with quoted fields, some holding newlines and quotes. */
static void gen_file(const char *path, int n, int wide){
  FILE *f = fopen(path, "wb");
  fprintf(f, "id,name,price,flag,day,note\n");
  uint64_t x = 12345;
  for(int i=0; i<n; i++){
    x = x*6364136223846793005ull + 1442695040888963407ull;
    fprintf(f, "%d,\"name %d%s\",%d.%02d,%s,2024-%02d-%02d,",
            i, (int)(x>>40)%1000, (x>>20)%17==0 ? " with, comma" : "",
            (int)((x>>30)%10000), (int)((x>>10)%100), (x>>33)&1 ? "true" : "false",
            (int)((x>>12)%12)+1, (int)((x>>16)%28)+1);
    if( (x>>24)%50==0 ) fprintf(f, "\"multi\nline \"\"quoted\"\" note %d\"", i);
    else if( (x>>24)%7==0 ) fputs("", f);
    else fprintf(f, "note%d%s", i, wide ? "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" : "");
    fprintf(f, "\n");
  }
  fclose(f);
}

static void test_threads(void){
  char path[512];
  snprintf(path, sizeof(path), "%s/big.csv", tmpdir);
  gen_file(path, 50000, 0);
  col_error e1, e2;
  scan_opts s1 = { .nproj = -1, .threads = 1 };
  scan_opts s2 = { .nproj = -1, .threads = 2 };
  scan_opts s4 = { .nproj = -1, .threads = 4, .batch = 1000 };
  char *a = scan_file(path, 0, &s1, &e1);
  char *b = scan_file(path, 0, &s2, &e2);
  CHECK(a && b && strcmp(a, b)==0);
  int lines = 0;
  for(char *p=a; p && *p; p++) lines += *p=='\n' && p[1]>='0' && p[1]<='9' ? 0 : 0;
  (void)lines;
  CHECK_EQ_INT(last_stats.rows_returned, 50000);
  char *c = scan_file(path, 0, &s4, &e2);
  CHECK(a && c && strcmp(a, c)==0);
  free(a); free(b); free(c);
  /* A type error deep in the file gives the same message either way. */
  FILE *f = fopen(path, "ab");
  fprintf(f, "50000,\"x\",notanumber,true,2024-01-01,n\n");
  fclose(f);
  a = scan_file(path, 0, &s1, &e1);
  b = scan_file(path, 0, &s4, &e2);
  CHECK(a==0 && b==0);
  CHECK_EQ_STR(e1.msg, e2.msg);
  CHECK(strstr(e1.msg, "column 'price': 'notanumber' is not a REAL")!=0);
  free(a); free(b);
}

static double now_sec(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec*1e-9;
}

/* Throughput on a generated ~100 MB file (CSV_BENCH=1). */
static void bench(void){
  char path[512];
  snprintf(path, sizeof(path), "/tmp/csv_bench_%d.csv", (int)getpid());
  gen_file(path, 1100000, 1);
  struct stat st; stat(path, &st);
  double mb = st.st_size/1e6;
  for(int th=1; th<=2; th++){
    for(int full=0; full<2; full++){
      csv_options o; csv_options_init(&o);
      col_error err; col_error_clear(&err);
      char arg[600]; snprintf(arg, sizeof(arg), "'%s'", path);
      const char *args[] = { arg };
      col_dataset *ds;
      csv_options_parse(1, args, &o, &err);
      csv_dataset_open(&o, &ds, &err);
      csv_options_free(&o);
      int all[6] = {0,1,2,3,4,5};
      scan_spec spec; memset(&spec, 0, sizeof(spec));
      spec.nproj = full ? 6 : 0; spec.proj = all; spec.threads = th;
      batch_source *src;
      double t0 = now_sec();
      ds->m->scan(ds, &spec, &src, &err);
      int64_t rows = 0;
      col_batch *b;
      while( src->m->next(src, &b)==0 && b ) rows += b->nsel;
      double t = now_sec()-t0;
      printf("bench: %.0f MB, %s, threads=%d: %lld rows, %.3f s, %.0f MB/s\n", mb,
             full ? "full typed parse" : "count(*)", th, (long long)rows, t, mb/t);
      src->m->close(src);
      ds->m->close(ds);
    }
  }
  unlink(path);
}

/* ---- conformance against DuckDB ---------------------------------------- */

static char *read_all(const char *path){
  FILE *f = fopen(path, "rb");
  if( !f ) return 0;
  sb s = {0};
  char buf[65536];
  size_t n;
  while( (n = fread(buf, 1, sizeof(buf), f))>0 ) sb_add(&s, buf, n);
  fclose(f);
  if( !s.p ) sb_str(&s, "");
  return s.p;
}

static void test_conformance(void){
  const char *dir = "test/data/csv";
  char list[512];
  snprintf(list, sizeof(list), "%s/MANIFEST", dir);
  char *man = read_all(list);
  if( man==0 ){ CHECK(!"test/data/csv/MANIFEST missing (run from the repo root)"); return; }
  int cases = 0;
  for(char *line = strtok(man, "\n"); line; line = strtok(0, "\n")){
    /* MANIFEST: <file> [extra option] */
    char file[256], opt[256] = "";
    if( sscanf(line, "%255s %255[^\n]", file, opt)<1 ) continue;
    char path[600], exp[600];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    snprintf(exp, sizeof(exp), "%s/%s.expected.jsonl", dir, file);
    char *want = read_all(exp);
    col_error err;
    scan_opts so = { .nproj = -1, .json = 1 };
    char *got = scan_file(path, opt[0] ? opt : 0, &so, &err);
    if( !want || !got || strcmp(want, got)!=0 ){
      unit_cur_failed = 1;
      fprintf(stderr, "conformance %s: %s\n", file, got ? "rows differ" : err.msg);
      if( got && want ){
        size_t i = 0; while( got[i] && got[i]==want[i] ) i++;
        fprintf(stderr, "  first difference at byte %zu:\n  got:  %.200s\n  want: %.200s\n", i,
                got + (i>80 ? i-80 : 0), want + (i>80 ? i-80 : 0));
      }
    }
    cases++;
    free(want); free(got);
  }
  free(man);
  CHECK(cases>=12);
}

/* A random number's text: sign, digits (leading zeros, up to 25 of them,
** past the 19 the fast path keeps), a point anywhere, an exponent up to
** 400 either way; or, one time in 16, a few bytes that are mostly no
** number at all. Returns its length. */
static uint64_t lcg_next(uint64_t *seed){
  *seed = *seed*6364136223846793005ull + 1442695040888963407ull;
  return *seed>>33;
}
static uint32_t gen_number_text(uint64_t *seed, char *z){
  uint32_t n = 0;
  uint64_t r = lcg_next(seed);
  if( r%16==0 ){
    static const char junk[] = "0123456789+-.eE a";
    for(uint32_t k = 1 + (uint32_t)(lcg_next(seed)%6); k>0; k--){
      z[n++] = junk[lcg_next(seed)%(sizeof(junk)-1)];
    }
    z[n] = 0;
    return n;
  }
  if( r%3==1 ) z[n++] = '-';
  else if( r%7==2 ) z[n++] = '+';
  uint32_t nd = 1 + (uint32_t)(lcg_next(seed)%25);
  uint32_t lead = lcg_next(seed)%4==0 ? (uint32_t)(lcg_next(seed)%5) : 0;
  int point = lcg_next(seed)%3 ? (int)(lcg_next(seed)%(nd + 1)) : -1;
  for(uint32_t k=0; k<lead; k++) z[n++] = '0';
  for(uint32_t k=0; k<nd; k++){
    if( (int)k==point ) z[n++] = '.';
    z[n++] = (char)('0' + lcg_next(seed)%10);
  }
  if( point==(int)nd ) z[n++] = '.';
  if( lcg_next(seed)%3==0 ){
    z[n++] = lcg_next(seed)%2 ? 'e' : 'E';
    uint64_t s = lcg_next(seed)%3;
    if( s==1 ) z[n++] = '-'; else if( s==2 ) z[n++] = '+';
    uint64_t emax = lcg_next(seed)%2 ? 30 : 400;
    n += (uint32_t)sprintf(z + n, "%d", (int)(lcg_next(seed)%emax));
  }
  z[n] = 0;
  return n;
}

/* csv_parse_real gives glibc's strtod to the bit (correctly rounded, -0.0
** kept), and refuses what strtod would not take whole; csv_parse_int gives
** strtoll's value where that does not overflow, and refuses the rest. */
static void test_numbers_vs_libc(void){
  uint64_t seed = 0x2545F4914F6CDD1Dull;
  int bad = 0;
  for(int iter=0; iter<300000 && bad<5; iter++){
    char z[96];
    uint32_t n = gen_number_text(&seed, z);
    char *end;
    errno = 0;
    double want = strtod(z, &end);
    /* strtod also takes leading spaces, hex, "inf" and "nan": not made here
    ** but in the junk, where a leading space is the one that matters */
    int whole = n>0 && end==z+n && z[0]!=' ';
    double got = 0;
    int rc = csv_parse_real(z, n, &got);
    if( (rc==1)!=whole || (rc==1 && memcmp(&got, &want, sizeof(got))!=0) ){
      printf("  real %s: ours rc=%d %.17g, strtod %s %.17g\n", z, rc, got,
             whole ? "takes" : "refuses", want);
      bad++;
    }
    errno = 0;
    long long wi = strtoll(z, &end, 10);
    int iwhole = n>0 && end==z+n && z[0]!=' ' && errno==0;
    int64_t gi = 0;
    int ri = csv_parse_int(z, n, &gi);
    if( ri!=iwhole || (ri && gi!=(int64_t)wi) ){
      printf("  int %s: ours rc=%d %lld, strtoll %s %lld\n", z, ri, (long long)gi,
             iwhole ? "takes" : "refuses", wi);
      bad++;
    }
  }
  CHECK(bad==0);
}

/* The SIMD tokenizer and the portable one agree on random inputs made of
** the bytes that matter (delimiter, quote, CR, LF, backslash), long enough
** to cross several 64-byte masks, with and without eof, for both escape
** styles. */
static void test_tokenizer_simd_vs_scalar(void){
  static const char alphabet[] = "ab,,,\"\"\r\n\n\\xyz";
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  char buf[700];
  int bad = 0;
  for(int iter=0; iter<20000 && bad<5; iter++){
    csv_dialect d = { ',', '"', (iter&1) ? '\\' : '"', 0 };
    csv_tok a, b;
    csv_tok_init(&a, &d);
    scalar_tok_init(&b, &d);
    seed = seed*6364136223846793005ull + 1442695040888963407ull;
    size_t n = (size_t)(seed>>33) % sizeof(buf);
    int dense = (int)((seed>>20)&3);      /* 0: mostly plain text */
    for(size_t i=0; i<n; i++){
      seed = seed*6364136223846793005ull + 1442695040888963407ull;
      unsigned r = (unsigned)(seed>>40);
      buf[i] = (dense==0 && r%8) ? (char)('a'+r%26) : alphabet[r%(sizeof(alphabet)-1)];
    }
    for(int eof=0; eof<2; eof++){
      size_t pos = 0;
      for(int rec=0; rec<100; rec++){
        col_error ea, eb;
        col_error_clear(&ea); col_error_clear(&eb);
        size_t ua = 0, ub = 0;
        int ra = csv_tok_record(&a, buf+pos, n-pos, eof, &ua, &ea);
        int rb = scalar_tok_record(&b, buf+pos, n-pos, eof, &ub, &eb);
        int same = ra==rb;
        if( same && (ra==CSV_TOK_ROW || ra==CSV_TOK_BLANK) ){
          same = ua==ub && a.nlines==b.nlines;
        }
        if( same && ra==CSV_TOK_ROW ){
          same = a.nf==b.nf;
          for(int f=0; same && f<a.nf; f++){
            same = a.fs[f]==b.fs[f] && a.fe[f]==b.fe[f] && a.ff[f]==b.ff[f];
          }
        }
        if( same && ra==CSV_TOK_ERR ) same = a.err_line==b.err_line && strcmp(ea.msg, eb.msg)==0;
        if( !same ){
          bad++;
          fprintf(stderr, "tokenizer simd/scalar differ: iter %d eof %d at %zu: %d vs %d\n",
                  iter, eof, pos, ra, rb);
          break;
        }
        if( ra!=CSV_TOK_ROW && ra!=CSV_TOK_BLANK ) break;
        pos += ua;
      }
    }
    csv_tok_free(&a);
    scalar_tok_free(&b);
  }
  CHECK(bad==0);
}

int main(void){
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_csv_%d", (int)getpid());
  mkdir(tmpdir, 0755);
  RUN(test_types);
  RUN(test_tokenizer);
  RUN(test_tokenizer_simd_vs_scalar);
  RUN(test_numbers_vs_libc);
  RUN(test_options_parse);
  RUN(test_basic);
  RUN(test_dialects);
  RUN(test_errors);
  RUN(test_projection_and_preds);
  RUN(test_compressed);
  RUN(test_glob);
  RUN(test_threads);
  RUN(test_conformance);
  if( getenv("CSV_BENCH") ) bench();
  if( last_schema ){ col_schema_free(last_schema); free(last_schema); }
  char cmd[600];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
  if( system(cmd) ){}
  return unit_report("test_csv");
}
