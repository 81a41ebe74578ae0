/*
** options.c — csv(...) virtual table arguments into csv_options.
**
**   csv('x.csv')                      first bare/quoted positional = filename
**   csv(filename='x.csv', header=true, delim='\t', null='NA', null='')
**   csv(data='a,b
**   1,2', columns=2, schema='CREATE TABLE x(a,b)')
**
** A value is 'single-quoted' or "double-quoted" (a doubled quote inside
** stands for one) or bare (surrounding blanks trimmed). Single-byte options
** (delim, quote, escape, comment) also take \t \n \r \\ \0-style escapes
** and the word tab; quote='' and comment='' mean none. data= is taken
** literally, as ext/misc/csv.c does. Unknown keys are an error.
*/
#include "csv.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void csv_options_init(csv_options *o){
  memset(o, 0, sizeof(*o));
  o->header = -1;
  o->delim = -1;
  o->quote = '"';
  o->escape = '"';
  o->sample_rows = 20480;
}

void csv_options_free(csv_options *o){
  free(o->filename);
  free(o->data);
  for(int i=0; i<o->nnulls; i++) free(o->nulls[i]);
  free(o->nulls);
  free(o->types);
  for(int i=0; i<o->ncolumn_names; i++) free(o->column_names[i]);
  free(o->column_names);
  free(o->schema);
  csv_options_init(o);
}

/* Unquote z[0..n) into a new malloc'd string; *len gets its length. */
static char *opt_unquote(const char *z, size_t n, size_t *len){
  while( n && isspace((unsigned char)z[0]) ){ z++; n--; }
  while( n && isspace((unsigned char)z[n-1]) ) n--;
  char *out = malloc(n+1);
  if( out==0 ) return 0;
  size_t k = 0;
  if( n>=2 && (z[0]=='\'' || z[0]=='"') && z[n-1]==z[0] ){
    char q = z[0];
    for(size_t i=1; i+1<n; i++){
      out[k++] = z[i];
      if( z[i]==q && i+2<n && z[i+1]==q ) i++;
    }
  }else{
    memcpy(out, z, n);
    k = n;
  }
  out[k] = 0;
  *len = k;
  return out;
}

/* One byte from an option value; -2 when v is not a single byte. Empty
** gives 0 ("none"). */
static int opt_byte(const char *v, size_t n){
  if( n==0 ) return 0;
  if( n==1 ) return (unsigned char)v[0];
  if( n==3 && strncasecmp(v, "tab", 3)==0 ) return '\t';
  if( v[0]=='\\' && n==2 ){
    switch( v[1] ){
      case 't': return '\t';
      case 'n': return '\n';
      case 'r': return '\r';
      case '0': return 0;
      case '\\': return '\\';
      default: return (unsigned char)v[1];
    }
  }
  return -2;
}

/* Boolean option value; -1 when not a boolean. */
static int opt_bool(const char *v){
  static const char *const yes[] = { "1", "true", "yes", "on" };
  static const char *const no[] = { "0", "false", "no", "off" };
  for(int i=0; i<4; i++){
    if( strcasecmp(v, yes[i])==0 ) return 1;
    if( strcasecmp(v, no[i])==0 ) return 0;
  }
  return -1;
}

/* Non-negative integer option value; -1 when not one. */
static long opt_int(const char *v){
  if( *v==0 ) return -1;
  char *end;
  long x = strtol(v, &end, 10);
  if( *end || x<0 || x>1000000000L ) return -1;
  return x;
}

static int opt_set_str(char **dst, char *v){
  free(*dst);
  *dst = v;
  return COL_OK;
}

