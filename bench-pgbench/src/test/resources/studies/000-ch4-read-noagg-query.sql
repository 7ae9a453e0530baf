SELECT abalance FROM pgbench_accounts WHERE aid BETWEEN :aid and :aid + :row_count offset
:row_count limit 1;
