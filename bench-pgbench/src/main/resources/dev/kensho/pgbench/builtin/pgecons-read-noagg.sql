-- PGECons read script without aggregate (study 000 ch.4.6): the same range, skipping :row_count rows, one row back.
\set naccounts 100000 * :scale
\set row_count 10000
\set aid_max :naccounts - :row_count
\set aid random(1, :aid_max)
SELECT abalance FROM pgbench_accounts WHERE aid BETWEEN :aid and :aid + :row_count offset
:row_count limit 1;
