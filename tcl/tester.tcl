# tester.tcl -- a small test harness for sqlite-columnar, in the spirit of
# SQLite's own test/tester.tcl.
#
# Usage, at the top of a tcl/*.test file:
#
#     source [file join [file dirname [info script]] tester.tcl]
#     do_execsql_test 1.1 { SELECT count(*) FROM t } {42}
#     do_catchsql_test 1.2 { SELECT * FROM nosuch } {1 {no such table: nosuch}}
#     do_catchsql_glob_test 1.3 { ... } {1 {*bad.parquet*}}
#     do_test 1.4 { expr {1+1} } 2
#     do_eqp_test 1.5 { SELECT ... } {{SCAN t VIRTUAL TABLE INDEX *}}
#     skip_test 1.6 "needs feature X"
#     finish_test
#
# The harness opens an in-memory database `db`, enables extension loading and
# loads the extension named by $env(COLUMNAR_EXT) (a path without suffix, e.g.
# build/san/columnar), else <repo>/build/columnar. [testdir] is this tcl/
# directory, [repodir] the repository root, [shared_dir] the shared directory
# ($env(COLUMNAR_SHARED), else ../shared beside the repository).
#
# finish_test prints "<file>: N passed, M failed" (what test/run-all.sh sums)
# after listing every failure; it exits 1 when anything failed, so that
# tcl/all.tcl, which runs every file in its own tclsh, sees it.
#
# Expected results: do_execsql_test and do_catchsql_test compare Tcl lists
# (as SQLite's tester does: {1 2 3} equals "1 2 3"). An expected value of the
# form /REGEXP/ is matched as a regular expression against the result text.
#
# COLUMNAR_SEED=n mixes n into every srand() the randomized tests call, so
# that a sweep over n generates other data and queries than the fixed seeds
# (every such test compares against SQLite, whatever it generates).

package require sqlite3

if {[info exists ::env(COLUMNAR_SEED)] && [string is integer -strict $::env(COLUMNAR_SEED)]} {
    rename ::tcl::mathfunc::srand ::tcl::mathfunc::srand_fixed
    proc ::tcl::mathfunc::srand {n} {
        ::tcl::mathfunc::srand_fixed [expr {($n * 7919 + $::env(COLUMNAR_SEED) * 104729) % 2147483647}]
    }
}

namespace eval tester {
    variable npass 0        ;# tests that passed
    variable nfail 0        ;# tests that failed
    variable nskip 0        ;# tests skipped (with a reason)
    variable nknown 0       ;# known failures, reported but not counted
    variable failures {}    ;# names of failed tests
    variable skips {}       ;# {name reason} pairs
    variable knowns {}      ;# {name reason} pairs
    variable dir [file normalize [file dirname [info script]]]
    variable verbose [expr {[info exists ::env(TESTER_VERBOSE)] && $::env(TESTER_VERBOSE) ne "" && $::env(TESTER_VERBOSE) ne "0"}]
}

proc testdir {} { return $::tester::dir }
proc repodir {} { return [file dirname $::tester::dir] }
proc shared_dir {} {
    if {[info exists ::env(COLUMNAR_SHARED)] && $::env(COLUMNAR_SHARED) ne ""} {
        return [file normalize $::env(COLUMNAR_SHARED)]
    }
    return [file normalize [file join [repodir] .. shared]]
}

# The extension to load: $env(COLUMNAR_EXT) (relative to the current
# directory or the repository root), else build/columnar.
proc columnar_ext {} {
    if {[info exists ::env(COLUMNAR_EXT)] && $::env(COLUMNAR_EXT) ne ""} {
        set e $::env(COLUMNAR_EXT)
        if {[file pathtype $e] ne "absolute" && ![file exists $e.so] && ![file exists $e]} {
            set e [file join [repodir] $e]
        }
        return $e
    }
    return [file join [repodir] build columnar]
}

# Open (or reopen) a database handle with the extension loaded. Returns "" on
# success, else the load error (also kept in ::columnar_load_error).
proc open_db {{name db} {file :memory:}} {
    catch {$name close}
    sqlite3 $name $file
    $name enable_load_extension 1
    set ext [columnar_ext]
    if {[catch {$name eval {SELECT load_extension($ext)}} msg]} {
        set ::columnar_load_error "cannot load extension $ext: $msg"
        return $::columnar_load_error
    }
    set ::columnar_load_error ""
    return ""
}

proc tester::pass {name} {
    variable npass; incr npass
    variable verbose
    if {$verbose} { puts "ok $name" }
}

# Control characters in failure output (blobs, NULs) as \xNN, so that the
# log stays text for grep.
namespace eval tester {
    variable ctlmap {}
    for {set c 0} {$c < 32} {incr c} {
        if {$c != 9 && $c != 10} { lappend ctlmap [format %c $c] [format {\x%02x} $c] }
    }
    lappend ctlmap \x7f {\x7f}
}

proc tester::fail {name detail} {
    variable nfail; incr nfail
    variable failures; lappend failures $name
    variable ctlmap
    set detail [string map $ctlmap $detail]
    puts "FAILED $name"
    foreach line [split $detail "\n"] { puts "    $line" }
    flush stdout
}

# Does $got match $expected? Lists compare by canonical form; /re/ is a regexp.
proc tester::match {got expected} {
    if {[regexp {^/(.*)/$} $expected -> re]} {
        return [regexp -- $re $got]
    }
    if {[catch {list {*}$expected} e1] || [catch {list {*}$got} g1]} {
        return [expr {$got eq $expected}]
    }
    return [expr {$g1 eq $e1}]
}

