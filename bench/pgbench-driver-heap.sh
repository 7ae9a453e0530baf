#!/usr/bin/env bash
# Driver heap at 1024 clients: `bench pgbench run -S -c 1024 -j 8 -T DURATION -P 60` (one thread and one JDBC
# connection per client) in a JVM capped at -Xmx512m, against the embedded PostgreSQL started with
# max_connections=1100 and initialised at -s SCALE by the same command (--init), or against URL. The goal
# (issue: "driver heap flat and under 512 MB with 1024 clients for 10 minutes") is checked from the JVM's GC log
# (-Xlog:gc with uptime: heap used after every pause and the heap committed); `jstat -gc` and the process's RSS
# and thread count are sampled every SAMPLE seconds alongside (jstat reads the JVM's perf counters: no safepoint).
#
# Summary: transactions and tps, GC pauses by kind, heap after GC per minute of the run (min/max), max heap after
# GC, max committed, the least-squares slope of heap after GC over the last 90% of the run (the first 10% is
# warm-up), OutOfMemoryError yes/no, and a verdict. PASS needs all of:
#   - bench exited 0, no OutOfMemoryError (the JVM exits on the first: -XX:+ExitOnOutOfMemoryError), no failed
#     transactions, no Full GC during the run other than System.gc() (a G1 Full GC means the heap ran out of room);
#   - flat: slope <= SLOPE_MAX, default 1 MB/min, i.e. at most 10 MB over a 10-minute run (2% of the heap; a leak
#     of one 100-byte object per transaction at 10 000 tps would be 57 MB/min), from at least 5 pauses;
#   - under 512 MB: max heap after GC during the run <= CEILING_MB, default 90% of HEAP_MB (460 MB): a heap that
#     is nearly full after GC is thrashing even if it has not thrown yet.
# Exit status: 0 PASS, 1 FAIL (or the run failed), 2 bad usage or setup.
# Logs (run.log with seconds since start, gc.log, jstat.log, proc.log, bench's results/, a heap dump on OOM) stay
# in WORK; `--summarise WORK` prints the summary of a finished run again.
#
# usage: bench/pgbench-driver-heap.sh [--summarise WORK]
# env: DURATION (600 s)  CLIENTS (1024)  JOBS (8)  SCALE (10)  PROGRESS (60 s)  SAMPLE (10 s)  HEAP_MB (512)
#      SCRIPT_OPTS ("-S")   workload options for `pgbench run`, e.g. "-b tpcb-like -M prepared"
#      URL          jdbc:postgresql://... to measure a remote server instead (needs max_connections >= CLIENTS + its
#                   reserved and used connections; --init drops and recreates only the pgbench_* tables there)
#      PGUSER, PASSWORD_FILE   user and password file for URL (else PGPASSWORD or ~/.pgpass; never printed)
#      INIT (1)     0: reuse the pgbench_* tables already in URL's database
#      SLOPE_MAX (1 MB/min)  CEILING_MB (90% of HEAP_MB)
#      JAVA_OPTS    extra JVM options (the GC log must keep unified logging's "A->B(C)" pause lines: G1, Parallel, Serial)
#      WORK         directory for the logs (default: a new mktemp -d, kept)
set -euo pipefail

die() { echo "pgbench-driver-heap: $*" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)

param() { sed -n "s/^$1=//p" "$WORK/params" | tail -1; }

