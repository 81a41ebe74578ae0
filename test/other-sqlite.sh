#!/bin/sh
# other-sqlite.sh VERSION — the Tcl suite and the C differential tests
# against another SQLite than the system's, built once into
# /tmp/sqlite-VERSION with Debian's compile options and loaded through
# LD_LIBRARY_PATH by the system's tclsh and its Tcl binding. The source is
# Debian's (sqlite3_VERSION.orig.tar.xz on deb.debian.org: 3.46.1 is Debian
# 13's, 3.53.4 unstable's as of 2026-12) or, for a version Debian does not
# keep, the amalgamation an npm package carries (better-sqlite3's
# deps/sqlite3, or node's sqlite3; the map below). `make test-sqlite V=3.46.1` runs it; `make
# test` does not (it needs the network and a few minutes of compiling).
# PATTERNs after the version pick Tcl files (as tcl/all.tcl's: 'dialect*').
# Exit status 2: the source could not be fetched (nothing was tested).
set -e
V=${1:?usage: other-sqlite.sh VERSION [PATTERN...]}
shift
D=${SQLITE_DIR:-/tmp/sqlite-$V}
# Debian's build options (PRAGMA compile_options of its 3.40): the Tcl
# binding needs the preupdate hook and unlock_notify; LIKE on a BLOB and
# the rest change answers the suite compares
OPTS="-O2 -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS3
  -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS3_TOKENIZER -DSQLITE_ENABLE_FTS4
  -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_LOAD_EXTENSION -DSQLITE_ENABLE_MATH_FUNCTIONS
  -DSQLITE_ENABLE_PREUPDATE_HOOK -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_SESSION
  -DSQLITE_ENABLE_STMTVTAB -DSQLITE_ENABLE_UNLOCK_NOTIFY -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT
  -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_MAX_SCHEMA_RETRY=25 -DSQLITE_MAX_VARIABLE_NUMBER=250000
  -DSQLITE_SECURE_DELETE -DSQLITE_SOUNDEX -DSQLITE_USE_URI -DSQLITE_TEMP_STORE=1
  -DSQLITE_OMIT_LOOKASIDE -DSQLITE_DEFAULT_RECURSIVE_TRIGGERS"
OPTS=$(echo $OPTS)   # one line: autosetup writes CFLAGS into its Makefile
# better-sqlite3 releases and the SQLite amalgamation each carries
npm_package(){
  case "$1" in
    3.47.0) echo 11.5.0;; 3.48.0) echo 11.8.1;; 3.49.2) echo 11.10.0;;
    3.50.2) echo 12.2.0;; 3.50.4) echo 12.4.1;; 3.51.2) echo 12.6.2;;
    3.51.3) echo 12.8.0;; 3.53.0) echo 12.9.0;; 3.53.3) echo 13.0.0;;
    3.54.1) echo 13.2.0;;
    # node's sqlite3 package carries an autoconf tarball instead
    3.52.0) echo sqlite3@6.0.1;;
    *) return 1;;
  esac
}
if [ ! -f "$D/lib/libsqlite3.so.0" ]; then
  rm -rf "$D"; mkdir -p "$D/src" "$D/lib" "$D/bin"
  if curl -sSfL "https://deb.debian.org/debian/pool/main/s/sqlite3/sqlite3_$V.orig.tar.xz" \
       -o "$D/src.tar.xz" 2>/dev/null; then
    # a failed build exits 1 (make's own 2 would read as "not fetched")
    built=0
    tar xJf "$D/src.tar.xz" -C "$D/src" --strip-components=1 && cd "$D/src" && if [ -f auto.def ]; then
      # autosetup (3.48 and later)
      CFLAGS="$OPTS" ./configure --disable-tcl >"$D/build.log" 2>&1 \
        && make sqlite3 libsqlite3.so >>"$D/build.log" 2>&1 \
        && cp -L libsqlite3.so "$D/lib/libsqlite3.so.0" && built=1
    else
      CFLAGS="$OPTS" ./configure --enable-shared --disable-static --disable-tcl >"$D/build.log" 2>&1 \
        && make libsqlite3.la sqlite3 >>"$D/build.log" 2>&1 \
        && cp -L .libs/libsqlite3.so.0 "$D/lib/libsqlite3.so.0" && built=1
    fi || true
    [ $built = 1 ] && cp sqlite3 "$D/bin/sqlite3" || {
      echo "SQLite $V: the build failed, see $D/build.log" >&2; rm -f "$D/lib/libsqlite3.so.0"; exit 1; }
    cd - >/dev/null
  else
    P=$(npm_package "$V") || { echo "SQLite $V: not fetched from deb.debian.org, and no better-sqlite3 release known to carry it" >&2; exit 2; }
    case $P in *@*) ;; *) P=better-sqlite3@$P;; esac
    (cd "$D" && npm pack -q "$P" >/dev/null 2>&1 && tar xzf ./*.tgz -C src) \
      || { echo "SQLite $V: neither deb.debian.org nor npm's $P could be fetched" >&2; rm -rf "$D"; exit 2; }
    A="$D/src/package/deps/sqlite3"
    for t in "$D"/src/package/deps/sqlite-autoconf-*.tar.gz; do
      [ -f "$t" ] || continue
      mkdir -p "$A" && tar xzf "$t" -C "$A" --strip-components=1
    done
    grep -q "#define SQLITE_VERSION  *\"$V\"" "$A/sqlite3.h" || { echo "$P does not carry SQLite $V" >&2; exit 1; }
    # the amalgamation has no shell: the suite needs only the library
    ${CC:-cc} $OPTS -fPIC -DSQLITE_THREADSAFE=1 -shared -Wl,-soname,libsqlite3.so.0 \
      -o "$D/lib/libsqlite3.so.0" "$A/sqlite3.c" -lm -lpthread -ldl
  fi
fi
echo "SQLite $(echo 'package require sqlite3; sqlite3 db :memory:; puts [db eval {SELECT sqlite_version()}]' \
  | LD_LIBRARY_PATH="$D/lib" tclsh) from $D"
PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
rc=0
LD_PRELOAD="$PRELOAD" LD_LIBRARY_PATH="$D/lib" build/san/test/test_agg >"$D/test_agg.log" 2>&1 || rc=1
tail -n 2 "$D/test_agg.log"
PATH="$D/bin:$PATH" LD_LIBRARY_PATH="$D/lib" COLUMNAR_EXT=build/columnar tclsh tcl/all.tcl "$@" \
  >"$D/tcl.log" 2>&1 || rc=1
grep -vE '^(ok|---) ' "$D/tcl.log"
exit $rc
