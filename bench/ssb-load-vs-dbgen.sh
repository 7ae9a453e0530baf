#!/usr/bin/env bash
# Side by side on this machine and one server: loading SSB with `bench ssb load -s SF --no-keys --no-analyze`
# (parallel generation streamed straight into COPY over --jobs connections) vs the fastest dbgen pipeline
# (`TZ=UTC dbgen -s SF` writing five named pipes, each read by its own `psql \copy`), alternately RUNS times.
# Prints every wall time with the load average, the medians, the ratio of the medians and the median of the per-run
# ratios kensho/dbgen (goal at SF 1: <= 0.7), the server settings both got, and checks that both loads
# hold the same row counts and the same sum(lo_revenue).
#
# dbgen ends every row with '|', which COPY rejects as an extra column; so that the pipeline needs no stripping
# step (which would only slow it down), its tables get one extra trailing text column.
#
# usage: bench/ssb-load-vs-dbgen.sh [DBGEN_BINARY] [SF=1] [RUNS=3]
#   DBGEN_BINARY  dbgen built from eyalroz/ssb-dbgen @ ae1e254 (built by you under /tmp; never committed here);
#                 default /tmp/ssb-dbgen/build/dbgen, which these commands build (a C compiler and CMake):
#                   git clone https://github.com/eyalroz/ssb-dbgen /tmp/ssb-dbgen && git -C /tmp/ssb-dbgen checkout ae1e254
#                   cmake -S /tmp/ssb-dbgen -B /tmp/ssb-dbgen/build && cmake --build /tmp/ssb-dbgen/build
#                 dists.dss from its directory (or its parent), or $DBGEN_DISTS.
# env: PGHOST/PGPORT/PGUSER  server (default 127.0.0.1, 5432, postgres); it must accept psql and JDBC without a prompt
#      DB        database used (default kensho_ssb_bench; created when missing and then dropped at the end)
#      JOBS      --jobs for Kensho (default: nproc)
#      KENSHO    command running bench.jar (default: java -jar <repo>/bench.jar)
#      WORK      scratch directory (default: a new mktemp -d, removed at exit)
set -euo pipefail

die() { echo "ssb-load-vs-dbgen: $*" >&2; exit 2; }

