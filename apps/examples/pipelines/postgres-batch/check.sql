-- Both tables: rows, distinct ids and one checksum over every column in id order. Equal lines: every row arrived once.
select t.tab as "table", count(*) as rows, count(distinct id) as ids,
       md5(string_agg(id::text || '|' || name || '|' || amount::text || '|' || created::text, ',' order by id)) as checksum
  from (select 'source_rows' as tab, * from source_rows union all select 'target_rows', * from target_rows) t
 group by t.tab order by t.tab;
