#!/bin/sh
# other-sqlite.sh VERSION — the Tcl suite and the C differential tests
# against another SQLite than the system's: Debian's source of VERSION
# (sqlite3_VERSION.orig.tar.xz on deb.debian.org: 3.46.1 is Debian 13's,
# 3.53.4 unstable's as of 2026-12), built once into /tmp/sqlite-VERSION with
# Debian's compile options, loaded through LD_LIBRARY_PATH by the system's
# tclsh and its Tcl binding. `make test-sqlite V=3.46.1` runs it; `make test`
# does not (it needs the network and a few minutes of compiling).
set -e
V=${1:?usage: other-sqlite.sh VERSION}
D=${SQLITE_DIR:-/tmp/sqlite-$V}
if [ ! -f "$D/lib/libsqlite3.so.0" ]; then
  rm -rf "$D"; mkdir -p "$D/src" "$D/lib" "$D/bin"
  curl -sSfL "https://deb.debian.org/debian/pool/main/s/sqlite3/sqlite3_$V.orig.tar.xz" \
    | tar xJ -C "$D/src" --strip-components=1
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
  cd "$D/src"
  if [ -f auto.def ]; then
    # autosetup (3.48 and later)
    CFLAGS="$OPTS" ./configure --disable-tcl >"$D/build.log" 2>&1
    make sqlite3 libsqlite3.so >>"$D/build.log" 2>&1
    cp -L libsqlite3.so "$D/lib/libsqlite3.so.0"
  else
    CFLAGS="$OPTS" ./configure --enable-shared --disable-static --disable-tcl >"$D/build.log" 2>&1
    make libsqlite3.la sqlite3 >>"$D/build.log" 2>&1
    cp -L .libs/libsqlite3.so.0 "$D/lib/libsqlite3.so.0"
  fi
  cp sqlite3 "$D/bin/sqlite3"
  cd - >/dev/null
fi
echo "SQLite $(LD_LIBRARY_PATH="$D/lib" "$D/bin/sqlite3" :memory: 'SELECT sqlite_version()') from $D"
PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
rc=0
LD_PRELOAD="$PRELOAD" LD_LIBRARY_PATH="$D/lib" build/san/test/test_agg | tail -n 2 || rc=1
PATH="$D/bin:$PATH" LD_LIBRARY_PATH="$D/lib" COLUMNAR_EXT=build/columnar tclsh tcl/all.tcl \
  | grep -vE '^(ok|---) ' || rc=1
exit $rc