/* Apply key=value; takes ownership of v. */
static int opt_apply(csv_options *o, const char *key, char *v, size_t n,
                     col_error *err){
  long x;
  int b;
  if( strcmp(key, "filename")==0 ) return opt_set_str(&o->filename, v);
  if( strcmp(key, "data")==0 ){
    opt_set_str(&o->data, v);
    o->data_len = n;
    return COL_OK;
  }
  if( strcmp(key, "schema")==0 ) return opt_set_str(&o->schema, v);
  if( strcmp(key, "types")==0 ) return opt_set_str(&o->types, v);
  if( strcmp(key, "null")==0 || strcmp(key, "nullstr")==0 ){
    char **nn = realloc(o->nulls, sizeof(char*)*(size_t)(o->nnulls+1));
    if( nn==0 ){ free(v); return col_error_set(err, COL_ENOMEM, "out of memory"); }
    o->nulls = nn;
    o->nulls[o->nnulls++] = v;
    return COL_OK;
  }
  if( strcmp(key, "on_error")==0 ){
    static const char *const names[] = { "error", "null", "skip", "text" };
    for(int i=0; i<4; i++){
      if( strcasecmp(v, names[i])==0 ){ o->on_error = i; free(v); return COL_OK; }
    }
    col_error_set(err, COL_ERROR, "csv: on_error must be error, null, skip or text, not '%s'", v);
    free(v);
    return COL_ERROR;
  }
  if( strcmp(key, "delim")==0 || strcmp(key, "delimiter")==0 || strcmp(key, "sep")==0
   || strcmp(key, "quote")==0 || strcmp(key, "escape")==0 || strcmp(key, "comment")==0 ){
    int c = opt_byte(v, n);
    if( c==-2 || (c==0 && key[0]=='d') || (c==0 && key[0]=='e')
     || c=='\n' || c=='\r' ){
      col_error_set(err, COL_ERROR, "csv: %s must be a single character, not '%s'", key, v);
      free(v);
      return COL_ERROR;
    }
    free(v);
    switch( key[0] ){
      case 'd': case 's': o->delim = c; break;
      case 'q': o->quote = c; if( o->escape!='\\' ) o->escape = c; break;
      case 'e': o->escape = c; break;
      default: o->comment = c; break;
    }
    return COL_OK;
  }
  if( strcmp(key, "header")==0 || strcmp(key, "all_text")==0
   || strcmp(key, "filename_column")==0 ){
    b = opt_bool(v);
    if( b<0 && key[0]=='h' && strcasecmp(v, "auto")==0 ) b = -1;
    else if( b<0 ){
      col_error_set(err, COL_ERROR, "csv: %s must be true or false, not '%s'", key, v);
      free(v);
      return COL_ERROR;
    }
    free(v);
    if( key[0]=='h' ) o->header = b;
    else if( key[0]=='a' ) o->all_text = b;
    else o->filename_column = b;
    return COL_OK;
  }
  if( strcmp(key, "columns")==0 || strcmp(key, "skip")==0
   || strcmp(key, "threads")==0 || strcmp(key, "sample_rows")==0 ){
    x = opt_int(v);
    if( x<0 || (key[0]=='c' && (x<1 || x>100000)) || (key[0]=='t' && x>1024) ){
      col_error_set(err, COL_ERROR, "csv: %s must be a small non-negative integer, not '%s'", key, v);
      free(v);
      return COL_ERROR;
    }
    free(v);
    if( key[0]=='c' ) o->ncolumns = (int)x;
    else if( key[1]=='k' ) o->skip = (int)x;
    else if( key[0]=='t' ) o->threads = (int)x;
    else o->sample_rows = x ? (int)x : 20480;
    return COL_OK;
  }
  col_error_set(err, COL_ERROR, "csv: unknown argument '%s'", key);
  free(v);
  return COL_ERROR;
}

int csv_options_parse(int nargs, const char *const *args, csv_options *o,
                      col_error *err){
  for(int i=0; i<nargs; i++){
    const char *a = args[i];
    size_t alen = strlen(a);
    /* key=value, unless the '=' sits inside a quoted positional. */
    const char *eq = (a[0]=='\'' || a[0]=='"') ? 0 : strchr(a, '=');
    size_t n;
    if( eq==0 ){
      if( o->filename ){
        return col_error_set(err, COL_ERROR, "csv: unexpected argument %s (filename given twice?)", a);
      }
      o->filename = opt_unquote(a, alen, &n);
      if( o->filename==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
      continue;
    }
    char key[64];
    size_t kn = (size_t)(eq - a);
    while( kn && isspace((unsigned char)a[kn-1]) ) kn--;
    size_t k0 = 0;
    while( k0<kn && isspace((unsigned char)a[k0]) ) k0++;
    if( kn-k0==0 || kn-k0>=sizeof(key) ){
      return col_error_set(err, COL_ERROR, "csv: bad argument '%s'", a);
    }
    for(size_t j=k0; j<kn; j++) key[j-k0] = (char)tolower((unsigned char)a[j]);
    key[kn-k0] = 0;
    char *v = opt_unquote(eq+1, alen-(size_t)(eq+1-a), &n);
    if( v==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
    if( opt_apply(o, key, v, n, err) ) return err->code;
  }
  if( o->filename==0 && o->data==0 ){
    return col_error_set(err, COL_ERROR, "csv: give a filename or data=");
  }
  if( o->filename && o->data ){
    return col_error_set(err, COL_ERROR, "csv: give filename or data=, not both");
  }
  if( o->delim>=0 && (o->delim==o->quote) ){
    return col_error_set(err, COL_ERROR, "csv: delim and quote must differ");
  }
  return COL_OK;
}
