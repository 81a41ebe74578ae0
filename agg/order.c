/*
** order.c — ORDER BY ... LIMIT over a group by's output; see order.h.
**
** k groups out of n: a heap of the k best groups seen so far, its worst on
** top, so each further group costs one comparison with the top unless it
** belongs in the answer (O(n log k)). Without a useful k (k >= n) they are
** merge sorted. Groups are visited where they lie, partition by partition;
** the comparison breaks ties by the row that first made each group (the
** output order), which makes the order total and the heap's answer the
** stable sort's prefix.
*/
#include "order.h"
#include "value.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Up to this many groups, the first term's values are read once into an
** array before ordering: the heap and the sort compare each group's many
** times, and reading a value through its column costs more than the
** comparison (ORDER BY a text key LIMIT 10 OFFSET 1000 of 2880 groups:
** a tenth of a 4 ms group by). Values point into the tables (or hold a
** number), which stay as they are while ordering. */
#define ORD_CACHE_MAX (1u << 16)

typedef struct ord_ctx {
  const groupby *gb;
  const groupby_sort_term *terms;
  int nterm;
  col_error *err;         /* the first value error, if any */
  pred_value *first;      /* the first term of every group, or NULL */
  uint32_t *base;         /* per partition: its first group's index in it */
  const int64_t **ifirst; /* per partition: the first term's INTEGERs
                          ** (groupby_int_column: a count, an integer
                          ** key), or NULL there, or ifirst NULL */
  uint64_t *fkey;         /* with first, when every group's first term is
                          ** TEXT: 8 of its bytes past the prefix all
                          ** share, big-endian, zero past its end (an
                          ** order that agrees with the bytes' where two
                          ** words differ); else NULL */
} ord_ctx;

/* Groups (pa, sa) and (pb, sb) by their fkey words, DESC applied: <0 when
** the first comes before the second, 0 when the words tie (the values may
** still differ past them). */
static int ord_word_compare(const ord_ctx *o, int pa, uint32_t sa, int pb, uint32_t sb){
  uint64_t x = o->fkey[o->base[pa] + sa], y = o->fkey[o->base[pb] + sb];
  int c = x<y ? -1 : x>y;
  return o->terms[0].desc ? -c : c;
}

/* Value of term i for group (part, slot), NaN read as NULL; buf >= 64. */
static int ord_value(ord_ctx *o, int i, int part, uint32_t slot, pred_value *v, char *buf){
  if( i==0 && o->first ){ *v = o->first[o->base[part] + slot]; return 0; }
  if( i==0 && o->ifirst && o->ifirst[part] ){
    /* read in place: no value of the group made through its state */
    memset(v, 0, sizeof(*v));
    v->type = CV_INT; v->i = o->ifirst[part][slot];
    return 0;
  }
  if( groupby_value_at(o->gb, part, slot, o->terms[i].col, v, buf, o->err) ) return -1;
  if( v->type==CV_REAL && isnan(v->f) ) v->type = CV_NULL;
  return 0;
}

/* <0 when group a comes before group b: by the terms, then in output
** order (the row that first made each). */
static int ord_compare(ord_ctx *o, uint64_t a, uint64_t b){
  int pa = GROUPBY_GROUP_PART(a), pb = GROUPBY_GROUP_PART(b);
  uint32_t sa = GROUPBY_GROUP_SLOT(a), sb = GROUPBY_GROUP_SLOT(b);
  int i = 0;
  if( o->fkey ){
    /* a text key's words: most pairs differ there (ORDER BY a minute's
    ** text LIMIT 10 OFFSET 1000 of 2880 groups compared the strings a
    ** tenth of a 3 ms group by) */
    int c = ord_word_compare(o, pa, sa, pb, sb);
    if( c ) return c;
  }else if( o->ifirst && o->ifirst[pa] && o->ifirst[pb] ){
    /* a count or an integer key: the words, no values made (the heap of
    ** ORDER BY c DESC LIMIT 10 OFFSET 10000 compares them most) */
    int64_t x = o->ifirst[pa][sa], y = o->ifirst[pb][sb];
    if( x!=y ) return (x<y) == !o->terms[0].desc ? -1 : 1;
    i = 1;
  }
  for(; i<o->nterm; i++){
    pred_value va, vb;
    char ba[64], bb[64];
    if( ord_value(o, i, pa, sa, &va, ba) || ord_value(o, i, pb, sb, &vb, bb) ){
      return -1;   /* the caller sees o->err and stops */
    }
    int c = agg_value_compare(&va, &vb);
    if( c ) return o->terms[i].desc ? -c : c;
  }
  uint64_t fa = groupby_group_seen(o->gb, pa, sa), fb = groupby_group_seen(o->gb, pb, sb);
  return fa<fb ? -1 : fa>fb;
}

