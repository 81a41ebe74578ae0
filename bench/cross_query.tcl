# cross_query.tcl -- bench section 6: group_bys that follow one another on one connection answer as
# each does alone. Every query of queries-groupby.sql, in four modes (threads=1; threads=2 with
# radix=auto, on and off), runs twice in a shuffled order on one connection, and once more on a
# fresh connection of its own; any difference (past 1e-12 relative in a REAL) is printed and counted. A connection keeps pooled
# slabs from query to query (agg/slab_pool.h), and once a later query read a past one's bytes as its
# aggregate states: only the first query of a connection answered right.
#
#   tclsh bench/cross_query.tcl EXT PARQUET [QUERIES]
#
# Prints "cross-query: N runs, M differ" last; exits 1 when M > 0.
package require sqlite3
lassign $argv ext parquet qfile
if {$qfile eq ""} { set qfile [file join [file dirname [info script]] queries-groupby.sql] }
set f [open $qfile]; set txt [read $f]; close $f
set queries {}
foreach l [split $txt \n] {
  if {[regexp {^Q(\d+): (.*)$} $l -> n sql]} { lappend queries [list $n $sql] }
}
proc connect {name ext parquet} {
  sqlite3 $name :memory:
  $name enable_load_extension 1
  $name eval "SELECT load_extension('[file rootname $ext]')"
  $name eval "CREATE VIRTUAL TABLE temp.hits USING parquet('[string map {' ''} $parquet]')"
}
# Alike: the same error, or the same values, REALs within 1e-12 relative. Lanes at threads=2 take
# over each other's row groups as they run, so a REAL sum's lanes, and so its last bits, can change
# from one run to the next (README, Limitations).
proc alike {a b} {
  lassign $a ra va; lassign $b rb vb
  if {$ra != $rb || [llength $va] != [llength $vb]} { return 0 }
  if {$ra} { return [expr {$va eq $vb}] }
  foreach x $va y $vb {
    if {$x eq $y} continue
    if {![string is double -strict $x] || ![string is double -strict $y]} { return 0 }
    if {[string is wide -strict $x] || [string is wide -strict $y]} { return 0 }
    if {abs($x - $y) > 1e-12 * max(abs($x), abs($y))} { return 0 }
  }
  return 1
}
proc answer {db sql} {
  set rc [catch {$db eval $sql} out]
  catch {$db eval {DROP TABLE IF EXISTS temp.g}}
  return [list $rc $out]
}
set modes {{threads=1,} {threads=2,} {threads=2, radix=on,} {threads=2, radix=off,}}
set jobs {}
foreach q $queries {
  foreach m $modes {
    lassign $q n sql
    regsub {group_by\(hits,} $sql "group_by(hits, $m" sql
    lappend jobs [list $n $m $sql]
  }
}
connect shared $ext $parquet
expr {srand(28)}
set runs 0; set bad 0
foreach round {1 2} {
  set order [lmap j $jobs { list [expr {rand()}] $j }]
  foreach pair [lsort -real -index 0 $order] {
    lassign [lindex $pair 1] n m sql
    if {![info exists alone($n,$m)]} {
      connect fresh $ext $parquet
      set alone($n,$m) [answer fresh $sql]
      fresh close
    }
    set got [answer shared $sql]
    incr runs
    if {![alike $got $alone($n,$m)]} {
      incr bad
      puts "Q$n ($m) round $round: [string range $got 0 160] ... alone: [string range $alone($n,$m) 0 160] ..."
    }
  }
}
puts "cross-query: $runs runs on one connection, $bad differ from the query alone"
exit [expr {$bad > 0}]
