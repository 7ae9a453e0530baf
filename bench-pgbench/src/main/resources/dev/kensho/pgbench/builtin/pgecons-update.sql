-- PGECons update script (study 000 ch.4.7, study 001): rewrite the filler of one random account.
\set naccounts 100000 * :scale
\set aid_val random(1, :naccounts)
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid = :aid_val;
