#!/bin/sh
# fuzz-build.sh — build every test/fuzz_*.c target for libFuzzer (clang).
#   make fuzz && build/fuzz/fuzz_parquet -max_len=200000 test/corpus/fuzz_parquet
set -e
CC=${FUZZ_CC:-clang}
out=build/fuzz
mkdir -p "$out"
src=$(ls reader/*.c reader/parquet/*.c reader/csv/*.c agg/*.c)
for t in test/fuzz_*.c; do
  name=$(basename "$t" .c)
  [ "$name" = fuzz_main ] && continue
  echo "  FUZZ $out/$name"
  $CC -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
      -o "$out/$name" "$t" $src \
      -lzstd -lsnappy -lz -llz4 -lbrotlidec -lbrotlienc -lxxhash -lpthread -lm -lsqlite3
done