# ---- summary of a finished run in $WORK (also used by --summarise)
summarise() {
  local duration heap_mb slope_max ceiling exit_code started
  duration=$(param DURATION); heap_mb=$(param HEAP_MB); slope_max=$(param SLOPE_MAX); ceiling=$(param CEILING_MB)
  exit_code=$(param EXIT); exit_code=${exit_code:-unknown}
  [ -s "$WORK/gc.log" ] || die "no GC log in $WORK"
  # The run's clock starts after server start, init, vacuum, connections and JIT warm-up; its end is when the report's
  # first line appears (run.log holds seconds since the JVM was launched, which JVM uptime matches within ~0.1 s).
  local report_at
  report_at=$(awk -F'\t' '$2 ~ /^transaction type:/ {print $1; exit}' "$WORK/run.log" 2>/dev/null || true)
  local ended_at=${report_at:-$(awk -F'\t' 'END {print $1}' "$WORK/run.log")}
  started=$(awk -v e="$ended_at" -v d="$duration" 'BEGIN {s = e - d; print (s < 0 ? 0 : s)}')

  local processed tps failed oom="no" full_notes=""
  processed=$(awk -F'\t' '$2 ~ /^number of transactions actually processed:/ {sub(/.*: /, "", $2); print $2}' "$WORK/run.log" | tail -1)
  tps=$(awk -F'\t' '$2 ~ /^tps = / {split($2, a, " "); print a[3]}' "$WORK/run.log" | tail -1)
  failed=$(awk -F'\t' '$2 ~ /^number of failed transactions:/ {split($2, a, " "); print a[5]}' "$WORK/run.log" | tail -1)
  if grep -q 'OutOfMemoryError' "$WORK/run.log" 2>/dev/null || [ "$exit_code" = 3 ]; then oom="yes"; fi
  ls "$WORK"/*.hprof > /dev/null 2>&1 && full_notes=" (heap dump: $(ls "$WORK"/*.hprof | head -1))"

  echo
  echo "==== driver heap: $(param CLIENTS) clients, -j $(param JOBS), $duration s, -Xmx${heap_mb}m; $(param TARGET)"
  echo "collector: $(sed -n 's/^\[[^]]*\] Using //p' "$WORK/gc.log" | head -1)   run clock: ${started} s to ${ended_at:-?} s of JVM uptime"
  echo "bench exit status: $exit_code$([ -n "$report_at" ] || echo ' (no report: the run did not finish)')"
  echo "transactions: ${processed:-none reported}   tps: ${tps:-n/a}   failed: ${failed:-n/a}"

  # Heap after GC per pause: G1/Parallel/Serial unified logging, e.g.
  # [12.345s] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 120M->30M(512M) 2.1ms
  awk -v start="$started" -v dur="$duration" -v slope_max="$slope_max" -v ceiling="$ceiling" \
      -v heap="$heap_mb" -v oom="$oom" -v exit_code="$exit_code" -v failed="${failed:-0}" -v have_report="${report_at:+1}" \
      -v jstat="$WORK/jstat.log" -v proc="$WORK/proc.log" -v notes="$full_notes" '
    function mb(x,   u, n) { u = substr(x, length(x)); n = substr(x, 1, length(x) - 1) + 0
      return u == "K" ? n / 1024 : u == "G" ? n * 1024 : u == "B" ? n / 1048576 : n }
    function lsq(n, sx, sy, sxx, sxy) { return (n * sxx - sx * sx) == 0 ? 0 : (n * sxy - sx * sy) / (n * sxx - sx * sx) }
    / Pause / && /->/ {
      t = $1; gsub(/[^0-9.]/, "", t); t += 0
      for (i = 2; i <= NF; i++) if ($i ~ /->.*\(/) { split($i, h, /->|\(|\)/); break }
      after = mb(h[2]); cap = mb(h[3])
      kind = /Pause Young/ ? (/Mixed/ ? "mixed" : "young") : /Pause Full/ ? (/System.gc/ ? "full-System.gc" : "full") : \
             /Pause Remark/ ? "remark" : /Pause Cleanup/ ? "cleanup" : "other"
      if (t < start) { phase = "setup" } else if (t > start + dur) { phase = "after" } else {
        m = int((t - start) / 60) + 1; if (m > int((dur + 59) / 60)) m = int((dur + 59) / 60); if (m > lastmin) lastmin = m; phase = "min " m
        nrun++; kinds[kind]++
        if (after > runmax) runmax = after
        if (kind == "full") fulls++
        if (t >= start + 0.1 * dur) {   # after warm-up: the slope, in MB per minute
          x = (t - start) / 60; n++; sx += x; sy += after; sxx += x * x; sxy += x * after
          if (!(m in fmin) || after < fmin[m]) fmin[m] = after
        }
      }
      total++; if (after > allmax) allmax = after; if (cap > capmax) capmax = cap
      cnt[phase]++; if (!(phase in lo) || after < lo[phase]) lo[phase] = after; if (after > hi[phase]) hi[phase] = after
      if (cap > pcap[phase]) pcap[phase] = cap
    }
    END {
      printf "GC pauses: %d in all, %d during the run (", total, nrun
      sep = ""; for (k in kinds) { printf "%s%s %d", sep, k, kinds[k]; sep = ", " }; print (nrun ? "" : "none") ")"
      print "heap after GC (MB) per minute of the run:"
      printf "  %-8s %6s %8s %8s %10s\n", "", "pauses", "min", "max", "committed"
      if ("setup" in cnt) printf "  %-8s %6d %8.1f %8.1f %10.1f   (server start, init, vacuum, connect, warm-up)\n", "setup", cnt["setup"], lo["setup"], hi["setup"], pcap["setup"]
      for (m = 1; m <= lastmin; m++) { p = "min " m
        if (p in cnt) printf "  %-8s %6d %8.1f %8.1f %10.1f\n", p, cnt[p], lo[p], hi[p], pcap[p]
        else printf "  %-8s %6d %8s %8s %10s\n", p, 0, "-", "-", "-" }
      if ("after" in cnt) printf "  %-8s %6d %8.1f %8.1f %10.1f   (report, results)\n", "after", cnt["after"], lo["after"], hi["after"], pcap["after"]
      # jstat: committed = S0C+S1C+EC+OC (KB); metaspace used MU; /proc: RSS and threads
      while ((getline line < jstat) > 0) { k = split(line, f, " ")
        if (f[1] == "Timestamp") { for (i = 1; i <= k; i++) col[f[i]] = i; continue }
        if (!("OC" in col) || f[1] !~ /^[0-9.]+$/) continue
        c = (f[col["S0C"]] + f[col["S1C"]] + f[col["EC"]] + f[col["OC"]]) / 1024; if (c > capmax_js) capmax_js = c
        u = f[col["MU"]] / 1024; if (u > mumax) mumax = u; js++ }
      while ((getline line < proc) > 0) { split(line, f, " "); if (f[2] > rss) rss = f[2]; if (f[3] > thr) thr = f[3]; ps++ }
      printf "max heap after GC: %.1f MB during the run, %.1f MB overall\n", runmax, allmax
      printf "max heap committed: %.1f MB (GC log)", capmax
      if (js) printf ", %.1f MB (jstat, %d samples); metaspace used max %.1f MB", capmax_js, js, mumax
      print ""
      if (ps) printf "process: max RSS %.0f MB, max threads %d (%d samples)\n", rss / 1024, thr, ps
      slope = lsq(n, sx, sy, sxx, sxy)
      if (n >= 2) printf "heap after GC slope over the last 90%% of the run: %+.2f MB/min from %d pauses (limit %s MB/min)\n", slope, n, slope_max
      else print "heap after GC slope over the last 90% of the run: n/a (" n " pauses)"
      fn = fsx = fsy = fsxx = fsxy = 0
      for (m in fmin) { x = m - 0.5; fn++; fsx += x; fsy += fmin[m]; fsxx += x * x; fsxy += x * fmin[m] }
      if (fn >= 3) printf "  (slope of the per-minute minima: %+.2f MB/min over %d minutes)\n", lsq(fn, fsx, fsy, fsxx, fsxy), fn
      print "OutOfMemoryError: " oom notes
      reason = ""
      if (exit_code != "0") reason = reason "; bench exited with " exit_code
      if (!have_report) reason = reason "; no run report"
      if (oom == "yes") reason = reason "; OutOfMemoryError"
      if (failed + 0 > 0) reason = reason "; " failed " failed transactions"
      if (fulls > 0) reason = reason "; " fulls " Full GC(s) during the run"
      if (n < 5) reason = reason "; only " n " GC pauses after warm-up (need 5 for a slope)"
      else if (slope > slope_max + 0) reason = reason sprintf("; not flat: slope %+.2f MB/min > %s", slope, slope_max)
      if (runmax > ceiling + 0) reason = reason sprintf("; max heap after GC %.1f MB > %s MB", runmax, ceiling)
      if (reason == "") { printf "PASS: flat (slope %+.2f MB/min) and under %d MB (max after GC %.1f MB)\n", slope, heap, runmax; exit 0 }
      print "FAIL: " substr(reason, 3); exit 1
    }' "$WORK/gc.log"
}

if [ "${1:-}" = "--summarise" ]; then
  [ -n "${2:-}" ] && [ -f "$2/params" ] || die "usage: $0 --summarise WORK (a directory this script wrote)"
  WORK=$2; summarise; exit $?
fi
[ $# -eq 0 ] || die "usage: $0 [--summarise WORK]; settings go in the environment (see the header)"

DURATION=${DURATION:-600}
CLIENTS=${CLIENTS:-1024}
JOBS=${JOBS:-8}
SCALE=${SCALE:-10}
PROGRESS=${PROGRESS:-60}
SAMPLE=${SAMPLE:-10}
HEAP_MB=${HEAP_MB:-512}
SCRIPT_OPTS=${SCRIPT_OPTS:--S}
SLOPE_MAX=${SLOPE_MAX:-1}
INIT=${INIT:-1}
for v in DURATION CLIENTS JOBS SCALE PROGRESS SAMPLE HEAP_MB; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, got '${!v}'"
done
# derived from HEAP_MB unless given: HEAP_MB=1 was told "CEILING_MB must be a positive integer, got '0'", never set
if [ -z "${CEILING_MB:-}" ]; then
  CEILING_MB=$((HEAP_MB * 9 / 10))
  [ "$CEILING_MB" -gt 0 ] || die "HEAP_MB $HEAP_MB is too small: the ceiling is 90% of it, $CEILING_MB MB"
fi
[[ "$CEILING_MB" =~ ^[1-9][0-9]*$ ]] || die "CEILING_MB must be a positive integer, got '$CEILING_MB'"
[[ "$SLOPE_MAX" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "SLOPE_MAX must be a number of MB/min, got '$SLOPE_MAX'"
[ -f "$ROOT/bench.jar" ] || die "bench.jar not built (./mvnw -q -DskipTests package)"
command -v jstat > /dev/null || die "jstat not found (a JDK, not a JRE, is needed for the samples)"

if [ -z "${WORK:-}" ]; then WORK=$(mktemp -d /tmp/pgbench-driver-heap.XXXXXX); fi
mkdir -p "$WORK"
[ ! -e "$WORK/params" ] || die "$WORK already holds a run (choose another WORK)"
# a private copy: a rebuild of bench.jar during the run must not change or break what is measured
cp "$ROOT/bench.jar" "$WORK/bench.jar"

# URL as it may be shown: libpq's user:password@ to the last '@' (a password may hold one) and password= masked
masked_url() { printf '%s\n' "$1" | sed -E 's#^([^/]*//[^/:@]*:).*@#\1***@#; s/(password=)[^&]*/\1***/gI'; }
if [ -n "${URL:-}" ]; then
  TARGET_OPTS=(--url "$URL")
  [ -z "${PGUSER:-}" ] || TARGET_OPTS+=(-U "$PGUSER")
  [ -z "${PASSWORD_FILE:-}" ] || TARGET_OPTS+=(--password-file "$PASSWORD_FILE")
  TARGET="remote $(masked_url "$URL")"
