-- The pipeline's target. No primary key on purpose: a message written twice is counted by check.sql, not refused.
drop table if exists kafka_events;
create table kafka_events (id bigint not null, name text not null, amount numeric(12,2) not null);
