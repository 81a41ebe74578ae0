/*
** unit.h — the smallest test harness that prints what CI reads.
**
**   static void test_rle_run(void){ CHECK(x==1); CHECK_EQ_INT(a, b); }
**   int main(void){ RUN(test_rle_run); return unit_report("rle"); }
**
** unit_report prints "<name>: N passed, M failed" and returns the exit code.
*/
#ifndef COLUMNAR_UNIT_H
#define COLUMNAR_UNIT_H
#include <stdio.h>
#include <string.h>

static int unit_pass, unit_fail, unit_cur_failed;
static const char *unit_cur;

#define CHECK(c) do{ if(!(c)){ unit_cur_failed=1; \
  fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, unit_cur, #c); } }while(0)
#define CHECK_EQ_INT(a,b) do{ long long _a=(long long)(a), _b=(long long)(b); if(_a!=_b){ unit_cur_failed=1; \
  fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__, __LINE__, unit_cur, #a, _a, _b); } }while(0)
#define CHECK_EQ_STR(a,b) do{ const char *_a=(a), *_b=(b); if(strcmp(_a,_b)){ unit_cur_failed=1; \
  fprintf(stderr, "%s:%d: %s: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, unit_cur, #a, _a, _b); } }while(0)
#define RUN(fn) do{ unit_cur=#fn; unit_cur_failed=0; fn(); \
  if(unit_cur_failed) unit_fail++; else unit_pass++; }while(0)

static inline int unit_report(const char *name){
  printf("%s: %d passed, %d failed\n", name, unit_pass, unit_fail);
  return unit_fail ? 1 : 0;
}
#endif