else
  # max_connections is postmaster-level: the managed server gets it in kensho.conf before it starts
  TARGET_OPTS=(--set "max_connections=$((CLIENTS + 76))")
  TARGET="embedded PostgreSQL, max_connections=$((CLIENTS + 76))"
fi
INIT_OPTS=()
[ "$INIT" = 0 ] || INIT_OPTS=(--init)
# shellcheck disable=SC2206  # SCRIPT_OPTS and JAVA_OPTS are word lists on purpose
RUN=(java -Xmx${HEAP_MB}m ${JAVA_OPTS:-} "-Xlog:gc:file=$WORK/gc.log:uptime:filecount=0"
     -XX:+ExitOnOutOfMemoryError -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$WORK"
     -jar "$WORK/bench.jar" pgbench run ${SCRIPT_OPTS} -c "$CLIENTS" -j "$JOBS" -T "$DURATION" -P "$PROGRESS"
     -s "$SCALE" "${INIT_OPTS[@]}" "${TARGET_OPTS[@]}" --results "$WORK/results")
{
  echo "DURATION=$DURATION"; echo "CLIENTS=$CLIENTS"; echo "JOBS=$JOBS"; echo "HEAP_MB=$HEAP_MB"
  echo "SLOPE_MAX=$SLOPE_MAX"; echo "CEILING_MB=$CEILING_MB"; echo "TARGET=$TARGET"
} > "$WORK/params"

