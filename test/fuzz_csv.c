/*
** fuzz_csv.c — arbitrary bytes through the CSV sniffer and a full scan.
**
** The first input byte picks options (on_error mode, header policy,
** all_text, a forced delimiter, backslash escapes, batch size 1..16); the
** rest is the CSV text, passed as data= so every input is read, sniffed,
** tokenized and typed. Errors are fine; crashes, leaks, hangs are not.
*/
#include "../reader/csv/csv.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<1 ) return 0;
  uint8_t k = data[0];
  csv_options o;
  csv_options_init(&o);
  o.data = malloc(size);
  memcpy(o.data, data+1, size-1);
  o.data_len = size-1;
  o.on_error = k & 3;
  o.header = (k>>2)%3==2 ? -1 : (k>>2)%3;
  o.all_text = (k>>4)&1;
  if( (k>>5)&1 ) o.delim = ';';
  if( (k>>6)&1 ) o.escape = '\\';
  o.sample_rows = 1 + (k>>3 & 7)*4;
  col_error err;
  col_error_clear(&err);
  col_dataset *ds = 0;
  if( csv_dataset_open(&o, &ds, &err)==COL_OK ){
    int proj[64];
    int n = ds->schema.n < 64 ? ds->schema.n : 64;
    for(int i=0; i<n; i++) proj[i] = i;
    for(int pass=0; pass<2; pass++){
      scan_spec spec;
      memset(&spec, 0, sizeof(spec));
      spec.nproj = pass ? 0 : n;
      spec.proj = proj;
      spec.batch_size = 1 + (k & 15);
      batch_source *src = 0;
      if( ds->m->scan(ds, &spec, &src, &err)==COL_OK ){
        col_batch *b;
        while( src->m->next(src, &b)==COL_OK && b ){
          /* Touch every value so ASan sees bad pointers. */
          for(int c=0; c<b->ncols; c++){
            for(uint32_t r=0; r<b->n; r++){
              int t = cv_tag(&b->cols[c], r);
              if( t==CV_TEXT || t==CV_BLOB ){
                cv_str s = cv_bytes(&b->cols[c], r);
                volatile char sink = 0;
                for(uint32_t i=0; i<s.n; i++) sink ^= s.p[i];
                (void)sink;
              }
            }
          }
        }
        src->m->close(src);
      }
    }
    ds->m->close(ds);
  }
  csv_options_free(&o);
  return 0;
}
