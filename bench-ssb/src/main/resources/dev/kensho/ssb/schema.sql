-- The SSB schema as the studies load it (types from ../shared/ssb-reference/sql/schema.sql).
-- One statement per table, separated by blank lines; "date" quoted (a keyword on older servers).
-- No DROP: Kensho drops only tables its kensho_ssb_meta lists as created by it.
CREATE TABLE customer (
  c_custkey    integer     NOT NULL,
  c_name       varchar(25) NOT NULL,
  c_address    varchar(25) NOT NULL,
  c_city       varchar(10) NOT NULL,
  c_nation     varchar(15) NOT NULL,
  c_region     varchar(12) NOT NULL,
  c_phone      varchar(15) NOT NULL,
  c_mktsegment varchar(10) NOT NULL
);

CREATE TABLE supplier (
  s_suppkey    integer     NOT NULL,
  s_name       varchar(25) NOT NULL,
  s_address    varchar(25) NOT NULL,
  s_city       varchar(10) NOT NULL,
  s_nation     varchar(15) NOT NULL,
  s_region     varchar(12) NOT NULL,
  s_phone      varchar(15) NOT NULL
);

CREATE TABLE part (
  p_partkey    integer     NOT NULL,
  p_name       varchar(22) NOT NULL,
  p_mfgr       varchar(6)  NOT NULL,
  p_category   varchar(7)  NOT NULL,
  p_brand1     varchar(9)  NOT NULL,
  p_color      varchar(11) NOT NULL,
  p_type       varchar(25) NOT NULL,
  p_size       integer     NOT NULL,
  p_container  varchar(10) NOT NULL
);

CREATE TABLE "date" (
  d_datekey          integer     NOT NULL,
  d_date             varchar(18) NOT NULL,
  d_dayofweek        varchar(9)  NOT NULL,
  d_month            varchar(9)  NOT NULL,
  d_year             integer     NOT NULL,
  d_yearmonthnum     integer     NOT NULL,
  d_yearmonth        varchar(7)  NOT NULL,
  d_daynuminweek     integer     NOT NULL,
  d_daynuminmonth    integer     NOT NULL,
  d_daynuminyear     integer     NOT NULL,
  d_monthnuminyear   integer     NOT NULL,
  d_weeknuminyear    integer     NOT NULL,
  d_sellingseason    varchar(12) NOT NULL,
  d_lastdayinweekfl  char(1)     NOT NULL,
  d_lastdayinmonthfl char(1)     NOT NULL,
  d_holidayfl        char(1)     NOT NULL,
  d_weekdayfl        char(1)     NOT NULL
);

CREATE TABLE lineorder (
  lo_orderkey      integer     NOT NULL,
  lo_linenumber    integer     NOT NULL,
  lo_custkey       integer     NOT NULL,
  lo_partkey       integer     NOT NULL,
  lo_suppkey       integer     NOT NULL,
  lo_orderdate     integer     NOT NULL,
  lo_orderpriority varchar(15) NOT NULL,
  lo_shippriority  char(1)     NOT NULL,
  lo_quantity      integer     NOT NULL,
  lo_extendedprice integer     NOT NULL,
  lo_ordtotalprice integer     NOT NULL,
  lo_discount      integer     NOT NULL,
  lo_revenue       integer     NOT NULL,
  lo_supplycost    integer     NOT NULL,
  lo_tax           integer     NOT NULL,
  lo_commitdate    integer     NOT NULL,
  lo_shipmode      varchar(10) NOT NULL
);
