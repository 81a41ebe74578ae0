# golden_lib.tcl -- compare a parquet virtual table with a golden .jsonl file.
#
# The golden format is described in
# shared/testdata/parquet-testing/README.golden.md: one JSON object per row,
# keys = top-level column names, values written so that they can be rebuilt
# from the SQLite value alone. This file rebuilds each of our rows in that
# form (its own implementation of the rules of tools/golden_row.tcl) and
# compares the lines as text. Where a line differs, the fields are compared
# one by one, and the differences DESIGN.md documents are accepted and counted:
#
#   nan      golden "NaN" (top level, or inside JSON) -- ours NULL
#   real     golden exact DECIMAL text or a UINT64 above INT64_MAX -- ours the
#            nearest REAL (same %.17g text after `expr double`)
#
# Used by golden.test (the parquet-testing corpus) and fixtures.test (our own
# files in test/data/parquet). Both run each Parquet file as one test, in a
# worker tclsh, so that a crash names its file and the run goes on:
#
#     golden::drive SCRIPT NCASES   -- in the test: returns {n {status detail}}
#     golden::worker START NCASES CMD  -- in the worker (SCRIPT --worker START)
#
# A case command returns {status detail counts}: status is one of
# match (byte-identical), mapped (equal up to the mappings above), mismatch,
# error (the table or query failed), ok (a no-golden file read or failed
# cleanly), known (a documented, out-of-scope difference).

namespace eval golden {
    variable case_timeout 300   ;# seconds one file may take in a worker
    if {[info exists ::env(GOLDEN_CASE_TIMEOUT)]} { set case_timeout $::env(GOLDEN_CASE_TIMEOUT) }
}

