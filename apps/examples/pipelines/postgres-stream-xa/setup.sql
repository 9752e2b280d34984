-- The stream's target. No primary key on purpose: a row committed twice is counted by check.sql, not refused.
drop table if exists events;
create table events (id bigint not null, name text not null);
