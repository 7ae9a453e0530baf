-- Primary keys as ../shared/ssb-reference/sql/keys.sql, one statement per line (run in parallel).
ALTER TABLE "date"    ADD PRIMARY KEY (d_datekey);
ALTER TABLE customer  ADD PRIMARY KEY (c_custkey);
ALTER TABLE supplier  ADD PRIMARY KEY (s_suppkey);
ALTER TABLE part      ADD PRIMARY KEY (p_partkey);
ALTER TABLE lineorder ADD PRIMARY KEY (lo_orderkey, lo_linenumber);