# ---------------------------------------------------------------- rendering
# JSON string as SQLite's json_quote() writes valid text.
proc golden::jstr {s} {
    set s [string map {\\ \\\\ \" \\\" \b \\b \f \\f \n \\n \r \\r \t \\t} $s]
    if {[regexp {[\x00-\x1f]} $s]} {
        set out ""
        foreach ch [split $s ""] {
            scan $ch %c c
            append out [expr {$c < 0x20 ? [format "\\u%04x" $c] : $ch}]
        }
        set s $out
    }
    return "\"$s\""
}

# One SQLite value (its typeof() and Tcl value) in golden text.
proc golden::scalar {type v} {
    switch -- $type {
        null    { return null }
        integer { return $v }
        real {
            if {$v eq "Inf"}  { return {"Infinity"} }
            if {$v eq "-Inf"} { return {"-Infinity"} }
            if {$v eq "NaN"}  { return {"NaN"} }
            return [format %.17g $v]
        }
        text    { return [golden::jstr $v] }
        blob    { binary scan $v H* h; return "\"X'[string toupper $h]'\"" }
    }
    error "golden::scalar: unknown SQLite type $type"
}

proc golden::ident {n} { return "\"[string map {\" \"\"} $n]\"" }

# ---------------------------------------------------------------- splitting
# Split a one-line JSON object into {key value key value ...}, both as raw
# JSON text (the key still quoted). Only the top level is split.
proc golden::split_object {line} {
    set out {}
    set n [string length $line]
    if {[string index $line 0] ne "\{"} { return -code error "not an object: $line" }
    set i 1
    set depth 0
    set start 1
    set instr 0
    set key ""
    for {} {$i < $n} {incr i} {
        set c [string index $line $i]
        if {$instr} {
            if {$c eq "\\"} { incr i } elseif {$c eq "\""} { set instr 0 }
            continue
        }
        switch -- $c {
            "\"" { set instr 1 }
            "\{" - "\[" { incr depth }
            "\]" { incr depth -1 }
            "\}" {
                if {$depth == 0} {
                    if {$key ne ""} { lappend out $key [string range $line $start [expr {$i-1}]] }
                    return $out
                }
                incr depth -1
            }
            ":" { if {$depth == 0 && $key eq ""} { set key [string range $line $start [expr {$i-1}]]; set start [expr {$i+1}] } }
            "," {
                if {$depth == 0} {
                    lappend out $key [string range $line $start [expr {$i-1}]]
                    set key ""
                    set start [expr {$i+1}]
                }
            }
        }
    }
    return -code error "unterminated object: $line"
}

# The golden line cut to columns COLS (0-based indexes), in that order.
proc golden::project {line cols} {
    set f [golden::split_object $line]
    set parts {}
    foreach c $cols { lappend parts "[lindex $f [expr {2*$c}]]:[lindex $f [expr {2*$c+1}]]" }
    return "\{[join $parts ,]\}"
}

# ---------------------------------------------------------------- field rules
# Is $g (golden) equal to $o (ours) up to a documented mapping? Returns
# "" (no), "nan" or "real". $dtype is the column's DuckDB type.
proc golden::field_mapped {g o kind dtype} {
    if {$g eq {"NaN"} && $o eq "null"} { return nan }
    if {$kind eq "json"} {
        if {[string first {"NaN"} $g] >= 0} {
            set g2 [string map {{"NaN"} null} $g]
            if {$g2 eq $o} { return nan }
        }
        return ""
    }
    # DECIMAL as REAL (default mapping) or INTEGER (scale 0 that fits)
    if {[string match DECIMAL* $dtype] && [regexp {^"(-?[0-9]+(\.[0-9]+)?)"$} $g -> dec]
        && [string is double -strict $o]} {
        if {[format %.17g [expr {double($dec)}]] eq [format %.17g [expr {double($o)}]]} { return real }
    }
    # UINT64 above INT64_MAX as REAL
    if {$dtype eq "UBIGINT" && [regexp {^[0-9]+$} $g] && [string is double -strict $o] && $g > 9223372036854775807} {
        if {[format %.17g [expr {double($g)}]] eq [format %.17g $o]} { return real }
    }
    return ""
}

# ---------------------------------------------------------------- comparison
# Compare table TABLE (in db handle DB) with GOLDEN (a .jsonl file).
#   kinds:   one per column, "scalar" or "json" (LIST/STRUCT/MAP/VARIANT)
#   dtypes:  one DuckDB type per column (for the mapping rules), may be empty
#   known:   dict row-number -> reason: rows whose difference is documented
# Returns {status detail counts}; counts is a dict rows/nan/real/known.
#   cols:    if not empty, compare only these columns (0-based indexes, in
#            this order): a projection; the golden lines are cut to match
proc golden::compare_table {DB table golden kinds dtypes {known {}} {cols {}}} {
    set names {}
    $DB eval "PRAGMA temp.table_info([golden::ident $table])" r { lappend names $r(name) }
    if {![llength $names]} {
        $DB eval "PRAGMA table_info([golden::ident $table])" r { lappend names $r(name) }
    }
    # our column names may carry hidden columns after the file's columns
    set ncol [llength $kinds]
    if {$ncol && [llength $names] > $ncol} { set names [lrange $names 0 $ncol-1] }
    if {[llength $cols]} {
        set n2 {}; set k2 {}; set d2 {}
        foreach c $cols { lappend n2 [lindex $names $c]; lappend k2 [lindex $kinds $c]; lappend d2 [lindex $dtypes $c] }
        set names $n2; set kinds $k2; set dtypes $d2
    }
    set sel {}
    set i 0
    foreach n $names {
        set q [golden::ident $n]
        lappend sel "typeof($q) AS t$i" "$q AS v$i"
        if {[lindex $kinds $i] eq "json"} {
            lappend sel "CASE WHEN typeof($q)='text' AND json_valid($q) THEN json($q) END AS j$i"
        }
        incr i
    }
    set jnames {}
    foreach n $names { lappend jnames [golden::jstr $n] }

    set h [open $golden r]
    fconfigure $h -encoding utf-8 -translation lf
    set counts [dict create rows 0 nan 0 real 0 known 0]
    set nbad 0
    set detail ""
    set row 0
    set extra 0
    set sql "SELECT [join $sel ,] FROM [golden::ident $table]"
    set rc [catch {
        $DB eval $sql vals {
            incr row
            set fields {}
            set i 0
            foreach n $names {
                set t $vals(t$i)
                set v $vals(v$i)
                if {[lindex $kinds $i] eq "json" && $t eq "text"} {
                    set j $vals(j$i)
                    if {$j eq ""} { set f "INVALID-JSON[golden::jstr $v]" } else { set f $j }
                } else {
                    set f [golden::scalar $t $v]
                }
                lappend fields $f
                incr i
            }
            if {[gets $h gline] < 0} { incr extra; continue }
            if {[llength $cols]} { set gline [golden::project $gline $cols] }
            set parts {}
            foreach jn $jnames f $fields { lappend parts "$jn:$f" }
            set oline "\{[join $parts ,]\}"
            if {$oline eq $gline} continue
            # field by field
            set gfields [golden::split_object $gline]
            set bad {}
            set maps {}
            if {[llength $gfields] != 2*[llength $names]} {
                lappend bad "columns: golden has [expr {[llength $gfields]/2}], ours [llength $names]"
            } else {
                set i 0
                foreach {gk gv} $gfields jn $jnames f $fields {
                    if {$gk ne $jn} { lappend bad "column [expr {$i+1}] name: golden $gk ours $jn" }
                    if {$gv ne $f} {
                        set m [golden::field_mapped $gv $f [lindex $kinds $i] [lindex $dtypes $i]]
                        if {$m eq ""} {
                            lappend bad "$gk: golden [string range $gv 0 300] ours [string range $f 0 300]"
                        } else {
                            lappend maps $m
                        }
                    }
                    incr i
                }
            }
            if {[llength $bad]} {
                if {[dict exists $known $row]} {
                    dict incr counts known
                    append detail "row $row: known ([dict get $known $row]): [join $bad {; }]\n"
                    continue
                }
                incr nbad
                if {$nbad <= 3} { append detail "row $row: [join $bad {; }]\n" }
            } else {
                foreach m $maps { dict incr counts $m }
            }
        }
    } err]
    set missing 0
    while {[gets $h gline] >= 0} { incr missing }
    close $h
    dict set counts rows $row
    if {$rc} {
        return [list error "query failed after $row rows: $err" $counts]
    }
    if {$extra} { incr nbad; append detail "ours has $extra more rows than the golden file\n" }
    if {$missing} { incr nbad; append detail "ours has $missing fewer rows than the golden file ($row read)\n" }
    if {$nbad} {
        if {$nbad > 3} { append detail "... [expr {$nbad}] mismatching rows in all\n" }
        return [list mismatch [string trimright $detail] $counts]
    }
    if {[dict get $counts known]} { return [list known [string trimright $detail] $counts] }
    if {[dict get $counts nan] || [dict get $counts real]} {
        return [list mapped "" $counts]
    }
    return [list match "" $counts]
}

# Kind of a column from its DuckDB type: json for nested types.
proc golden::kind_of {dtype} {
    if {[regexp {^(STRUCT|MAP|UNION|VARIANT)\y|\]$} $dtype]} { return json }
    return scalar
}

# ---------------------------------------------------------------- isolation
# Worker side: run cases START..NCASES, printing "BEGIN n" and "END n {result}"
# (result with newlines escaped) for each.
proc golden::worker {start ncases cmd} {
    fconfigure stdout -buffering line
    for {set n $start} {$n <= $ncases} {incr n} {
        puts "BEGIN $n"
        if {[catch {{*}$cmd $n} res]} { set res [list error "tcl error: $res" {}] }
        puts "END $n [string map [list \\ \\\\ \n \\n \r \\r] $res]"
    }
    puts "DONE"
}

# Driver side: run SCRIPT --worker START in a child tclsh, restarting after a
# crash. Returns a dict n -> {status detail counts}.
proc golden::drive {script ncases args} {
    variable case_timeout
    set results [dict create]
    set start 1
    while {$start <= $ncases} {
        set cmd [list | [info nameofexecutable] $script --worker $start {*}$args 2>@1]
        set ch [open $cmd r]
        fconfigure $ch -encoding utf-8 -translation lf -blocking 0
        set cur ""
        set tail {}
        set ::golden::done 0
        set ::golden::line_ch $ch
        fileevent $ch readable [list set ::golden::readable 1]
        set deadline [expr {[clock seconds] + $case_timeout}]
        set timedout 0
        while 1 {
            set got [gets $ch line]
            if {$got < 0} {
                if {[eof $ch]} break
                if {[clock seconds] > $deadline} { set timedout 1; break }
                set ::golden::readable 0
                set id [after 1000 [list set ::golden::readable 1]]
                vwait ::golden::readable
                after cancel $id
                continue
            }
            if {[regexp {^BEGIN (\d+)$} $line -> n]} {
                set cur $n; set tail {}
                set deadline [expr {[clock seconds] + $case_timeout}]
            } elseif {[regexp {^END (\d+) (.*)$} $line -> n res]} {
                dict set results $n [string map [list \\\\ \\ \\n \n \\r \r] $res]
                set cur ""
            } elseif {$line eq "DONE"} {
                set cur ""
            } else {
                lappend tail $line
                if {[llength $tail] > 40} { set tail [lrange $tail end-39 end] }
            }
        }
        if {$timedout} {
            foreach pid [pid $ch] { catch {exec kill -9 $pid} }
        }
        catch {close $ch}
        if {$cur eq ""} break
        set why [expr {$timedout ? "timed out after $case_timeout s" : "worker crashed"}]
        dict set results $cur [list crash "$why\n[join $tail \n]" {}]
        set start [expr {$cur + 1}]
    }
    return $results
}
