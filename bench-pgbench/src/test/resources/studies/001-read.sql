\set naccounts 100000 * :scale
\set row_count 10000
\set aid_max :naccounts - :row_count
\set aid random(1 :aid_max)
SELECT count(abalance) FROM pgbench_accounts
   WHERE aid BETWEEN :aid and :aid + :row_count;
