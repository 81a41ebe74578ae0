/*
** schema.c — col_schema lifetime.
*/
#include "scan.h"
#include <stdlib.h>

void col_schema_free(col_schema *s){
  if( s==0 ) return;
  for(int i=0; i<s->n; i++) free(s->cols[i].name);
  free(s->cols);
  s->cols = 0;
  s->n = 0;
}
