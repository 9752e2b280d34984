// Test data: the `config/` directory of an unchanged SeaTunnel 2.3.8 binary distribution, as a
// drop-in user turns it into a ConfigMap (`kubectl create configmap … --from-file=config/`).
// Written for these tests from the values the 2.3.8 release ships (its license headers left out;
// log4j2.properties shortened to the appenders the engine uses, and the job templates and the
// env scripts, which no engine reads, to a line each).

export const STOCK_SEATUNNEL_YAML = `seatunnel:
  engine:
    history-job-expire-minutes: 1440
    backup-count: 1
    queue-type: blockingqueue
    print-execution-info-interval: 60
    print-job-metrics-info-interval: 60
    slot-service:
      dynamic-slot: true
    checkpoint:
      interval: 10000
      timeout: 60000
      storage:
        type: hdfs
        max-retained: 3
        plugin-config:
          namespace: /tmp/seatunnel/checkpoint_snapshot
          storage.type: hdfs
          fs.defaultFS: file:///tmp/ # Ensure that the directory has written permission
    telemetry:
      metric:
        enabled: false
`;

const HAZELCAST_PROPERTIES = `  properties:
    hazelcast.invocation.max.retry.count: 20
    hazelcast.tcp.join.port.try.count: 30
    hazelcast.logging.type: log4j2
    hazelcast.operation.generic.thread.count: 50
    hazelcast.heartbeat.failuredetector.type: phi-accrual
    hazelcast.heartbeat.interval.seconds: 2
    hazelcast.max.no.heartbeat.seconds: 180
    hazelcast.heartbeat.phiaccrual.failuredetector.threshold: 10
    hazelcast.heartbeat.phiaccrual.failuredetector.sample.size: 200
    hazelcast.heartbeat.phiaccrual.failuredetector.min.std.dev.millis: 100
`;

const REST_API = `    rest-api:
      enabled: true
      endpoint-groups:
        CLUSTER_WRITE:
          enabled: true
        DATA:
          enabled: true
`;

/** The per-role files list both members of a master + worker pair on one host. */
const SEPARATED_JOIN = `    join:
      tcp-ip:
        enabled: true
        member-list:
          - localhost:5801
          - localhost:5802
`;

export const STOCK_HAZELCAST_YAML = `hazelcast:
  cluster-name: seatunnel
  network:
${REST_API}    join:
      tcp-ip:
        enabled: true
        member-list:
          - localhost
    port:
      auto-increment: false
      port: 5801
${HAZELCAST_PROPERTIES}`;

export const STOCK_HAZELCAST_MASTER_YAML = `hazelcast:
  cluster-name: seatunnel
  network:
${REST_API}${SEPARATED_JOIN}    port:
      auto-increment: false
      port: 5801
${HAZELCAST_PROPERTIES}`;

export const STOCK_HAZELCAST_WORKER_YAML = `hazelcast:
  cluster-name: seatunnel
  network:
${SEPARATED_JOIN}    port:
      auto-increment: false
      port: 5802
${HAZELCAST_PROPERTIES}`;

export const STOCK_HAZELCAST_CLIENT_YAML = `hazelcast-client:
  cluster-name: seatunnel
  properties:
    hazelcast.logging.type: log4j2
  connection-strategy:
    connection-retry:
      cluster-connect-timeout-millis: 3000
  network:
    cluster-members:
      - localhost:5801
`;

/** jvm_options, jvm_master_options and jvm_worker_options ship the same lines. */
export const STOCK_JVM_OPTIONS = `# JVM Heap
-Xms2g
-Xmx2g

# JVM Dump
-XX:+HeapDumpOnOutOfMemoryError
-XX:HeapDumpPath=/tmp/seatunnel/dump/zeta-server

# Metaspace
-XX:MaxMetaspaceSize=2g

# G1GC
-XX:+UseG1GC
`;

export const STOCK_JVM_CLIENT_OPTIONS = `# JVM Heap
-Xms256m
-Xmx512m

# JVM Dump
-XX:+HeapDumpOnOutOfMemoryError
-XX:HeapDumpPath=/tmp/seatunnel/dump/zeta-client
`;

/** The engine's logs in files under -Dseatunnel.logs.path, as the distribution's file does. */
export const STOCK_LOG4J2 = `property.file_path = \${sys:seatunnel.logs.path:-/tmp/seatunnel/logs}
property.file_name = \${sys:seatunnel.logs.file_name:-seatunnel}
rootLogger.level = INFO
logger.zeta.name=org.apache.seatunnel.engine
logger.zeta.level=INFO
rootLogger.appenderRef.file.ref = fileAppender
appender.file.name = fileAppender
appender.file.type = RollingFile
appender.file.fileName = \${file_path}/\${file_name}.log
appender.file.filePattern = \${file_path}/\${file_name}.log.%d{yyyy-MM-dd}-%i
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%X{ST-JID}] %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%-30.30c{1.}] [%t] - %m%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 100MB
`;

export const STOCK_LOG4J2_CLIENT = `rootLogger.level = INFO
rootLogger.appenderRef.consoleStdout.ref = consoleStdoutAppender
appender.consoleStdout.name = consoleStdoutAppender
appender.consoleStdout.type = CONSOLE
appender.consoleStdout.target = SYSTEM_OUT
appender.consoleStdout.layout.type = PatternLayout
appender.consoleStdout.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%-30.30c{1.}] [%t] - %m%n
`;

/** Every file of the 2.3.8 `config/` directory, by name. */
export const STOCK_CONFIG_2_3_8: Readonly<Record<string, string>> = {
  'seatunnel.yaml': STOCK_SEATUNNEL_YAML,
  'hazelcast.yaml': STOCK_HAZELCAST_YAML,
  'hazelcast-master.yaml': STOCK_HAZELCAST_MASTER_YAML,
  'hazelcast-worker.yaml': STOCK_HAZELCAST_WORKER_YAML,
  'hazelcast-client.yaml': STOCK_HAZELCAST_CLIENT_YAML,
  jvm_options: STOCK_JVM_OPTIONS,
  jvm_master_options: STOCK_JVM_OPTIONS,
  jvm_worker_options: STOCK_JVM_OPTIONS,
  jvm_client_options: STOCK_JVM_CLIENT_OPTIONS,
  'log4j2.properties': STOCK_LOG4J2,
  'log4j2_client.properties': STOCK_LOG4J2_CLIENT,
  plugin_config: '--connectors-v2--\nconnector-fake\nconnector-console\n--end--\n',
  'seatunnel-env.sh': 'SPARK_HOME=${SPARK_HOME:-/opt/spark}\nFLINK_HOME=${FLINK_HOME:-/opt/flink}\n',
  'seatunnel-env.cmd': 'set "SPARK_HOME=%SPARK_HOME%"\n',
  'v2.batch.config.template':
    'env { parallelism = 2, job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 16 } }\nsink { Console {} }\n',
  'v2.streaming.conf.template':
    'env { parallelism = 2, job.mode = "STREAMING" }\nsource { FakeSource { plugin_output = "fake", row.num = 16 } }\nsink { Console {} }\n',
};
