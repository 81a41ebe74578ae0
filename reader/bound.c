/*
** bound.c — a column bound a consumer tightens during a scan; see bound.h.
*/
#include "bound.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct col_bound {
  pthread_mutex_t mu;
  int col, desc, nulls_first;
  int set;                /* v holds a value */
  pred_value v;           /* TEXT/BLOB: p is bytes (cap of them) */
  char *bytes;
  size_t cap;
};

col_bound *col_bound_new(int col, int desc, int nulls_first){
  col_bound *b = calloc(1, sizeof(*b));
  if( b==0 ) return 0;
  if( pthread_mutex_init(&b->mu, 0) ){ free(b); return 0; }
  b->col = col; b->desc = desc; b->nulls_first = nulls_first;
  return b;
}

void col_bound_free(col_bound *b){
  if( b==0 ) return;
  pthread_mutex_destroy(&b->mu);
  free(b->bytes);
  free(b);
}

int col_bound_set(col_bound *b, const pred_value *v){
  int text = v->type==CV_TEXT || v->type==CV_BLOB;
  pthread_mutex_lock(&b->mu);
  if( text && v->n > b->cap ){
    char *nb = realloc(b->bytes, v->n);
    if( nb==0 ){ pthread_mutex_unlock(&b->mu); return COL_ENOMEM; }
    b->bytes = nb; b->cap = v->n;
  }
  b->v = *v;
  if( text ){
    if( v->n ) memcpy(b->bytes, v->p, v->n);
    b->v.p = b->bytes;
  }
  b->set = 1;
  pthread_mutex_unlock(&b->mu);
  return COL_OK;
}

int col_bound_pred(col_bound *b, scan_pred *p, char **owned, int *nulls_first){
  *owned = 0;
  memset(p, 0, sizeof(*p));
  pthread_mutex_lock(&b->mu);
  int ok = b->set;
  if( ok ){
    p->col = b->col;
    p->op = b->desc ? PRED_GE : PRED_LE;
    p->coll = COLL_BINARY;
    p->v = b->v;
    if( b->v.type==CV_TEXT || b->v.type==CV_BLOB ){
      char *c = malloc(b->v.n ? b->v.n : 1);
      if( c==0 ) ok = 0;
      else{ if( b->v.n ) memcpy(c, b->v.p, b->v.n); p->v.p = c; *owned = c; }
    }
  }
  *nulls_first = b->nulls_first;
  pthread_mutex_unlock(&b->mu);
  return ok;
}
