/*
** split.c — jobs shared out among a parallel scan's lanes; see split.h.
*/
#include "split.h"
#include <pthread.h>
#include <stdlib.h>

typedef struct split_run {
  int start;              /* first job of the run (fixed once set) */
  int next;               /* next job to start */
  int end;                /* one past its last job (lowered by a steal) */
} split_run;

struct col_split {
  pthread_mutex_t mu;
  int njob;               /* -1 until the first col_split_jobs */
  int nstart;             /* starting lanes */
  int nlane, maxlane;
  split_run *run;         /* maxlane of them */
};

col_split *col_split_new(int nlane, int maxlane){
  if( nlane<1 || maxlane<nlane ) return 0;
  col_split *s = calloc(1, sizeof(*s));
  if( s==0 ) return 0;
  s->run = calloc((size_t)maxlane, sizeof(split_run));
  if( s->run==0 || pthread_mutex_init(&s->mu, 0) ){
    free(s->run); free(s);
    return 0;
  }
  s->njob = -1;
  s->nstart = s->nlane = nlane;
  s->maxlane = maxlane;
  return s;
}

void col_split_free(col_split *s){
  if( s==0 ) return;
  pthread_mutex_destroy(&s->mu);
  free(s->run);
  free(s);
}

void col_split_divide(const int64_t *rows, int njob, int nrun, int *start){
  int64_t total = 0, before = 0;
  for(int j=0; j<njob; j++) total += rows[j] > 0 ? rows[j] : 0;
  int run = 0;
  start[0] = 0;
  for(int j=0; j<njob; j++){
    int64_t r = rows[j] > 0 ? rows[j] : 0;
    int64_t mid = before + r/2;
    before += r;
    int part = total>0 ? (int)((double)mid * nrun / (double)total) : 0;
    if( part>=nrun ) part = nrun - 1;
    while( run<part ) start[++run] = j;
  }
  while( run<nrun ) start[++run] = njob;
}

int col_split_jobs(col_split *s, int njob, const int64_t *rows){
  pthread_mutex_lock(&s->mu);
  int rc = 0;
  if( s->njob>=0 ){
    rc = s->njob==njob ? 0 : -1;
  }else{
    int *start = malloc(((size_t)s->nstart + 1) * sizeof(int));
    if( start==0 ){
      rc = -1;
    }else{
      col_split_divide(rows, njob, s->nstart, start);
      for(int l=0; l<s->nstart; l++){
        s->run[l].start = s->run[l].next = start[l];
        s->run[l].end = start[l+1];
      }
      free(start);
      s->njob = njob;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return rc;
}

int col_split_claim(col_split *s, int lane){
  pthread_mutex_lock(&s->mu);
  int j = -1;
  if( s->njob>=0 && lane>=0 && lane<s->nlane ){
    split_run *r = &s->run[lane];
    if( r->next < r->end ) j = r->next++;
  }
  pthread_mutex_unlock(&s->mu);
  return j;
}

int col_split_steal(col_split *s, int min_left){
  if( min_left<1 ) min_left = 1;
  pthread_mutex_lock(&s->mu);
  int got = -1;
  if( s->njob>=0 && s->nlane<s->maxlane ){
    int victim = -1, most = 0;
    for(int l=0; l<s->nlane; l++){
      int left = s->run[l].end - s->run[l].next;
      if( left>most ){ most = left; victim = l; }
    }
    if( victim>=0 && most>=min_left ){
      /* the thief takes the larger half: the victim is busy with a job
      ** already */
      split_run *v = &s->run[victim];
      int take = (most + 1) / 2;
      got = s->nlane++;
      s->run[got].start = s->run[got].next = v->end - take;
      s->run[got].end = v->end;
      v->end -= take;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return got;
}

int col_split_lanes(col_split *s){
  pthread_mutex_lock(&s->mu);
  int n = s->nlane;
  pthread_mutex_unlock(&s->mu);
  return n;
}

void col_split_order(col_split *s, int *order){
  pthread_mutex_lock(&s->mu);
  int n = s->nlane;
  for(int i=0; i<n; i++){
    /* insertion: a handful of lanes; equal starts (empty runs) keep
    ** their lane order */
    int k = i;
    while( k>0 && s->run[order[k-1]].start > s->run[i].start ){ order[k] = order[k-1]; k--; }
    order[k] = i;
  }
  pthread_mutex_unlock(&s->mu);
}
