# plot.gp - draws launch_cost's CSV: time per step against N (log-log) for each way of running
# N small steps, next to the host's enqueue time per step.
#
# usage: gnuplot -e "csv='launch_cost.csv'; png='launch_cost.png'" examples/launch_cost/plot.gp
#        (both variables optional; these are the defaults)
# Needs gnuplot 5 with the pngcairo or png terminal (Debian/Ubuntu: apt-get install gnuplot-nox).

if (!exists("csv")) csv = "launch_cost.csv"
if (!exists("png")) png = "launch_cost.png"

set datafile separator ","
# Columns: 1 variant, 2 n, 3 reps, 4 enqueue_us, 5 wall_us, 6 per_step_us, 7 wall_min_us,
# 8 wall_max_us, 9 capture_us, 10 instantiate_us, 11 verified.
is(v) = strcol(1) eq v
pick(v, x) = is(v) ? x : NaN

# The one-row baselines, as horizontal lines.
stats csv skip 1 using (pick("kernel_time", $5)) nooutput
kernel_us = STATS_max
stats csv skip 1 using (pick("empty_latency", $5)) nooutput
empty_us = STATS_max
stats csv skip 1 using (pick("empty_enqueue", $4)) nooutput
enqueue_us = STATS_max

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,640 font ",10"
} else {
    set terminal png size 1400,640
}
set output png

set logscale xy
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set xlabel "N (steps)"
set format y "%g"
set key below center vertical maxrows 4 width 1
set style data linespoints
# One colour and point per variant, the same in both panels.
set linetype 1 lc rgb "#7b2cbf" pt 7 lw 2   # launches
set linetype 2 lc rgb "#009e73" pt 5 lw 2   # graph
set linetype 3 lc rgb "#e69f00" pt 9 lw 2   # fused
set linetype 4 lc rgb "#0072b2" pt 11 lw 2  # persistent
set multiplot layout 1,2 title "launch\\_cost: N dependent small steps through minicudart"

set title "time per step, launch to done (medians)"
set ylabel "us per step"
plot csv skip 1 using 2:(pick("launches", $6)) title "launches, one by one" lt 1, \
     ""  skip 1 using 2:(pick("graph", $6)) title "graph replay" lt 2, \
     ""  skip 1 using 2:(pick("graph", ($5 + $9 + $10) / $2)) \
         title "graph, capture + instantiate + one replay" lt 2 pt 4 lw 1 dt 3, \
     ""  skip 1 using 2:(pick("fused", $6)) title "fused kernel" lt 3, \
     ""  skip 1 using 2:(pick("persistent", $6)) title "persistent kernel + queue" lt 4, \
     kernel_us with lines dt 2 lc rgb "#555555" title sprintf("one step's kernel time (%.2f us)", kernel_us), \
     empty_us with lines dt 4 lc rgb "#999999" title sprintf("empty kernel launch to sync (%.2f us)", empty_us)

set title "host time to hand over the N steps, per step"
set ylabel "us per step (enqueue)"
plot csv skip 1 using 2:(pick("launches", $4 / $2)) title "launches, one by one" lt 1, \
     ""  skip 1 using 2:(pick("graph", $4 / $2)) title "graph replay (cudaGraphLaunch)" lt 2, \
     ""  skip 1 using 2:(pick("fused", $4 / $2)) title "fused kernel (one launch)" lt 3, \
     ""  skip 1 using 2:(pick("persistent", $4 / $2)) title "persistent: writing the items" lt 4, \
     enqueue_us with lines dt 2 lc rgb "#555555" title sprintf("empty kernel enqueue (%.2f us)", enqueue_us)

unset multiplot
