#!/usr/bin/env bash
# Side by side against the same server and database: the C pgbench and `bench pgbench`, run alternately.
#   1. init -s SCALE: `pgbench -i -q` vs `bench pgbench init -q` (compares the "done in X s" each prints, i.e. the
#      work without process start-up; wall times including JVM start-up are printed too). Goal: ratio <= 0.8.
#   2. select-only -M prepared at c=1,4,8 and tpcb-like -M prepared at c=4 (-j = min(c, 2) for both tools, -T DURATION,
#      pgbench's default vacuum before each run): TPS medians and ratio bench/pgbench. Goals: >= 1.0 and >= 0.97.
#      Also each client's CPU per transaction (pgbench's from bash's `times`, bench's as it reports it): the two
#      share the machine with the server, so a client's CPU is the server's loss. And bench's page faults a second.
#      Where c > 2, each round also runs pgbench -j c, Kensho's thread model, and prints its tps and client CPU
#      (SAME_MODEL=0 skips it; see below).
# The database is initialised once at SCALE (by the init comparison) and shared by all runs. By default it is a
# database of the script's own, created and at the end (or on Ctrl-C) dropped. In a DB you name, init drops and
# makes anew the four pgbench_* tables, as pgbench -i does, and nothing else; the script drops them at the end
# only when they were not there before it began.
#
# Within a round the runs rotate through the positions (ABBA with two), so a drifting load on the shared machine,
# or what one run leaves to the next, favours no tool.
# Besides the ratio of the medians, each run line prints the median of the per-round ratios (each round's two runs
# are seconds apart) with their range: on a virtual machine whose speed drifts by 10-20 % within minutes, that is
# the steadier number, and the range says how far one round can be trusted. The rounds' ratios are then taken as a
# sample: their geometric mean, its 95 % confidence interval and the verdict "met", "missed" or "undecided" (the
# interval spans the goal: more rounds are needed to tell).
#
# usage: bench/pgbench-vs-c.sh [ROUNDS=2]
# env: HOST (127.0.0.1) PORT (5432) PGUSER (postgres)   the server both tools measure; a HOST starting
#                   with / is the server's Unix-socket directory (e.g. /var/run/postgresql), for both tools
#      DB          database (default kensho_pgbench_vs_c); one that does not exist is created and at the end dropped
#      PGBENCH     C pgbench (default /usr/lib/postgresql/15/bin/pgbench); psql is taken from its directory, else PATH
#      BENCH       command that runs bench.jar (default "java -jar <repo>/bench.jar", a private copy of it)
#      SCALE (10)  DURATION (20 s per run)  CLIENTS ("1 4 8")  SAME_MODEL (1 with ENGINE=pgjdbc, else 0)
#      TPCB (1)    0 skips the tpcb-like comparison
#      WARMUP (5 s) an unmeasured C pgbench run of each comparison's workload before its first round, so that the
#                  first measured run does not meet cold buffers (0 skips it; Kensho warms its own JIT in every run)
#      ENGINE      bench's --engine: pgjdbc (a thread per client, the default) or wire (pgbench's thread model)
#      WORK        scratch directory for bench's results (default: a new mktemp -d, removed at exit)
set -euo pipefail

die() { echo "pgbench-vs-c: $*" >&2; exit 2; }

ROUNDS=${1:-2}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-5432}
DB=${DB:-kensho_pgbench_vs_c}
PGUSER=${PGUSER:-postgres}
PGBENCH=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
SCALE=${SCALE:-10}
DURATION=${DURATION:-20}
CLIENTS=${CLIENTS:-1 4 8}
TPCB=${TPCB:-1}
WARMUP=${WARMUP:-5}
[[ "$WARMUP" =~ ^[0-9]+$ ]] || die "WARMUP must be a number of seconds, got '$WARMUP'"
[[ "$DURATION" =~ ^[1-9][0-9]*$ ]] || die "DURATION must be a positive number of seconds, got '$DURATION'"
[[ "$SCALE" =~ ^[1-9][0-9]*$ ]] || die "SCALE must be a positive integer, got '$SCALE'"
for c in $CLIENTS; do [[ "$c" =~ ^[1-9][0-9]*$ ]] || die "CLIENTS must be positive integers, got '$CLIENTS'"; done
ENGINE=${ENGINE:-pgjdbc}
case "$ENGINE" in pgjdbc|wire) ;; *) die "ENGINE must be pgjdbc or wire, got '$ENGINE'" ;; esac
[ -x "$PGBENCH" ] || die "no C pgbench at $PGBENCH (set PGBENCH)"
PSQL=$(dirname "$PGBENCH")/psql
[ -x "$PSQL" ] || PSQL=$(command -v psql) || die "no psql beside $PGBENCH or on PATH"
C_CONN=(-h "$HOST" -p "$PORT" -U "$PGUSER")
sql() { "$PSQL" "${C_CONN[@]}" -X -qAt -v ON_ERROR_STOP=1 "$@"; }