[ $# -le 3 ] || die "usage: $0 [DBGEN_BINARY] [SF=1] [RUNS=3]"
DBGEN=${1:-/tmp/ssb-dbgen/build/dbgen}
[ -x "$DBGEN" ] && [ -f "$DBGEN" ] || die "no dbgen at $DBGEN: build eyalroz/ssb-dbgen @ ae1e254 as the header of $0 shows, or pass its binary as first argument"
DBGEN=$(readlink -f "$DBGEN")
SF=${2:-1}
RUNS=${3:-3}
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ "$SF" =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="$SF" 'BEGIN {exit !(s > 0)}' || die "SF must be a positive number, got '$SF'"
DISTS=${DBGEN_DISTS:-$(dirname "$DBGEN")/dists.dss}
[ -f "$DISTS" ] || [ -n "${DBGEN_DISTS:-}" ] || DISTS=$(dirname "$(dirname "$DBGEN")")/dists.dss  # CMake build dir
[ -f "$DISTS" ] || die "dists.dss not found at $DISTS (set DBGEN_DISTS)"
DISTS=$(readlink -f "$DISTS")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
DB=${DB:-kensho_ssb_bench}
JOBS=${JOBS:-$(nproc)}
[ -f "$ROOT/bench.jar" ] || [ -n "${KENSHO:-}" ] || die "bench.jar not built (./mvnw -q -DskipTests package)"
command -v psql > /dev/null || die "psql not found"

CREATED_DB=0
OWN_WORK=0
COPY_PIDS=()
if [ -z "${WORK:-}" ]; then WORK=$(mktemp -d /tmp/ssb-load-vs-dbgen.XXXXXX); OWN_WORK=1; fi
# On any exit (a failure, Ctrl-C): no psql left waiting on a pipe, and none of this script's tables left behind.
cleanup() {
  local p
  for p in "${COPY_PIDS[@]}"; do kill "$p" 2> /dev/null || true; done
  for p in "${COPY_PIDS[@]}"; do wait "$p" 2> /dev/null || true; done
  if [ "$CREATED_DB" = 1 ]; then
    psql -q -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" > /dev/null 2>&1 || true
  elif [ "$STARTED" = 1 ]; then
    psql -q -d "$DB" -c "DROP SCHEMA IF EXISTS kensho_bench_dbgen CASCADE" > /dev/null 2>&1 || true
    $KENSHO ssb drop --url "$URL" -U "$PGUSER" --schema kensho_bench_load > /dev/null 2>&1 || true
  fi
  if [ "$OWN_WORK" = 1 ]; then rm -rf "$WORK"; else rm -rf "$WORK/pipes" "$WORK/bench.jar" "$WORK/results"; fi
}
STARTED=0
trap cleanup EXIT
mkdir -p "$WORK"
# a private copy: a rebuild of bench.jar during the run must not change or break what is measured
if [ -z "${KENSHO:-}" ]; then cp "$ROOT/bench.jar" "$WORK/bench.jar"; KENSHO="java -jar $WORK/bench.jar"; fi
if ! psql -qAt -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  psql -q -d postgres -c "CREATE DATABASE \"$DB\"" > /dev/null; CREATED_DB=1
fi
URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
STARTED=1
TABLES="part supplier customer date lineorder"
SCHEMA_SQL="$ROOT/bench-ssb/src/main/resources/dev/kensho/ssb/schema.sql"

# dbgen's tables live in a schema this script owns; Kensho's in another, which Kensho manages (--reload).
prepare_dbgen() {
  psql -q -d "$DB" -v ON_ERROR_STOP=1 > /dev/null <<SQL
DROP SCHEMA IF EXISTS kensho_bench_dbgen CASCADE;
CREATE SCHEMA kensho_bench_dbgen;
SET search_path TO kensho_bench_dbgen;
$(sed -e 's/^);$/  , dbgen_eol text\n);/' "$SCHEMA_SQL")
SQL
}

now() { date +%s.%N; }

run_dbgen() {
  local d="$WORK/pipes"; rm -rf "$d"; mkdir -p "$d"
  for t in $TABLES; do mkfifo "$d/$t.tbl"; done
  COPY_PIDS=()
  for t in $TABLES; do
    psql -q -d "$DB" -v ON_ERROR_STOP=1 -c "\\copy kensho_bench_dbgen.\"$t\" FROM '$d/$t.tbl' (DELIMITER '|')" > /dev/null &
    COPY_PIDS+=($!)
  done
  (cd "$d" && TZ=UTC "$DBGEN" -s "$SF" -b "$DISTS" -f > "$WORK/dbgen.log" 2>&1) || { cat "$WORK/dbgen.log" >&2; die "dbgen failed"; }
  for p in "${COPY_PIDS[@]}"; do wait "$p" || die "psql \\copy failed"; done
  COPY_PIDS=()
}

run_kensho() {
  $KENSHO ssb load -s "$SF" --no-keys --no-analyze --jobs "$JOBS" --url "$URL" -U "$PGUSER" \
    --schema kensho_bench_load --results "$WORK/results" > "$WORK/kensho.out" 2> "$WORK/kensho.err" \
    || { cat "$WORK/kensho.err" >&2; die "bench ssb load failed"; }
}

check() {  # row counts and a checksum, per schema
  psql -qAt -d "$DB" -c "SELECT (SELECT count(*) FROM $1.part) || ' ' || (SELECT count(*) FROM $1.supplier) || ' ' ||
    (SELECT count(*) FROM $1.customer) || ' ' || (SELECT count(*) FROM $1.\"date\") || ' ' ||
    (SELECT count(*) || ':' || sum(lo_revenue::bigint) FROM $1.lineorder)"
}

declare -a T_DBGEN T_KENSHO R_PAIR
FAIL=0
echo "SF $SF, $RUNS runs each, alternating; Kensho --jobs $JOBS; $(nproc) cores; server $PGHOST:$PGPORT/$DB"
# both tools load into this one server with these settings; only session settings differ (printed below)
SETTINGS=$(psql -qAt -d "$DB" -c "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings
  WHERE name IN ('wal_level', 'max_wal_senders', 'fsync', 'full_page_writes', 'synchronous_commit', 'wal_buffers',
                 'max_wal_size', 'shared_buffers', 'checkpoint_timeout', 'autovacuum', 'wal_compression')")
echo "server settings (both tools): $SETTINGS"
echo "server $(psql -qAt -d "$DB" -c 'SHOW server_version')   $(psql --version)   java: $(java -version 2>&1 | head -1)   dbgen: $DBGEN"
echo "sessions: psql \\copy one COPY per table in its own transaction, server defaults;" \
  "Kensho one COPY per chunk, synchronous_commit=off in its COPY sessions"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$RUNS"); do
  one_dbgen() {
    prepare_dbgen; sync
    t0=$(now); run_dbgen; t1=$(now)
    s=$(echo "$t1 - $t0" | bc -l); T_DBGEN+=("$s"); printf 'run %d  dbgen+psql  %7.2f s   (load %s)\n' "$i" "$s" "$(cut -d' ' -f1 /proc/loadavg)"
    A=$(check kensho_bench_dbgen)
    psql -q -d "$DB" -c "DROP SCHEMA kensho_bench_dbgen CASCADE" > /dev/null
  }
  one_kensho() {
    # the previous run's tables go outside the timed section, as dbgen's do
    $KENSHO ssb drop --url "$URL" -U "$PGUSER" --schema kensho_bench_load > /dev/null 2>&1 || true
    sync
    t0=$(now); run_kensho; t1=$(now)
    s=$(echo "$t1 - $t0" | bc -l); T_KENSHO+=("$s")
    printf 'run %d  kensho      %7.2f s   (load %s; %s)\n' "$i" "$s" "$(cut -d' ' -f1 /proc/loadavg)" "$(tail -1 "$WORK/kensho.out")"
    B=$(check kensho_bench_load)
  }
  # who goes first alternates, so a drift of the machine's load favours neither
  if [ $((i % 2)) = 1 ]; then one_dbgen; one_kensho; else one_kensho; one_dbgen; fi
  R_PAIR+=("$(echo "${T_KENSHO[-1]} / ${T_DBGEN[-1]}" | bc -l)")
  printf 'run %d  ratio kensho/dbgen %.3f\n' "$i" "${R_PAIR[-1]}"
  [ "$A" = "$B" ] || { echo "MISMATCH dbgen [$A] vs kensho [$B]"; FAIL=1; }
done

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
MD=$(median "${T_DBGEN[@]}")
MK=$(median "${T_KENSHO[@]}")
printf 'median  dbgen+psql %.2f s   kensho %.2f s   ratio kensho/dbgen %.3f (goal <= 0.7)\n' "$MD" "$MK" "$(echo "$MK / $MD" | bc -l)"
# back-to-back pairs share the machine's momentary load (other processes): their median ratio is the steadier figure
printf 'median of the per-run ratios %.3f (goal <= 0.7)\n' "$(median "${R_PAIR[@]}")"
echo "rows part supplier customer date lineorder:sum(lo_revenue): $B"
if [ "$FAIL" -ne 0 ]; then echo "RESULT: loads DIFFER"; exit 1; fi
echo "RESULT: both loads hold the same rows"
