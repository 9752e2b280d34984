-- The job's 600 rows, each once: rows = ids = 600 (fewer rows: a checkpoint's rows lost; an id twice: a row written twice).
select count(*) as rows, count(distinct id) as ids, count(*) - count(distinct id) as duplicated
  from events;