echo "$(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); target: $TARGET; logs in $WORK"
echo "$(java -version 2>&1 | head -1); $(java -jar "$WORK/bench.jar" --version 2>&1 | head -1)"
SHOWN=("${RUN[@]}")
MASKED_URL=$(masked_url "${URL:-}")   # quoted below: bash 5.2 reads an unquoted '&' there as the URL itself
[ -z "${URL:-}" ] || SHOWN=("${RUN[@]/"$URL"/"$MASKED_URL"}")
echo "running: ${SHOWN[*]}"

# Every output line of the JVM is stamped with seconds since launch (run.log) and shown as it comes.
mkfifo "$WORK/out.fifo"
JPID=""; SAMPLERS=()
stop() {
  if [ -n "$JPID" ]; then   # the JVM's shutdown hook stops the embedded server: wait for it
    kill -TERM "$JPID" 2>/dev/null || true; wait "$JPID" 2>/dev/null || true
  fi
  for p in "${SAMPLERS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -f "$WORK/out.fifo" "$WORK/bench.jar"   # the logs stay; the 80 MB copy need not
}
trap 'stop; exit 130' INT TERM
trap 'stop' EXIT
T0=${EPOCHREALTIME/./}
stamp() {
  local line now
  while IFS= read -r line; do
    now=${EPOCHREALTIME/./}
    printf '%d.%03d\t%s\n' $(((now - T0) / 1000000)) $(((now - T0) / 1000 % 1000)) "$line" >> "$WORK/run.log"
    printf '%s\n' "$line"
  done < "$WORK/out.fifo"
}
stamp & STAMPER=$!
"${RUN[@]}" > "$WORK/out.fifo" 2>&1 &
JPID=$!

# jstat needs the JVM's perf data file, which appears a moment after launch
( for _ in $(seq 1 50); do jstat -gc "$JPID" > /dev/null 2>&1 && break; sleep 0.2; done
  exec jstat -gc -t "$JPID" "${SAMPLE}s" > "$WORK/jstat.log" 2>/dev/null ) & SAMPLERS+=($!)
# RSS and threads of the JVM: "seconds-since-launch rss-KB threads"
( while [ -r "/proc/$JPID/status" ]; do
    now=${EPOCHREALTIME/./}
    awk -v t=$(((now - T0) / 1000000)) '/^VmRSS:/ {r = $2} /^Threads:/ {h = $2} END {if (r) print t, r, h}' "/proc/$JPID/status" 2>/dev/null || true
    sleep "$SAMPLE"
  done >> "$WORK/proc.log" ) & SAMPLERS+=($!)

set +e
wait "$JPID"; EXIT=$?
set -e
JPID=""
wait "$STAMPER" || true
echo "EXIT=$EXIT" >> "$WORK/params"
set +e
summarise; VERDICT=$?
set -e
echo "logs: $WORK"
[ "$EXIT" -eq 0 ] || exit 1
exit "$VERDICT"
