-- PGECons read script (study 000 ch.4.4, study 001): count(abalance) over a random range of 10 000 rows.
-- Study 000 draws aid with the pre-9.6 "\setrandom aid 1 :aid_max"; this is the same draw in today's syntax.
\set naccounts 100000 * :scale
\set row_count 10000
\set aid_max :naccounts - :row_count
\set aid random(1, :aid_max)
SELECT count(abalance) FROM pgbench_accounts WHERE aid BETWEEN :aid and :aid + :row_count;
