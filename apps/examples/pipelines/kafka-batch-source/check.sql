-- The 10 000 messages as messages.sh makes them, and the table: rows, distinct ids and one checksum over every column
-- in id order. Equal lines: every message arrived once, with its values.
with expected as (
  select i::bigint as id, 'event-' || i as name, ((i % 1000) / 100.0)::numeric(12,2) as amount
    from generate_series(1, 10000) as i
)
select t.tab as "table", count(*) as rows, count(distinct id) as ids,
       md5(string_agg(id::text || '|' || name || '|' || amount::text, ',' order by id)) as checksum
  from (select 'expected' as tab, * from expected union all select 'kafka_events', id, name, amount from kafka_events) t
 group by t.tab order by t.tab;