proc tester::clip {s {n 2000}} {
    if {[string length $s] > $n} { return "[string range $s 0 $n]... ([string length $s] chars)" }
    return $s
}

# do_test NAME SCRIPT EXPECTED: SCRIPT runs in the caller's scope.
proc do_test {name script expected} {
    set rc [catch {uplevel 1 $script} got]
    if {$rc == 1} {
        tester::fail $name "script: [string trim $script]\nerror:  $got"
        return
    }
    if {[tester::match $got $expected]} {
        tester::pass $name
    } else {
        tester::fail $name "script:   [tester::clip [string trim $script]]\nexpected: [tester::clip $expected]\ngot:      [tester::clip $got]"
    }
}

proc execsql {sql {dbh db}} { uplevel 1 [list $dbh eval $sql] }
proc catchsql {sql {dbh db}} {
    set rc [catch {uplevel 1 [list $dbh eval $sql]} msg]
    return [list $rc $msg]
}

# do_execsql_test NAME SQL EXPECTED: the result of SQL as a flat list.
proc do_execsql_test {name sql {expected {}}} {
    if {[catch {uplevel 1 [list db eval $sql]} got]} {
        tester::fail $name "sql:      [string trim $sql]\nexpected: [tester::clip $expected]\nerror:    $got"
        return
    }
    if {[tester::match $got $expected]} {
        tester::pass $name
    } else {
        tester::fail $name "sql:      [string trim $sql]\nexpected: [tester::clip $expected]\ngot:      [tester::clip $got]"
    }
}

# do_catchsql_test NAME SQL {RC MSG}: RC 0 with the result, or 1 with the error.
proc do_catchsql_test {name sql expected} {
    set got [uplevel 1 [list catchsql $sql]]
    if {[tester::match $got $expected]} {
        tester::pass $name
    } else {
        tester::fail $name "sql:      [string trim $sql]\nexpected: [tester::clip $expected]\ngot:      [tester::clip $got]"
    }
}

# do_catchsql_glob_test NAME SQL {RC PATTERN}: like do_catchsql_test, but the
# message is matched with [string match] (for messages that hold paths). A
# pattern of the form /RE/ is a regular expression instead.
proc do_catchsql_glob_test {name sql expected} {
    lassign [uplevel 1 [list catchsql $sql]] rc msg
    lassign $expected erc pattern
    if {[regexp {^/(.*)/$} $pattern -> re]} {
        set ok [expr {$rc == $erc && [regexp -- $re $msg]}]
    } else {
        set ok [expr {$rc == $erc && [string match $pattern $msg]}]
    }
    if {$ok} {
        tester::pass $name
    } else {
        tester::fail $name "sql:      [string trim $sql]\nexpected: $erc [tester::clip $pattern] (glob)\ngot:      $rc [tester::clip $msg]"
    }
}

# do_eqp_test NAME SQL EXPECTED: EXPECTED is a list of glob patterns, one per
# line of EXPLAIN QUERY PLAN's `detail` column, in order.
proc do_eqp_test {name sql expected} {
    if {[catch {uplevel 1 [list db eval "EXPLAIN QUERY PLAN $sql"]} rows]} {
        tester::fail $name "sql:   [string trim $sql]\nerror: $rows"
        return
    }
    set details {}
    foreach {id parent notused detail} $rows { lappend details $detail }
    set ok [expr {[llength $details] == [llength $expected]}]
    if {$ok} {
        foreach d $details p $expected {
            if {![string match $p $d]} { set ok 0; break }
        }
    }
    if {$ok} {
        tester::pass $name
    } else {
        tester::fail $name "sql:      [string trim $sql]\nexpected: [join $expected { | }]\ngot:      [join $details { | }]"
    }
}

proc skip_test {name reason} {
    incr ::tester::nskip
    lappend ::tester::skips [list $name $reason]
    puts "skip $name: $reason"
}

# A test that fails for a documented reason outside the project's scope:
# reported, not counted as passed or failed.
proc known_fail {name reason {detail {}}} {
    incr ::tester::nknown
    lappend ::tester::knowns [list $name $reason]
    puts "known $name: $reason"
    if {$detail ne ""} { foreach line [split $detail "\n"] { puts "    $line" } }
}

proc finish_test {} {
    set file [file tail [info script]]
    if {$file eq "" || $file eq "tester.tcl"} { set file [file tail $::argv0] }
    if {[llength $::tester::failures]} {
        puts "$file failures: [join $::tester::failures { }]"
    }
    set extra ""
    if {$::tester::nskip} { append extra ", $::tester::nskip skipped" }
    if {$::tester::nknown} { append extra ", $::tester::nknown known" }
    puts "$file: $::tester::npass passed, $::tester::nfail failed$extra"
    flush stdout
    catch {db close}
    if {[info exists ::tester_no_exit] && $::tester_no_exit} return
    exit [expr {$::tester::nfail ? 1 : 0}]
}

# Quote a string as an SQL literal.
proc sqlquote {s} { return "'[string map {' ''} $s]'" }

# Open db and load the extension; a load failure is itself a failed test.
if {[set ::columnar_load_error [open_db db]] ne ""} {
    tester::fail load-extension $::columnar_load_error
}
