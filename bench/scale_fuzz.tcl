# scale_fuzz.tcl -- random group_bys over the bench's 10M-row file: threads=2 with radix=auto, on and
# off against threads=1, compared as whole answers (every row, REALs to 11 significant digits). The
# unit and Tcl tests run on small fixtures; this reaches what only sizes bring (tables past 2 MiB
# blocks, radix splits, key heaps over many slabs, lanes that steal). Not part of `make bench`.
#
#   tclsh bench/scale_fuzz.tcl EXT PARQUET [CASES [SEED]]
#
# e.g. tclsh bench/scale_fuzz.tcl build/columnar.so /tmp/hits/10m/hits.parquet 60 2
# Cases whose answer passes 3M groups are skipped (comparing them costs more than they add), as are
# key and aggregate lists that repeat a term. Prints "N cases, M differ" last; exits 1 when M > 0.
package require sqlite3
lassign $argv ext parquet n seed
if {$n eq ""} { set n 40 }
if {$seed eq ""} { set seed 1 }
expr {srand($seed)}
sqlite3 db :memory:
db enable_load_extension 1
db eval "SELECT load_extension('[file rootname $ext]')"
db eval "CREATE VIRTUAL TABLE temp.hits USING parquet('[string map {' ''} $parquet]')"
set keys {UserID SearchPhrase URL RegionID ClientIP MobilePhoneModel EventDate EventTime
  {strftime('%H', EventTime)} {ClientIP % 1000} {length(URL)} CounterID SearchEngineID AdvEngineID
  TraficSourceID {substr(Referer, 1, 12)} IsRefresh ResolutionWidth WatchID {lower(MobilePhoneModel)} Title}
set aggs {{count(*)} {sum(ResolutionWidth)} {min(URL)} {max(SearchPhrase)} {avg(ResolutionWidth)}
  {total(IsRefresh)} {count(DISTINCT UserID)} {count(DISTINCT SearchPhrase)} {any_value(RegionID)}
  {min(EventTime)} {max(ClientIP)} {sum(UserID % 1000)} {count(SearchPhrase)} {min(WatchID)}
  {max(length(Title))} {count(DISTINCT RegionID)} {group_concat(SearchEngineID, '')}
  {sum(DISTINCT AdvEngineID)} {avg(DISTINCT ResolutionWidth)} {count(*) FILTER (WHERE IsRefresh = 1)}
  {max(URL) FILTER (WHERE SearchPhrase <> '')}}
set filters {{} {SearchPhrase <> ''} {CounterID = 62} {RegionID < 100} {URL LIKE '%google%'}
  {IsRefresh = 0 AND ResolutionWidth > 1000} {MobilePhoneModel <> ''} {EventDate >= '2013-07-15'}
  {UserID % 7 = 0}}
proc pick {l} { lindex $l [expr {int(rand()*[llength $l])}] }
# The answer as its row count and its rows sorted, each row one text.
proc answer {sql} {
  set rc [catch {
    db eval $sql
    set cols [db eval {SELECT name FROM pragma_table_info('g')}]
    set ex [join [lmap c $cols { string cat "CASE typeof(\"$c\") WHEN 'real' THEN printf('%.10e', \"$c\") ELSE quote(\"$c\") END" }] " || '|' || "]
    set r [list [db eval "SELECT count(*) FROM g"] [db eval "SELECT group_concat(x, ';') FROM (SELECT $ex AS x FROM g ORDER BY 1)"]]
  } msg]
  catch {db eval {DROP TABLE temp.g}}
  if {$rc} { return [list ERR $msg] }
  return $r
}
set bad 0; set done 0
for {set i 0} {$i < $n} {incr i} {
  set ks {}; for {set j [expr {int(rand()*3)}]} {$j > 0} {incr j -1} { lappend ks [pick $keys] }
  set as {}; for {set j [expr {1 + int(rand()*3)}]} {$j > 0} {incr j -1} { lappend as [pick $aggs] }
  set f [pick $filters]
  if {[llength [lsort -unique $ks]] < [llength $ks] || [llength [lsort -unique $as]] < [llength $as]} continue
  set spec "keys='[string map {' ''} [join $ks {, }]]', aggregates='[string map {' ''} [join $as {, }]]'"
  if {$f ne ""} { append spec ", filter='[string map {' ''} $f]'" }
  set t0 [clock milliseconds]
  set ref [answer "CREATE VIRTUAL TABLE temp.g USING group_by(hits, threads=1, $spec)"]
  set ms [expr {[clock milliseconds] - $t0}]
  if {[lindex $ref 0] eq "ERR" || [lindex $ref 0] > 3000000} { puts "skip $i: [string range $ref 0 100] ($spec)"; continue }
  foreach m {{} {radix=on,} {radix=off,}} {
    set got [answer "CREATE VIRTUAL TABLE temp.g USING group_by(hits, threads=2, $m $spec)"]
    if {$got ne $ref} {
      incr bad
      puts "DIFF $i ($m): $spec\n   threads=1: [string range $ref 0 300]\n   threads=2: [string range $got 0 300]"
    }
  }
  incr done
  puts "ok $i: [lindex $ref 0] groups, ${ms} ms at threads=1: $spec"
  flush stdout
}
puts "$done cases, $bad differ"
exit [expr {$bad > 0}]
