// A log4j2.properties as a user of kubernetes.config-map writes one: a layout of the user's own,
// which marks every line an engine prints with it (`[user-log4j2] LEVEL …`), Hazelcast at INFO (the
// generated file keeps it at WARN) and the checkpoint coordinator at DEBUG (where it logs each
// checkpoint's trigger time).
export const USER_LOG4J2 = `status = warn
name = user-config
appender.console.type = Console
appender.console.name = out
appender.console.target = SYSTEM_OUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [user-log4j2] %-5p [%c{1}] - %m%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = out
logger.hazelcast.name = com.hazelcast
logger.hazelcast.level = INFO
logger.checkpoint.name = org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator
logger.checkpoint.level = DEBUG
`;