/* The first term's value of group g (NaN read as NULL); buf >= 64 bytes. */
static int ord_first(ord_ctx *o, uint64_t g, pred_value *v, char *buf){
  return ord_value(o, 0, GROUPBY_GROUP_PART(g), GROUPBY_GROUP_SLOT(g), v, buf);
}

/* The heap's new top g: its first term's value, the row that first made
** it, and no tie known to lose to it yet. */
static int ord_top(ord_ctx *o, uint64_t g, pred_value *v, char *buf,
                   uint64_t *seen, int *ties_lose){
  if( ord_first(o, g, v, buf) ) return -1;
  *seen = groupby_group_seen(o->gb, GROUPBY_GROUP_PART(g), GROUPBY_GROUP_SLOT(g));
  *ties_lose = 0;
  return 0;
}

/* Stable bottom-up merge sort of r[0..n) using tmp[0..n). */
static void ord_sort(ord_ctx *o, uint64_t *r, uint64_t *tmp, uint32_t n){
  uint64_t *src = r, *dst = tmp;
  for(uint32_t w=1; w<n; w*=2){
    for(uint32_t lo=0; lo<n; lo+=2*w){
      uint32_t mid = lo+w<n ? lo+w : n, hi = lo+2*w<n ? lo+2*w : n;
      uint32_t i = lo, j = mid, k = lo;
      while( i<mid && j<hi ) dst[k++] = ord_compare(o, src[j], src[i])<0 ? src[j++] : src[i++];
      while( i<mid ) dst[k++] = src[i++];
      while( j<hi ) dst[k++] = src[j++];
    }
    uint64_t *t = src; src = dst; dst = t;
    if( o->err->code ) return;
  }
  if( src!=r ) memcpy(r, src, (size_t)n*8);
}

/* Restore the heap (worst row on top) below position i. */
static void ord_sift_down(ord_ctx *o, uint64_t *h, uint32_t n, uint32_t i){
  for(;;){
    uint32_t l = 2*i+1, w = i;
    if( l<n && ord_compare(o, h[l], h[w])>0 ) w = l;
    if( l+1<n && ord_compare(o, h[l+1], h[w])>0 ) w = l+1;
    if( w==i ) return;
    uint64_t t = h[i]; h[i] = h[w]; h[w] = t;
    i = w;
  }
}

/* o->fkey for the n values of o->first when every one is TEXT; left NULL
** otherwise, or when out of memory (the values are compared then). */
static void ord_text_words(ord_ctx *o, uint32_t n){
  const pred_value *f = o->first;
  for(uint32_t i=0; i<n; i++) if( f[i].type!=CV_TEXT ) return;
  /* the prefix every value shares: no word could tell them apart there */
  uint32_t lcp = f[0].n;
  for(uint32_t i=1; i<n && lcp>0; i++){
    uint32_t m = f[i].n<lcp ? f[i].n : lcp, j = 0;
    while( j<m && f[i].p[j]==f[0].p[j] ) j++;
    lcp = j;
  }
  uint64_t *w = malloc((size_t)n * 8);
  if( w==0 ) return;
  for(uint32_t i=0; i<n; i++){
    const unsigned char *p = (const unsigned char*)f[i].p + lcp;
    uint32_t len = f[i].n - lcp;
    uint64_t x = 0;
    for(uint32_t j=0; j<8; j++) x = x<<8 | (j<len ? p[j] : 0);
    w[i] = x;
  }
  o->fkey = w;
}

/* Read the first term of all n groups into o->first. -1 on error. */
static int ord_cache(ord_ctx *o, uint32_t n, int nparts){
  uint64_t total = 0;
  for(int part=0; part<nparts; part++) total += groupby_part_groups(o->gb, part);
  if( total!=n ) return 0;   /* not the groups ordered: read as before */
  pred_value *f = malloc((size_t)n * sizeof(pred_value));
  uint32_t *base = malloc(((size_t)nparts + 1) * sizeof(uint32_t));
  uint32_t at = 0;
  char buf[64];
  for(int part=0; part<nparts && f && base; part++){
    base[part] = at;
    uint32_t ng = groupby_part_groups(o->gb, part);
    for(uint32_t s=0; s<ng; s++){
      /* read through the column: o->first is set once filled */
      if( ord_value(o, 0, part, s, &f[at++], buf) ){ free(f); free(base); return -1; }
    }
  }
  if( f==0 || base==0 ){ free(f); free(base); return -1; }
  o->first = f; o->base = base;
  ord_text_words(o, n);
  return 0;
}

