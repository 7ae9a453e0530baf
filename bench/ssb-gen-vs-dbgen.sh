#!/usr/bin/env bash
# Side by side on this machine: ssb-dbgen (`TZ=UTC dbgen -s SF`, single-threaded, all five tables in one process)
# vs Kensho's generator (dev.kensho.ssb.gen.GenerateFiles = what `bench ssb gen -s SF --out DIR` runs), run
# alternately RUNS times each into fresh empty directories (who goes first alternates: ABBA). Prints every wall time, the medians and the ratio
# kensho/dbgen (goal at SF 1: <= 0.5), and checks that both tools' five .tbl files have identical md5s, and at
# SF 1 / 0.1 that they equal the reference digests of ../shared/ssb-reference/tables-sf*.txt.
#
# usage: bench/ssb-gen-vs-dbgen.sh [DBGEN_BINARY] [SF=1] [RUNS=3]
#   DBGEN_BINARY  dbgen built from eyalroz/ssb-dbgen @ ae1e254 (built by you under /tmp; never committed here);
#                 default /tmp/ssb-dbgen/build/dbgen, which these commands build (a C compiler and CMake):
#                   git clone https://github.com/eyalroz/ssb-dbgen /tmp/ssb-dbgen && git -C /tmp/ssb-dbgen checkout ae1e254
#                   cmake -S /tmp/ssb-dbgen -B /tmp/ssb-dbgen/build && cmake --build /tmp/ssb-dbgen/build
#                 Its dists.dss is taken from the binary's directory or its parent (CMake build dir), or from $DBGEN_DISTS.
# env: THREADS      generator threads (default: nproc)
#      KENSHO_CP    classpath for the generator (default: bench.jar at the repository root, else
#                   bench-ssb/target/classes from ./mvnw -q -pl bench-ssb -am compile);
#                   copied privately first, so a rebuild during the run cannot change or break what is measured
#      WORK         scratch directory (default: a new mktemp -d, removed at exit); needs ~1.3 GB at SF 1
#      JAVA         java binary (default: java)
set -euo pipefail

die() { echo "ssb-gen-vs-dbgen: $*" >&2; exit 2; }

[ $# -le 3 ] || die "usage: $0 [DBGEN_BINARY] [SF=1] [RUNS=3]"
DBGEN=${1:-/tmp/ssb-dbgen/build/dbgen}
SF=${2:-1}
RUNS=${3:-3}
[ -x "$DBGEN" ] && [ -f "$DBGEN" ] || die "no dbgen at $DBGEN: build eyalroz/ssb-dbgen @ ae1e254 as the header of $0 shows, or pass its binary as first argument"
DBGEN=$(readlink -f "$DBGEN")
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ "$SF" =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="$SF" 'BEGIN {exit !(s > 0)}' || die "SF must be a positive number, got '$SF'"
DISTS=${DBGEN_DISTS:-$(dirname "$DBGEN")/dists.dss}
[ -f "$DISTS" ] || [ -n "${DBGEN_DISTS:-}" ] || DISTS=$(dirname "$(dirname "$DBGEN")")/dists.dss  # CMake build dir
[ -f "$DISTS" ] || die "dists.dss not found at $DISTS (set DBGEN_DISTS)"
DISTS=$(readlink -f "$DISTS")

ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${KENSHO_CP:-}" ]; then
  for c in "$ROOT/bench.jar" "$ROOT/bench-ssb/target/classes"; do
    if [ -e "$c" ]; then KENSHO_CP=$c; break; fi
  done
fi
[ -n "${KENSHO_CP:-}" ] && [ -e "${KENSHO_CP%%:*}" ] || die "generator classes not found (./mvnw -q -DskipTests package, or ./mvnw -q -pl bench-ssb -am compile)"
JAVA=${JAVA:-java}
THREADS=${THREADS:-$(nproc)}

OWN_WORK=0
if [ -z "${WORK:-}" ]; then WORK=$(mktemp -d /tmp/ssb-gen-vs-dbgen.XXXXXX); OWN_WORK=1; fi
cleanup() {
  if [ "$OWN_WORK" = 1 ]; then rm -rf "$WORK"; else rm -rf "$WORK/dbgen" "$WORK/kensho" "$WORK/cp"; fi
}
trap cleanup EXIT
mkdir -p "$WORK/cp"
# Private copy of the generator's classpath entries (other builds in this tree may rewrite them mid-run).
PRIVATE_CP=""
IFS=: read -r -a CP_PARTS <<< "$KENSHO_CP"
for i in "${!CP_PARTS[@]}"; do
  cp -r "${CP_PARTS[$i]}" "$WORK/cp/$i"
  PRIVATE_CP="${PRIVATE_CP:+$PRIVATE_CP:}$WORK/cp/$i"
done
KENSHO_SRC=$KENSHO_CP; KENSHO_CP=$PRIVATE_CP

TABLES="part supplier customer date lineorder"
# Primary reference digests (eyalroz/ssb-dbgen ae1e254, TZ=UTC, one process), from ../shared/ssb-reference/.
declare -A REF=()   # assigned: under set -u an empty one without "=()" is unbound (SF 0.01 stopped there)
case "$SF" in
  1|1.0) REF=([part]=165f23e401293d995c7b57ef12bfb4e6 [supplier]=acb3f531fe0264a598a7b2410fe7f5cf
              [customer]=f7fb08c2aa4059d328e98d4020fb80d1 [date]=9fa606e030772339be7845a93e30922c
              [lineorder]=c059a2399a7cdc5423cec73e334acec8) ;;
  0.1)   REF=([part]=61fcafdc115d9d9732474cb8c6c42cdd [supplier]=faf888f9ea5b353fcd0e749d522b3bf0
              [customer]=a350472fc3e368f0be8ad524d61932a9 [date]=40c20a029babac251a8e1accf7200a7a
              [lineorder]=506c4017655f94e9a93c112f285844de) ;;
