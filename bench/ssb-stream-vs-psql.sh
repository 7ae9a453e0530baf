#!/usr/bin/env bash
# Side by side on this machine and one server: streaming the JIT study's verification-1 result that returns every
# row of lineorder (`select lo_extendedprice * lo_discount from lineorder`, 6,001,173 rows at SF 1) with Kensho
# (`bench query` with its default --fetch-size 0: one execution, the result streamed as COPY; JVM heap capped at
# 64 MB to show it stays flat) vs `psql -c ... > /dev/null`, alternately RUNS times (who goes first alternates:
# ABBA). Prints wall times, medians and the ratio kensho/psql (goal <= 1.0), and checks Kensho received every row.
#
# usage: bench/ssb-stream-vs-psql.sh [SF=1] [RUNS=3]
# env: PGHOST/PGPORT/PGUSER  server (default 127.0.0.1, 5432, postgres); must accept psql and JDBC without a prompt
#      DB        database (default kensho_ssb_bench; created when missing, then dropped at the end); the SSB data are
#                loaded there by `bench ssb load` into schema kensho_bench_stream when not already present; in a DB
#                you name they stay, for the next run (said at the end; DROP SCHEMA kensho_bench_stream CASCADE)
#      KENSHO    command running bench.jar (default: java -Xmx64m -jar <repo>/bench.jar)
set -euo pipefail

die() { echo "ssb-stream-vs-psql: $*" >&2; exit 2; }
SF=${1:-1}
RUNS=${2:-3}
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ "$SF" =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="$SF" 'BEGIN {exit !(s > 0)}' || die "SF must be a positive number, got '$SF'"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
DB=${DB:-kensho_ssb_bench}
[ -f "$ROOT/bench.jar" ] || [ -n "${KENSHO:-}" ] || die "bench.jar not built (./mvnw -q -DskipTests package)"
command -v psql > /dev/null || die "psql not found"
WORK=$(mktemp -d /tmp/ssb-stream-vs-psql.XXXXXX)
CREATED_DB=0
cleanup() {
  rm -rf "$WORK"
  if [ "$CREATED_DB" = 1 ]; then psql -q -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" > /dev/null 2>&1 || true
  else echo "the SSB data stay in $DB.kensho_bench_stream for the next run (DROP SCHEMA kensho_bench_stream CASCADE removes them)" >&2; fi
}
trap cleanup EXIT
# a private copy: a rebuild of bench.jar during the run must not change or break what is measured
if [ -z "${KENSHO:-}" ]; then cp "$ROOT/bench.jar" "$WORK/bench.jar"; KENSHO="java -Xmx64m -jar $WORK/bench.jar"; fi
if ! psql -qAt -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  psql -q -d postgres -c "CREATE DATABASE \"$DB\"" > /dev/null; CREATED_DB=1
fi
URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
S=kensho_bench_stream

loaded=$(psql -qAt -d "$DB" -c "SELECT complete AND scale = $SF FROM $S.kensho_ssb_meta" 2>/dev/null || true)
if [ "$loaded" != t ]; then
  echo "loading SSB SF $SF into $DB.$S ..."
  $KENSHO ssb load -s "$SF" --no-keys --reload --url "$URL" -U "$PGUSER" --schema "$S" --results "$WORK/results" \
    > /dev/null 2> "$WORK/load.err" || { cat "$WORK/load.err" >&2; die "bench ssb load failed"; }
fi
Q="select lo_extendedprice * lo_discount from $S.lineorder"
ROWS=$(psql -qAt -d "$DB" -c "SELECT count(*) FROM $S.lineorder")
psql -qAt -d "$DB" -c "SELECT count(pg_prewarm('$S.lineorder'::regclass))" > /dev/null 2>&1 || true

now() { date +%s.%N; }
run_psql() { psql -q -d "$DB" -c "$Q" > /dev/null; }
run_kensho() {
  $KENSHO query -c "$Q" --url "$URL" -U "$PGUSER" --repeat 1 --warmup 0 --order sequential --results "$WORK/results" \
    > "$WORK/kensho.out" 2> "$WORK/kensho.err" || { cat "$WORK/kensho.err" >&2; die "bench query failed"; }
}
declare -a T_PSQL T_KENSHO
FAIL=0
echo "SF $SF ($ROWS rows), $RUNS runs each, alternating; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); server $PGHOST:$PGPORT/$DB; kensho: $KENSHO"
echo "server $(psql -qAt -d "$DB" -c 'SHOW server_version')   $(psql --version)   java: $(java -version 2>&1 | head -1)"
one_psql() {
  t0=$(now); run_psql; t1=$(now)
  s=$(echo "$t1 - $t0" | bc -l); T_PSQL+=("$s"); printf 'run %d  psql    %7.2f s\n' "$i" "$s"
}
one_kensho() {
  t0=$(now); run_kensho; t1=$(now)
  s=$(echo "$t1 - $t0" | bc -l); T_KENSHO+=("$s")
  got=$(grep -Eo '[0-9]+$' "$WORK/kensho.out" | tail -1 || true)
  printf 'run %d  kensho  %7.2f s   (%s)\n' "$i" "$s" "$(tail -1 "$WORK/kensho.out")"
  [ "$got" = "$ROWS" ] || { echo "kensho received $got rows, expected $ROWS"; FAIL=1; }
}
for i in $(seq 1 "$RUNS"); do
  # who goes first alternates, so a drifting machine load, or a cache the previous run warmed, favours neither
  if [ $((i % 2)) = 1 ]; then one_psql; one_kensho; else one_kensho; one_psql; fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
MP=$(median "${T_PSQL[@]}")
MK=$(median "${T_KENSHO[@]}")
printf 'median  psql %.2f s   kensho %.2f s (JVM start included, heap -Xmx64m)   ratio kensho/psql %.3f (goal <= 1.0)\n' \
  "$MP" "$MK" "$(echo "$MK / $MP" | bc -l)"
if [ "$FAIL" -ne 0 ]; then echo "RESULT: Kensho received a different number of rows"; exit 1; fi
echo "RESULT: Kensho streamed all $ROWS rows (psql exited 0)"
