\set a random(0, 3)
\set b random(0, 3)
\if :a = 0
  \set r debug(100 + :b)
  \if :b < 2
    \set r debug(110)
  \elif :b = 2
    \set r debug(120)
  \else
    \set r debug(130)
  \endif
\elif :a = 1
  \if :b = 0
    \set r debug(210)
  \endif
  \set r debug(200 + :b)
\elif :a = 2 AND :b > 1
  \set r debug(300)
\else
  \if :b = 3
    \set r debug(410)
  \elif :b = 2
    \if true
      \set r debug(421)
    \else
      \set r debug(422)
    \endif
  \endif
  \set r debug(400 + :a * 10 + :b)
\endif
\set z debug(:a * 10 + :b)
