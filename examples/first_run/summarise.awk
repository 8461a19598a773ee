# summarise.awk - first_run's numbers: from one run's files to "config run metric value" lines,
# and from many such lines to a table of medians.  POSIX awk (mawk, gawk, busybox).
#
# Extract (one run):  awk -f summarise.awk -v config=NAME -v run=R TRACE.json PROGRAM.out
#   TRACE.json   minicudart's MINICUDART_TRACE=FILE.json output (Chrome trace events, one event
#                per line; only complete events, "ph":"X", are read; ts and dur in us)
#   PROGRAM.out  first_run's stdout ("FIRST_RUN metric us" lines)
#   Either file may be left out.  Without config and run: "-" and 1.
# Table (all runs):   awk -f summarise.awk -v mode=table RAW...
#   prints one column per config (in order of first appearance), one row per metric, each cell
#   the median over the runs; "-" where a config has no value.  Times print as us below 1 ms.
#
# Metrics from the trace (sums over a run, in us): driver_init (and in it, where the trace has
# them: dlopen_driver = "dlopen driver", get_proc = "cuGetProcAddress", cu_init = "cuInit"),
# context, module_load (and the spans nested in it: choose_image, decompress, sass_load = "cuModuleLoadData", jit_ptx =
# "JIT PTX"), kernel_resolve; launch1 and launch2 (the first two "launch" spans by start time);
# launch1_lazy, from the start of the first launch, or of an earlier module load or kernel
# resolve that began after the context was made (lazy loading), to the end of the first launch;
# image (the first module load's
# args.image, spaces as "~").  The program's metrics pass through (see first_run.cu), and
# total = start_to_main + main_to_done1.

# ---- extract --------------------------------------------------------------------------------

# The string value of "key":"..." in line, or "" (the first occurrence: top-level keys come
# before args in the trace's events).
function str_field(line, key,    s) {
    if (!match(line, "\"" key "\"[ ]*:[ ]*\"[^\"]*\""))
        return ""
    s = substr(line, RSTART, RLENGTH)
    sub(/^"[^"]*"[ ]*:[ ]*"/, "", s)
    sub(/"$/, "", s)
    return s
}

# The numeric value of "key":number in line, or "" when absent.
function num_field(line, key,    s) {
    if (!match(line, "\"" key "\"[ ]*:[ ]*-?[0-9][0-9.eE+-]*"))
        return ""
    s = substr(line, RSTART, RLENGTH)
    sub(/^"[^"]*"[ ]*:[ ]*/, "", s)
    return s + 0
}

function span_metric(name) {
    if (name == "driver init") return "driver_init"
    if (name == "dlopen driver") return "dlopen_driver"
    if (name == "cuGetProcAddress") return "get_proc"
    if (name == "cuInit") return "cu_init"
    if (name == "context") return "context"
    if (name == "module load") return "module_load"
    if (name == "choose image") return "choose_image"
    if (name == "decompress") return "decompress"
    if (name == "cuModuleLoadData") return "sass_load"
    if (name == "JIT PTX") return "jit_ptx"
    if (name == "kernel resolve") return "kernel_resolve"
    return ""
}

mode != "table" && /^FIRST_RUN / { prog[$2] = $3; next }

mode != "table" && /"ph"[ ]*:[ ]*"X"/ {
    name = str_field($0, "name"); ts = num_field($0, "ts"); dur = num_field($0, "dur")
    if (ts == "" || dur == "")
        next
    if (name == "launch") {
        nl++; lts[nl] = ts; ldur[nl] = dur
        next
    }
    m = span_metric(name)
    if (m == "")
        next
    sum[m] += dur; seen[m] = 1
    if (m == "context" && ts + dur > ctx_end)
        ctx_end = ts + dur
    if (m == "module_load" || m == "kernel_resolve") {  # candidates for the lazy load's start
        nload++; load_ts[nload] = ts
    }
    if (m == "module_load" && image == "") {
        image = str_field($0, "image")
        gsub(/ /, "~", image)
    }
    next
}

# ---- table ----------------------------------------------------------------------------------

mode == "table" && NF >= 4 {
    if (!(($1) in cfg_seen)) { cfg_seen[$1] = 1; ncfg++; cfgs[ncfg] = $1 }
    if (!(($1, $2) in run_seen)) { run_seen[$1, $2] = 1; runs[$1]++ }
    if ($3 == "image") { img[$1] = $4; next }
    n = ++cnt[$1, $3]; val[$1, $3, n] = $4 + 0
}

