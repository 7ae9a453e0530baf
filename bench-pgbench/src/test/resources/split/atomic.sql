CREATE OR REPLACE FUNCTION pg_temp.f(x int) RETURNS int LANGUAGE sql
BEGIN ATOMIC
  SELECT CASE WHEN x > 0 THEN 1 ELSE 2 END;
  SELECT x + 1;
END;
SELECT pg_temp.f(1);
create procedure pg_temp.p() language sql begin atomic select 1; end;
SELECT begin_x FROM (SELECT 1 AS begin_x) s; SELECT 2;
