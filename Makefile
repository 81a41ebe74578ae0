# sqlite-columnar — Parquet and CSV files as SQLite virtual tables.
#
#   make            build/columnar.so (loadable) and build/libcolumnar.a
#   make demo       build, then query demo/ files in the sqlite3 shell
#   make test       unit tests, fuzz smoke runs and the Tcl suite, under
#                   AddressSanitizer and UBSan
#   make bench      benchmarks against DuckDB, native SQLite, csvtable
#   make fuzz       libFuzzer builds of every fuzz target (clang)

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
DEFS     = -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
LIBS     = -lzstd -lsnappy -lz -llz4 -lbrotlidec -lxxhash -lpthread -lm
TEST_LIBS = -lbrotlienc -lsqlite3

READER_SRC = $(wildcard reader/*.c reader/parquet/*.c reader/csv/*.c)
AGG_SRC    = $(wildcard agg/*.c)
EXT_SRC    = $(wildcard ext/*.c)
CORE_SRC   = $(READER_SRC) $(AGG_SRC)
ALL_SRC    = $(CORE_SRC) $(EXT_SRC)

UNIT_SRC   = $(wildcard test/test_*.c)
FUZZ_SRC   = $(filter-out test/fuzz_main.c,$(wildcard test/fuzz_*.c))

B  = build
BS = build/san
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The suite's fixtures are small, and a scan of fewer rows than
# PQ_SERIAL_ROWS (reader/parquet/scan.c) or of a CSV of fewer bytes than
# CSV_SERIAL_BYTES (reader/csv/dataset.c) runs without workers: the
# sanitizer build, which the suite runs, starts them for any scan so that
# threads=N tests the parallel paths.
SANDEFS = -DPQ_SERIAL_ROWS=0 -DCSV_SERIAL_BYTES=0

OBJ    = $(ALL_SRC:%.c=$(B)/obj/%.o)
SANOBJ = $(ALL_SRC:%.c=$(BS)/obj/%.o)
SANCORE = $(CORE_SRC:%.c=$(BS)/obj/%.o)

all: $(B)/columnar.so $(B)/libcolumnar.a

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(CC) $(CFLAGS) $(WARN) $(DEFS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(BS)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC   $< (sanitizers)"
	@$(CC) -O1 -g $(SAN) $(WARN) $(DEFS) $(SANDEFS) -fPIC -MMD -MP -c $< -o $@

$(B)/columnar.so: $(OBJ)
	$(CC) -shared -o $@ $^ $(LIBS)

$(B)/libcolumnar.a: $(OBJ)
	rm -f $@; ar rcs $@ $^

$(BS)/columnar.so: $(SANOBJ)
	$(CC) $(SAN) -shared -o $@ $^ $(LIBS)

# C unit tests: each test/test_*.c is a program over reader/ and agg/.
$(BS)/libcore.a: $(SANCORE)
	@rm -f $@; ar rcs $@ $^

$(BS)/test/%: test/%.c $(BS)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(CC) -O1 -g $(SAN) $(WARN) $(DEFS) -MMD -MP -o $@ test/$*.c $(BS)/libcore.a $(LIBS) $(TEST_LIBS)

# Fuzz targets run as plain programs over generated inputs (test/fuzz_main.c);
# `make fuzz` builds them for libFuzzer instead. (-MMD names one dependency
# file after the binary, from the last source: the target's own.)
$(BS)/fuzz/%: test/fuzz_main.c test/%.c $(BS)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(CC) -O1 -g $(SAN) $(WARN) $(DEFS) -MMD -MP -o $@ test/fuzz_main.c test/$*.c $(BS)/libcore.a $(LIBS) $(TEST_LIBS)

UNIT_BINS = $(UNIT_SRC:test/%.c=$(BS)/test/%)
FUZZ_BINS = $(FUZZ_SRC:test/%.c=$(BS)/fuzz/%)

ASAN_PRELOAD = $(shell $(CC) -print-file-name=libasan.so) $(shell $(CC) -print-file-name=libubsan.so)
export ASAN_OPTIONS = detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS = print_stacktrace=1:halt_on_error=1

test: $(B)/columnar.so $(BS)/columnar.so $(UNIT_BINS) $(FUZZ_BINS)
	@sh test/run-all.sh "$(BS)" "$(ASAN_PRELOAD)"

# The suite against another SQLite, built from Debian's source (needs the
# network, or npm for versions Debian does not keep): make test-sqlite
# V=3.46.1 [T="groupby_lazy* dialect*"] (T: Tcl files, as tcl/all.tcl takes)
test-sqlite: $(B)/columnar.so $(BS)/test/test_agg
	@set -f; sh test/other-sqlite.sh "$(V)" $(T)

demo: $(B)/columnar.so
	@sh demo/run.sh

# Reader-only scan timing for bench/run.sh (no SQLite).
$(B)/bench_scan: test/bench_scan.c $(B)/libcolumnar.a
	$(CC) $(CFLAGS) $(WARN) $(DEFS) -o $@ $^ $(LIBS)

bench: $(B)/columnar.so
	@sh bench/run.sh

fuzz:
	@sh test/fuzz-build.sh

clean:
	rm -rf $(B)

.PHONY: all test test-sqlite demo bench fuzz clean
-include $(OBJ:.o=.d) $(SANOBJ:.o=.d) $(UNIT_BINS:=.d) $(FUZZ_BINS:=.d)
