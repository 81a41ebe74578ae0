# radix_probe.tcl EXT PARQUET COLUMN OUT — write COLUMN of PARQUET as
# little-endian int64s to OUT, the input bench/radix_probe.c reads.
#   tclsh bench/radix_probe.tcl build/columnar /tmp/hits/10m/hits.parquet ClientIP /tmp/clientip.bin
lassign $argv ext file col out
package require sqlite3
sqlite3 db :memory:
db enable_load_extension 1
db eval {SELECT load_extension($ext)}
db eval "CREATE VIRTUAL TABLE temp.t USING parquet('[string map {' ''} $file]')"
set f [open $out wb]
set buf {}
set n 0
db eval "SELECT \"$col\" AS v FROM t" {
  append buf [binary format w [expr {$v eq "" ? 0 : $v}]]
  if {[incr n] % 65536 == 0} { puts -nonewline $f $buf; set buf {} }
}
puts -nonewline $f $buf
close $f
puts "$n rows of $col -> $out"