int groupby_order(const groupby *gb, const groupby_sort_term *terms, int nterm,
                  uint64_t k, uint64_t **groups, uint32_t *ngroups, col_error *err){
  uint32_t n = groupby_ngroups(gb);
  uint32_t m = k < n ? (uint32_t)k : n;
  int nparts = groupby_parts(gb);
  ord_ctx o = { gb, terms, nterm, err, 0, 0, 0, 0 };
  uint64_t *r = malloc(((size_t)m + 1)*8);
  uint64_t *tmp = malloc(((size_t)m + 1)*8);
  *groups = 0; *ngroups = 0;
  if( r==0 || tmp==0 ){
    free(r); free(tmp);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory ordering the output");
  }
  o.ifirst = calloc((size_t)nparts + 1, sizeof(const int64_t*));
  if( o.ifirst==0 ){
    free(r); free(tmp);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory ordering the output");
  }
  int all_int = 1;
  for(int part=0; part<nparts; part++){
    o.ifirst[part] = groupby_int_column(gb, part, terms[0].col);
    all_int &= o.ifirst[part]!=0;
  }
  if( n>1 && n<=ORD_CACHE_MAX && !all_int && !groupby_value_in_buf(gb, terms[0].col)
   && ord_cache(&o, n, nparts) ){
    free(r); free(tmp); free(o.ifirst); free(o.fkey);
    return err->code ? err->code : col_error_set(err, COL_ENOMEM, "group_by: out of memory ordering the output");
  }
  uint32_t have = 0;
  pred_value topv;
  char topbuf[64];
  int top_ok = 0, ties_lose = 0;
  uint64_t topseen = 0;
  memset(&topv, 0, sizeof(topv));
  for(int part=0; part<nparts && err->code==COL_OK; part++){
    uint32_t ng = groupby_part_groups(gb, part);
    ties_lose = 0;
    if( m==n ){
      for(uint32_t s=0; s<ng; s++) r[have++] = GROUPBY_GROUP(part, s);
      continue;
    }
    const int64_t *iv = o.ifirst[part];
    for(uint32_t s=0; s<ng && m>0 && err->code==COL_OK; s++){
      if( have==m && iv ){
        /* A count or an integer key: skip the groups that lose to the top
        ** in one loop. Under one term, ties break by first-seen order,
        ** which is slot order within a partition: once one tying with the
        ** top came after it, every later tie in the partition loses too. */
        if( !top_ok && ord_top(&o, r[0], &topv, topbuf, &topseen, &ties_lose) ) break;
        top_ok = 1;
        if( topv.type==CV_INT ){
          int64_t t = topv.i;
          for(;;){
            if( terms[0].desc ){ while( s<ng && (iv[s]<t || (iv[s]==t && ties_lose)) ) s++; }
            else{ while( s<ng && (iv[s]>t || (iv[s]==t && ties_lose)) ) s++; }
            if( s<ng && iv[s]==t && nterm==1 && groupby_group_seen(gb, part, s)>topseen ){
              ties_lose = 1;
              continue;
            }
            break;
          }
          if( s==ng ) break;
        }
      }
      uint64_t g = GROUPBY_GROUP(part, s);
      if( have==m ){
        /* most groups lose to the heap's top on the first term alone:
        ** compare that with the top's value, read once per change */
        pred_value v;
        char buf[64];
        if( !top_ok && ord_top(&o, r[0], &topv, topbuf, &topseen, &ties_lose) ) break;
        top_ok = 1;
        int c = o.fkey ? ord_word_compare(&o, part, s, GROUPBY_GROUP_PART(r[0]), GROUPBY_GROUP_SLOT(r[0])) : 0;
        if( c==0 ){
          if( ord_first(&o, g, &v, buf) ) break;
          c = agg_value_compare(&v, &topv);
          if( o.terms[0].desc ) c = -c;
        }
        /* a tie goes to the full comparison: partitions are visited one
        ** after another, not in output order */
        if( c>0 || (c==0 && ord_compare(&o, g, r[0])>=0) ) continue;
        r[0] = g;
        ord_sift_down(&o, r, m, 0);
        top_ok = 0;
        continue;
      }
      /* heap of the m best groups so far, the worst on top */
      uint32_t c = have++;
      r[c] = g;
      while( c>0 ){
        uint32_t p = (c-1)/2;
        if( ord_compare(&o, r[c], r[p])<=0 ) break;
        uint64_t t = r[c]; r[c] = r[p]; r[p] = t;
        c = p;
      }
    }
  }
  if( err->code==COL_OK ) ord_sort(&o, r, tmp, m);
  free(tmp);
  free(o.first); free(o.base); free(o.ifirst); free(o.fkey);
  if( err->code ){ free(r); return err->code; }
  *groups = r; *ngroups = m;
  return COL_OK;
}
