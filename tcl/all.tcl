# all.tcl -- run every tcl/*.test, each in its own tclsh (so that a crash in
# one file cannot take the others down), and print one total line
#
#     tcl: N passed, M failed
#
# which test/run-all.sh adds to its own sum. The per-file summary lines are
# re-printed as "== <file>: N ok, M failed" so that they are not summed twice.
#
# Usage: tclsh tcl/all.tcl [PATTERN...]    (globs on the file name, e.g. golden*)
# Environment: COLUMNAR_EXT (extension path without suffix), COLUMNAR_SHARED,
# TESTER_TIMEOUT (seconds per file, default 1200), TESTER_VERBOSE.

set dir [file dirname [file normalize [info script]]]
set files [lsort [glob -nocomplain -directory $dir *.test]]
if {[llength $argv]} {
    set keep {}
    foreach f $files {
        foreach p $argv { if {[string match $p [file tail $f]]} { lappend keep $f; break } }
    }
    set files $keep
}
set timeout 1200
if {[info exists env(TESTER_TIMEOUT)]} { set timeout $env(TESTER_TIMEOUT) }
set tclsh [info nameofexecutable]
set prefix {}
if {[auto_execok timeout] ne ""} { set prefix [list timeout -k 10 $timeout] }

# Control characters (NULs from blobs) are relayed as \xNN: the log stays text.
set ctlmap {}
for {set c 0} {$c < 32} {incr c} {
    if {$c != 9 && $c != 10} { lappend ctlmap [format %c $c] [format {\x%02x} $c] }
}

set total_pass 0
set total_fail 0
set failed_files {}
foreach f $files {
    set name [file tail $f]
    set t0 [clock milliseconds]
    set rc [catch {exec {*}$prefix $tclsh $f 2>@1} out opts]
    if {$rc} {
        # exec raises on a non-zero exit; the output is still in $out
        # (with "child process exited abnormally" appended).
        regsub {\nchild process exited abnormally$} $out {} out
    }
    set p 0; set m 0; set found 0
    foreach line [split $out "\n"] {
        if {[regexp "^[string map {. \\.} $name]: (\\d+) passed, (\\d+) failed(.*)$" $line -> p m rest]} {
            set found 1
            puts "== $name: $p ok, $m failed$rest ([expr {([clock milliseconds]-$t0)/1000.0}] s)"
        } else {
            puts [string map $ctlmap $line]
        }
    }
    if {!$found} {
        set why [expr {$rc ? [lindex [dict get $opts -errorcode] end] : "no summary line"}]
        puts "== $name: crashed or timed out ($why); counted as 1 failure"
        set p 0; set m 1
    }
    incr total_pass $p
    incr total_fail $m
    if {$m} { lappend failed_files $name }
}
if {[llength $failed_files]} { puts "tcl failing files: [join $failed_files { }]" }
puts "tcl: $total_pass passed, $total_fail failed"
exit [expr {$total_fail ? 1 : 0}]
