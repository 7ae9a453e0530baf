-- leading
SELECT 1
  , 2;  SELECT 3; -- trailing
/* block */ SELECT 4;
SELECT $$a;b$$, 'c;d', "e;f" FROM (SELECT 1 AS "e;f") x; SELECT (1
) ;
\set a 1
SELECT E'\';' \; SELECT 5
;
;
/* only comment */
SELECT 6 -- no semicolon at end
