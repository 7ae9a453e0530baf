-- pgbench builtin "select-only" (<builtin: select only>, -S), exact text of PostgreSQL 15's pgbench --show-script.
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
