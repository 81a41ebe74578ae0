/*
** fuzz_main.c — runs a libFuzzer target as a plain program.
**
** `make test` links every test/fuzz_*.c against this driver so the targets
** run in CI without clang's libFuzzer: the files under test/corpus/<name>/
** (if any) go through as they are and then FUZZ_ITERS (default 3000)
** mutations of them, or of random bytes, with a fixed seed (FUZZ_SEED).
** `make fuzz` builds the same targets with -fsanitize=fuzzer for real fuzzing.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t fuzz_rng_state;
static uint64_t fuzz_rand(void){
  fuzz_rng_state ^= fuzz_rng_state << 13;
  fuzz_rng_state ^= fuzz_rng_state >> 7;
  fuzz_rng_state ^= fuzz_rng_state << 17;
  return fuzz_rng_state;
}

typedef struct fuzz_seed { uint8_t *p; size_t n; } fuzz_seed;

static size_t fuzz_load_corpus(const char *dir, fuzz_seed *seeds, size_t max){
  DIR *d = opendir(dir);
  size_t n = 0;
  if( d==0 ) return 0;
  struct dirent *e;
  while( n<max && (e = readdir(d))!=0 ){
    if( e->d_name[0]=='.' ) continue;
    char path[4096];
    if( snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ) continue;
    FILE *f = fopen(path, "rb");
    if( !f ) continue;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    if( sz>=0 && sz < (1<<22) ){
      seeds[n].p = malloc(sz ? (size_t)sz : 1);
      seeds[n].n = fread(seeds[n].p, 1, (size_t)sz, f);
      n++;
    }
    fclose(f);
  }
  closedir(d);
  return n;
}

int main(int argc, char **argv){
  const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/')+1 : argv[0];
  const char *it = getenv("FUZZ_ITERS");
  const char *sd = getenv("FUZZ_SEED");
  long iters = it ? atol(it) : 3000;
  fuzz_rng_state = sd ? strtoull(sd, 0, 10) : 0x9e3779b97f4a7c15ull;
  if( fuzz_rng_state==0 ) fuzz_rng_state = 1;
  char dir[4096];
  if( snprintf(dir, sizeof(dir), "%s/%s", argc>1 ? argv[1] : "test/corpus", name) >= (int)sizeof(dir) ) dir[0] = 0;
  static fuzz_seed seeds[256];
  size_t nseed = fuzz_load_corpus(dir, seeds, 256);
  for(size_t i=0; i<nseed; i++) LLVMFuzzerTestOneInput(seeds[i].p, seeds[i].n);
  uint8_t *buf = malloc(1<<16);
  for(long k=0; k<iters; k++){
    size_t n;
    if( nseed && (fuzz_rand()%8)!=0 ){
      fuzz_seed *s = &seeds[fuzz_rand()%nseed];
      n = s->n < (1<<16) ? s->n : (1<<16);
      memcpy(buf, s->p, n);
      int flips = 1 + (int)(fuzz_rand()%8);
      for(int f=0; f<flips && n; f++){
        size_t at = fuzz_rand()%n;
        switch( fuzz_rand()%4 ){
          case 0: buf[at] ^= (uint8_t)(1u << (fuzz_rand()%8)); break;
          case 1: buf[at] = (uint8_t)fuzz_rand(); break;
          case 2: buf[at] = (fuzz_rand()&1) ? 0xff : 0; break;
          default: n = at; break; /* truncate */
        }
      }
    }else{
      n = fuzz_rand() % 512;
      for(size_t i=0; i<n; i++) buf[i] = (uint8_t)fuzz_rand();
    }
    /* A copy of exactly n bytes so ASan sees any overread. */
    uint8_t *in = malloc(n ? n : 1);
    memcpy(in, buf, n);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
  }
  free(buf);
  for(size_t i=0; i<nseed; i++) free(seeds[i].p);
  printf("%s: 1 passed, 0 failed (%zu corpus files, %ld mutated inputs)\n", name, nseed, iters);
  return 0;
}