OWN_WORK=0 CREATED_DB=0 OWN_TABLES=0
# On any exit (the end, a failure, Ctrl-C): the scratch directory and what the script created go.
cleanup() {
  if [ "$CREATED_DB" = 1 ]; then sql -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" > /dev/null 2>&1 || true
  elif [ "$OWN_TABLES" = 1 ]; then
    sql -d "$DB" -c "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers" > /dev/null 2>&1 || true
  fi
  if [ "$OWN_WORK" = 1 ]; then rm -rf "$WORK"; else rm -f "$WORK/bench.jar"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -z "${WORK:-}" ]; then WORK=$(mktemp -d /tmp/pgbench-vs-c.XXXXXX); OWN_WORK=1; fi
mkdir -p "$WORK"
# a private copy: a rebuild of bench.jar during the run must not change or break what is measured
if [ -z "${BENCH:-}" ]; then
  [ -f "$ROOT/bench.jar" ] || die "bench.jar not built (./mvnw -q -DskipTests package, or set BENCH)"
  cp "$ROOT/bench.jar" "$WORK/bench.jar"; BENCH="java -jar $WORK/bench.jar"
fi
SERVER=$(sql -d postgres -c "SHOW server_version") || die "cannot reach the server at $HOST:$PORT as $PGUSER"
if [ -z "$(sql -d postgres -v db="$DB" <<< "SELECT 1 FROM pg_database WHERE datname = :'db'")" ]; then
  sql -d postgres -c "CREATE DATABASE \"$DB\"" > /dev/null || die "cannot create database $DB"
  CREATED_DB=1
elif [ "$(sql -d "$DB" -c "SELECT coalesce(to_regclass('pgbench_accounts'), to_regclass('pgbench_branches'),
           to_regclass('pgbench_history'), to_regclass('pgbench_tellers')) IS NULL")" = t ]; then
  OWN_TABLES=1
fi