function median(c, m,    n, i, j, v, t) {
    n = cnt[c, m]
    for (i = 1; i <= n; i++) v[i] = val[c, m, i]
    for (i = 2; i <= n; i++)  # insertion sort: a handful of runs
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

function fmt(us) {
    if (us >= 1000) return sprintf("%.2f ms", us / 1000)
    return sprintf("%.1f us", us)
}

function title(c) {
    if (c == "sass") return "SASS"
    if (c == "ptx_nocache") return "PTX, cache off"
    if (c == "ptx_cache") return "PTX, cache on"
    return c
}

function row(label, m,    i, c, line) {
    line = sprintf("%-46s", label)
    for (i = 1; i <= ncfg; i++) {
        c = cfgs[i]
        line = line sprintf(" %15s", cnt[c, m] ? fmt(median(c, m)) : "-")
    }
    print line
}

function print_table(    i, line, c) {
    line = "first_run: medians over fresh processes, runs per configuration:"
    for (i = 1; i <= ncfg; i++) line = line sprintf(" %s %d", cfgs[i], runs[cfgs[i]])
    print line
    line = sprintf("%-46s", "")
    for (i = 1; i <= ncfg; i++) line = line sprintf(" %15s", title(cfgs[i]))
    print line
    line = sprintf("%-46s", "image loaded (trace)")
    for (i = 1; i <= ncfg; i++) {
        c = cfgs[i]
        line = line sprintf(" %15s", (c in img) ? img[c] : "-")
    }
    gsub(/~/, " ", line)
    print line
    row("process start -> main (exec, ld.so, ctors)", "start_to_main")
    row("first CUDA call: cudaGetDeviceCount", "device_count")
    row("  driver init (trace)", "driver_init")
    row("    dlopen libcuda", "dlopen_driver")
    row("    cuGetProcAddress (every entry point)", "get_proc")
    row("    cuInit", "cu_init")
    row("first cudaMalloc", "malloc")
    row("  context (trace)", "context")
    row("first launch: <<<>>> returns", "launch1_call")
    row("  module load (trace)", "module_load")
    row("    choose image", "choose_image")
    row("    decompress", "decompress")
    row("    cuModuleLoadData (SASS)", "sass_load")
    row("    JIT PTX", "jit_ptx")
    row("  kernel resolve (trace)", "kernel_resolve")
    row("  launch span (trace)", "launch1")
    row("  launch incl. lazy load (trace)", "launch1_lazy")
    row("first launch -> kernel done (sync)", "launch1_done")
    row("second launch: <<<>>> returns", "launch2_call")
    row("  launch span (trace)", "launch2")
    row("second launch -> kernel done (sync)", "launch2_done")
    row("main -> first kernel done", "main_to_done1")
    row("TOTAL: process start -> first kernel done", "total")
}

END {
    if (mode == "table") {
        print_table()
        exit
    }
    if (config == "") config = "-"
    if (run == "") run = 1
    for (m in prog) printf "%s %s %s %.3f\n", config, run, m, prog[m]
    if (("start_to_main" in prog) && ("main_to_done1" in prog))
        printf "%s %s total %.3f\n", config, run, prog["start_to_main"] + prog["main_to_done1"]
    for (m in seen) printf "%s %s %s %.3f\n", config, run, m, sum[m]
    if (image != "") print config, run, "image", image
    if (nl == 0) exit
    first = 1; second = 0  # the launches by start time: the trace writes a span when it ends
    for (i = 2; i <= nl; i++) if (lts[i] < lts[first]) first = i
    for (i = 1; i <= nl; i++) if (i != first && (second == 0 || lts[i] < lts[second])) second = i
    printf "%s %s launch1 %.3f\n", config, run, ldur[first]
    if (second) printf "%s %s launch2 %.3f\n", config, run, ldur[second]
    end1 = lts[first] + ldur[first]; start1 = lts[first]
    for (i = 1; i <= nload; i++)  # not an eager load, made with the context
        if (load_ts[i] < start1 && load_ts[i] >= ctx_end) start1 = load_ts[i]
    printf "%s %s launch1_lazy %.3f\n", config, run, end1 - start1
}