esac

now() { date +%s.%N; }
digests() { (cd "$1" && for t in $TABLES; do printf '%s %s\n' "$t" "$(md5sum < "$t.tbl" | cut -d' ' -f1)"; done); }

run_dbgen() {  # $1 = empty output dir; dbgen writes into its working directory
  (cd "$1" && TZ=UTC "$DBGEN" -s "$SF" -b "$DISTS" > dbgen.log 2>&1) || { cat "$1/dbgen.log" >&2; die "dbgen failed"; }
  rm -f "$1/dbgen.log"
}
run_kensho() {
  "$JAVA" -cp "$KENSHO_CP" dev.kensho.ssb.gen.GenerateFiles "$SF" "$1" "$THREADS" > /dev/null
}

declare -a T_DBGEN T_KENSHO
FAIL=0
echo "SF $SF, $RUNS runs each, alternating; generator threads: $THREADS; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); scratch $WORK"
echo "dbgen: $DBGEN   java: $("$JAVA" -version 2>&1 | head -1)   kensho: $KENSHO_SRC (a private copy)"
for i in $(seq 1 "$RUNS"); do
  # who goes first alternates (ABBA), so a drifting machine load, or the previous run's dirty pages, favours neither
  order="dbgen kensho"; [ $((i % 2)) = 1 ] || order="kensho dbgen"
  for tool in $order; do
    out="$WORK/$tool"
    rm -rf "$out"; mkdir -p "$out"; sync
    t0=$(now); "run_$tool" "$out"; t1=$(now)
    secs=$(echo "$t1 - $t0" | bc -l)
    printf 'run %d  %-7s %7.2f s\n' "$i" "$tool" "$secs"
    if [ "$tool" = dbgen ]; then T_DBGEN+=("$secs"); else T_KENSHO+=("$secs"); fi
  done
  # Compare every run's files (outside the timed section).
  digests "$WORK/dbgen" > "$WORK/dbgen.md5"
  digests "$WORK/kensho" > "$WORK/kensho.md5"
  if ! diff -q "$WORK/dbgen.md5" "$WORK/kensho.md5" > /dev/null; then
    echo "MISMATCH dbgen vs kensho (run $i):"; diff "$WORK/dbgen.md5" "$WORK/kensho.md5" || true; FAIL=1
  fi
  if [ "${#REF[@]}" -gt 0 ]; then
    while read -r t sum; do
      [ "$sum" = "${REF[$t]}" ] || { echo "MISMATCH $t: kensho $sum, reference ${REF[$t]} (run $i)"; FAIL=1; }
    done < "$WORK/kensho.md5"
  fi
done
rm -rf "$WORK/dbgen" "$WORK/kensho"

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
MD=$(median "${T_DBGEN[@]}")
MK=$(median "${T_KENSHO[@]}")
RATIO=$(echo "$MK / $MD" | bc -l)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'median  dbgen %.2f s   kensho %.2f s   ratio kensho/dbgen %.3f (goal <= 0.5)\n' "$MD" "$MK" "$RATIO"
echo "md5 per table (kensho):"; sed 's/^/  /' "$WORK/kensho.md5"
if [ "$FAIL" -ne 0 ]; then echo "RESULT: digests DIFFER"; exit 1; fi
if [ "${#REF[@]}" -gt 0 ]; then echo "RESULT: all five tables identical to dbgen and to the reference digests"
else echo "RESULT: all five tables identical to dbgen (no stored reference for SF $SF)"; fi
