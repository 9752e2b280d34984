-- The pipeline's tables: 1 000 000 source rows, an empty target. The target has no primary key on purpose:
-- a row written twice is counted by check.sql instead of being refused.
drop table if exists source_rows, target_rows;
create table source_rows (id bigint primary key, name text not null, amount numeric(12,2) not null, created timestamp not null);
insert into source_rows
  select i, 'row-' || i, (i % 100000) / 100.0, timestamp '2026-01-01' + i * interval '1 second'
    from generate_series(1, 1000000) as i;
create table target_rows (id bigint not null, name text not null, amount numeric(12,2) not null, created timestamp not null);