if [[ "$HOST" == /* ]]; then K_URL="jdbc:postgresql:///$DB?host=$HOST&port=$PORT"; else K_URL="jdbc:postgresql://$HOST:$PORT/$DB"; fi
K_CONN=(--url "$K_URL" -U "$PGUSER" --results "$WORK/results")
$BENCH pgbench --help > /dev/null 2>&1 || die "'$BENCH pgbench' does not run (build: ./mvnw -q -DskipTests package, or set BENCH)"

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
done_in() { sed -n 's/^done in \([0-9.]*\) s.*/\1/p' | tail -1; }
tps_of() { sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -1; }
# client CPU per transaction in microseconds: pgbench's from `times` after it, bench's from the line it prints (the
# measured interval only; the JVM's start-up and warm-up are left out)
c_us_of() { awk '/^number of transactions actually processed:/ { split($6, p, "/"); n = p[1] }
                 /^[0-9]+m[0-9.]+s [0-9]+m[0-9.]+s$/ { last = $0 }
                 END { split(last, t, " "); cpu = 0
                       for (i = 1; i <= 2; i++) { split(t[i], a, "m"); sub("s", "", a[2]); cpu += a[1] * 60 + a[2] }
                       if (n > 0) printf "%.2f", cpu * 1e6 / n }'; }
k_us_of() { sed -n 's/.* CPU-seconds while the clock ran: .*, \([0-9.]*\) us per transaction.*/\1/p' | tail -1; }
# bench's page faults a second over the clock: thousands where the kernel takes the JVM's written heap pages back
# (DAMON on this project's VMs), each one client CPU (README, the warm-up)
k_pf_of() { sed -n 's/.* CPU-seconds while the clock ran: .*, \([0-9]*\) page faults a second.*/\1/p' | tail -1; }
ratios() {  # $1 goal, $2 "ge" or "le", then pairs "k c": median [min..max] of k/c, then the 95 % interval and a verdict
  local goal=$1 dir=$2; shift 2
  local -a R; local k c
  while [ $# -gt 1 ]; do k=$1; c=$2; shift 2; R+=("$(echo "$k / $c" | bc -l)"); done
  printf '%.3f [%.3f..%.3f]; %s' "$(median "${R[@]}")" "$(printf '%s\n' "${R[@]}" | sort -g | head -1)" \
    "$(printf '%s\n' "${R[@]}" | sort -g | tail -1)" "$(printf '%s\n' "${R[@]}" | interval "$goal" "$dir")"
}
# The rounds' ratios as a sample: geometric mean with its 95 % confidence interval (Student's t on the logs; the
# ratio of two rates is log-symmetric), and whether the goal is met, missed or not decided at that confidence.
# One round says nothing about the spread, so it gets no interval.
interval() {  # stdin: one ratio per line; $1 goal, $2 ge|le
  awk -v goal="$1" -v dir="$2" '
    { l[NR] = log($1); s += l[NR] }
    END {
      n = NR; m = s / n
      if (n < 2) { printf "geometric mean %.3f (one round: no interval)", exp(m); exit }
      for (i = 1; i <= n; i++) v += (l[i] - m) ^ 2
      split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
      # beyond 30 degrees of freedom, the Cornish-Fisher expansion of t around z (within 0.001 there)
      z = 1.959964; df = n - 1
      q = df <= 30 ? t[df] : z + (z^3 + z) / (4 * df) + (5 * z^5 + 16 * z^3 + 3 * z) / (96 * df^2)
      h = q * sqrt(v / df / n); lo = exp(m - h); hi = exp(m + h)
      if (dir == "ge") verdict = lo >= goal ? "met" : (hi < goal ? "missed" : "undecided")
      else verdict = hi <= goal ? "met" : (lo > goal ? "missed" : "undecided")
      printf "geometric mean %.3f, 95%% CI %.3f..%.3f: %s", exp(m), lo, hi, verdict
    }'
}

echo "server $HOST:$PORT/$DB as $PGUSER (PostgreSQL $SERVER); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds, alternating"
echo "C: $("$PGBENCH" --version)   bench: $BENCH (--engine $ENGINE), $($BENCH --version 2>&1 | head -1), $(java -version 2>&1 | head -1)"
declare -a SUMMARY

# ---- init
declare -a IC IK WC WK
c_init() { t0=$(now); c=$("$PGBENCH" -i -q -s "$SCALE" "${C_CONN[@]}" "$DB" 2>&1) || { echo "$c"; die "pgbench -i failed"; }; wc=$(echo "$(now) - $t0" | bc -l); }
k_init() { t0=$(now); k=$($BENCH pgbench init -q -s "$SCALE" "${K_CONN[@]}" 2>&1) || { echo "$k"; die "bench pgbench init failed"; }; wk=$(echo "$(now) - $t0" | bc -l); }
for i in $(seq 1 "$ROUNDS"); do
  # ABBA: who goes first alternates, so a drifting machine load favours neither tool
  if [ $((i % 2)) -eq 1 ]; then c_init; k_init; else k_init; c_init; fi
  IC+=("$(echo "$c" | done_in)"); IK+=("$(echo "$k" | done_in)")
  [ -n "${IC[-1]}" ] || die "no 'done in' line in pgbench -i's output: $c"
  [ -n "${IK[-1]}" ] || die "no 'done in' line in bench pgbench init's output: $k"
  WC+=("$wc"); WK+=("$wk")
  printf 'init round %d: pgbench %s s (wall %.2f)   bench %s s (wall %.2f)\n' "$i" "${IC[-1]}" "${WC[-1]}" "${IK[-1]}" "${WK[-1]}"
done
MC=$(median "${IC[@]}"); MK=$(median "${IK[@]}")
declare -a IPAIRS
for i in "${!IC[@]}"; do IPAIRS+=("${IK[$i]}" "${IC[$i]}"); done
SUMMARY+=("$(printf '%-34s pgbench %9.2f s  bench %9.2f s  ratio %.3f, per round %s (goal <= 0.8; wall medians %.2f / %.2f s)' \
  "init -s $SCALE (done in)" "$MC" "$MK" "$(echo "$MK / $MC" | bc -l)" "$(ratios 0.8 le "${IPAIRS[@]}")" "$(median "${WC[@]}")" "$(median "${WK[@]}")")")

# The inits leave most of their writes to the checkpointer and the kernel's writeback: done now, at once, so that
# the first comparison's rounds do not run beside them. CHECKPOINT needs a superuser or pg_checkpoint.
sql -c CHECKPOINT > /dev/null 2>&1 || echo "pgbench-vs-c: CHECKPOINT refused; the first comparison may run beside the inits' checkpoint" >&2
sync

# ---- runs
# Each round also runs pgbench with -j = c (SAME_MODEL=0 skips it): one thread per client, the model Kensho's
# client has (JDBC blocks where libpq lets a pgbench thread multiplex its clients); its ratio separates what the
# thread model costs on this machine from what Kensho's own code costs.
# With ENGINE=wire Kensho has pgbench's own model, and the comparison is off unless asked for.
if [ "$ENGINE" = wire ]; then SAME_MODEL=${SAME_MODEL:-0}; else SAME_MODEL=${SAME_MODEL:-1}; fi
# pgbench's run, then its CPU (bash's `times`: the children's user and system time, start-up and connecting included)
# a run ended by Ctrl-C (status 128+) is no failure: said as one, the interrupted script printed "... failed" on its way out
cpgbench() { ( "$PGBENCH" "$@" -T "$DURATION" "${C_CONN[@]}" "$DB" 2>&1 && times ) || { r=$?; [ $r -ge 128 ] || echo "pgbench $* failed" >&2; return $r; }; }
kbench() { $BENCH pgbench run "$@" --engine "$ENGINE" -T "$DURATION" "${K_CONN[@]}" 2>&1 || { r=$?; [ $r -ge 128 ] || echo "bench pgbench run $* failed" >&2; return $r; }; }
compare() {  # $1 label, $2 goal, $3 clients, $4 threads, then the other common pgbench options
  local label=$1 goal=$2 nc=$3 nj=$4; shift 4
  local same=$(( SAME_MODEL == 1 && nc > nj ))
  local -a TC TK TS PAIRS SPAIRS UC UK US PF
  local c k s
  if [ "$WARMUP" -gt 0 ]; then
    "$PGBENCH" "$@" -c "$nc" -j "$nj" -T "$WARMUP" "${C_CONN[@]}" "$DB" > /dev/null 2>&1 || die "pgbench warm-up $* failed"
  fi
  for i in $(seq 1 "$ROUNDS"); do
    # The runs of a round rotate through the positions (with two runs: ABBA), so neither a drifting machine nor
    # what the previous run left behind (dirty pages, a checkpoint, autovacuum) favours one tool.
    local -a order=(c k)
    if [ "$same" = 1 ]; then order=(c k s); fi
    local n=${#order[@]} p
    for p in $(seq 0 $((n - 1))); do
      case "${order[$(( (p + i - 1) % n ))]}" in
        c) c=$(cpgbench "$@" -c "$nc" -j "$nj") || { r=$?; [ $r -ge 128 ] && exit 130; die "pgbench failed: $c"; } ;;
        k) k=$(kbench "$@" -c "$nc" -j "$nj") || { r=$?; [ $r -ge 128 ] && exit 130; die "bench failed: $k"; } ;;
        s) s=$(cpgbench "$@" -c "$nc" -j "$nc") || { r=$?; [ $r -ge 128 ] && exit 130; die "pgbench failed: $s"; } ;;
      esac
    done
    TC+=("$(echo "$c" | tps_of)"); TK+=("$(echo "$k" | tps_of)")
    [ -n "${TC[-1]}" ] || die "no 'tps = ' line in pgbench's output: $c"
    [ -n "${TK[-1]}" ] || die "no 'tps = ' line in bench's output: $k"
    PAIRS+=("${TK[-1]}" "${TC[-1]}")
    UC+=("$(echo "$c" | c_us_of)"); UK+=("$(echo "$k" | k_us_of)"); PF+=("$(echo "$k" | k_pf_of)")
    if [ "$same" = 1 ]; then
      TS+=("$(echo "$s" | tps_of)"); [ -n "${TS[-1]}" ] || die "no 'tps = ' line in pgbench's output: $s"
      SPAIRS+=("${TK[-1]}" "${TS[-1]}")
      US+=("$(echo "$s" | c_us_of)")
      printf '%s round %d: pgbench %s tps   bench %s tps   pgbench -j %d %s tps\n' "$label" "$i" "${TC[-1]}" "${TK[-1]}" "$nc" "${TS[-1]}"
    else
      printf '%s round %d: pgbench %s tps   bench %s tps\n' "$label" "$i" "${TC[-1]}" "${TK[-1]}"
    fi
  done
  local mc mk
  mc=$(median "${TC[@]}"); mk=$(median "${TK[@]}")
  SUMMARY+=("$(printf '%-34s pgbench %9.1f tps bench %9.1f tps ratio %.3f, per round %s (goal >= %s)' \
    "$label" "$mc" "$mk" "$(echo "$mk / $mc" | bc -l)" "$(ratios "$goal" ge "${PAIRS[@]}")" "$goal")")
  # on a machine both share with the server, the client CPU a transaction costs is the server's loss: the steadier
  # comparison of the two drivers where the tps ratios are undecided
  if [ -n "${UC[*]// /}" ] && [ -n "${UK[*]// /}" ]; then
    local uc uk; uc=$(median "${UC[@]}"); uk=$(median "${UK[@]}")
    local faults=""
    if [ -n "${PF[*]// /}" ]; then
      faults=$(printf '; bench page faults a second %s [%s..%s]' "$(median "${PF[@]}")" "$(printf '%s\n' "${PF[@]}" | sort -g | head -1)" \
        "$(printf '%s\n' "${PF[@]}" | sort -g | tail -1)")
    fi
    SUMMARY+=("$(printf '%-34s pgbench %6.2f us   bench %6.2f us   ratio %.3f%s' "  client CPU per transaction" "$uc" "$uk" "$(echo "$uk / $uc" | bc -l)" "$faults")")
  fi
  if [ "$same" = 1 ]; then
    local ms; ms=$(median "${TS[@]}")
    SUMMARY+=("$(printf '%-34s pgbench %9.1f tps  (one thread per client, as Kensho): ratio %.3f, per round %s' \
      "  same model: -j $nc" "$ms" "$(echo "$mk / $ms" | bc -l)" "$(ratios 1.0 ge "${SPAIRS[@]}")")")
    # what the thread model itself costs pgbench's client here: where it is near bench's, the gap is the model's
    if [ -n "${US[*]// /}" ] && [ -n "${UK[*]// /}" ]; then
      local us ku; us=$(median "${US[@]}"); ku=$(median "${UK[@]}")
      SUMMARY+=("$(printf '%-34s pgbench %6.2f us   bench %6.2f us   ratio %.3f' "    client CPU per transaction" "$us" "$ku" "$(echo "$ku / $us" | bc -l)")")
    fi
  fi
}
for c in $CLIENTS; do
  j=$(( c < 2 ? c : 2 ))
  compare "select-only -M prepared c=$c j=$j" 1.0 "$c" "$j" -S -M prepared
done
if [ "$TPCB" = 1 ]; then compare "tpcb-like -M prepared c=4 j=2" 0.97 4 2 -b tpcb-like -M prepared; fi

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians over $ROUNDS rounds (ratio = bench / pgbench: of the medians; per round: median [min..max] of each round's"
echo "ratio, their geometric mean with its 95 % confidence interval, and whether that interval clears the goal):"
printf '  %s\n' "${SUMMARY[@]}"
