# keyrep_cost.tcl -- what following SQLite's key rows costs a group_by (agg/groupby.c,
# GB_KEYREP): the same keys over hits.parquet with and without a min()/max(), and a key
# that is never followed, at threads 1 and 2; best of 5 of CREATE + SELECT count(*).
#
#   tclsh bench/keyrep_cost.tcl [/tmp/hits/10m/hits.parquet] [build/columnar]
package require sqlite3
set pq [expr {[llength $argv] > 0 ? [lindex $argv 0] : "/tmp/hits/10m/hits.parquet"}]
set ext [expr {[llength $argv] > 1 ? [lindex $argv 1] : [file join [file dirname [info script]] .. build columnar]}]
sqlite3 db :memory:
db enable_load_extension 1
db eval {SELECT load_extension($ext)}
db eval "CREATE VIRTUAL TABLE temp.hits USING parquet('[string map {' ''} $pq]')"
set mixed {iif(IsMobile, ResolutionWidth, ResolutionWidth * 1.0)}
set cases [list \
    {not followed (INTEGER key)} ResolutionWidth {count(*), max(ClientIP)} \
    {not followed (no min/max)} $mixed {count(*), sum(ClientIP)} \
    {followed} $mixed {count(*), max(ClientIP)} \
    {followed, DISTINCT} $mixed {count(*), max(DISTINCT ClientIP)}]
foreach th {1 2} {
    foreach {what k a} $cases {
        set best 1e9
        for {set r 0} {$r < 5} {incr r} {
            db eval {DROP TABLE IF EXISTS temp.g}
            set t0 [clock microseconds]
            db eval "CREATE VIRTUAL TABLE temp.g USING group_by(hits, keys='[string map {' ''} $k]', aggregates='$a', threads=$th)"
            set n [db eval {SELECT count(*) FROM g}]
            set t [expr {([clock microseconds] - $t0) / 1e6}]
            if {$t < $best} { set best $t }
        }
        puts [format "threads=%d  %-28s %.3f s  (%d groups; keys %s; %s)" $th $what $best $n $k $a]
    }
}
