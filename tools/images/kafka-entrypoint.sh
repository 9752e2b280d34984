#!/bin/bash
# The kafka image's entry point (tools/images/build.sh kafka): one KRaft node that is broker and controller, as
# the engine tier's throw-away broker (tools/local-stack/kafka.ts), for a Pod. Clients reach it at the address a
# Service gives it, so that is what it advertises: KAFKA_ADVERTISED_HOST (required; e.g. kafka.<namespace>.svc),
# port KAFKA_PORT (9092). The controller listens on 127.0.0.1:9093 only, and so does a second listener, 9094, that
# advertises itself as 127.0.0.1:9094: tools in the broker's own container (topic-tool) stay in it, where the
# Service's address would have to come back to the Pod that backs it (hairpin traffic, which not every network has). The log directory (KAFKA_DATA,
# /var/lib/kafka) is formatted with a new cluster id on the first start and kept after: a restarted container
# keeps its topics when the directory is a volume. Arguments are passed to the broker's JVM (KAFKA_HEAP_OPTS sets
# its heap, -Xms128m -Xmx256m by default).
set -euo pipefail

host="${KAFKA_ADVERTISED_HOST:-}"
port="${KAFKA_PORT:-9092}"
data="${KAFKA_DATA:-/var/lib/kafka}"
[[ -n $host ]] || { echo "kafka-entrypoint: KAFKA_ADVERTISED_HOST is not set (the name clients reach the broker at)" >&2; exit 64; }
[[ $host =~ ^[A-Za-z0-9.-]+$ ]] || { echo "kafka-entrypoint: KAFKA_ADVERTISED_HOST '$host' is not a host name" >&2; exit 64; }
[[ $port =~ ^[1-9][0-9]{0,4}$ && $port -le 65535 && $port != 9093 && $port != 9094 ]] ||
  { echo "kafka-entrypoint: KAFKA_PORT '$port' is not a port other than 9093 and 9094 (the controller's, the local one)" >&2; exit 64; }

mkdir -p "$data"
props="$data/server.properties"
cat >"$props" <<EOF
# written by kafka-entrypoint (tools/images/kafka-entrypoint.sh)
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:9093
listeners=PLAINTEXT://0.0.0.0:${port},LOCAL://127.0.0.1:9094,CONTROLLER://127.0.0.1:9093
advertised.listeners=PLAINTEXT://${host}:${port},LOCAL://127.0.0.1:9094
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,LOCAL:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=${data}/log
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
EOF

classpath='/opt/kafka/libs/*'
tool_jvm=(-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
if [[ ! -f $data/log/meta.properties ]]; then
  id="$(java -cp "$classpath" "${tool_jvm[@]}" kafka.tools.StorageTool random-uuid)"
  java -cp "$classpath" "${tool_jvm[@]}" kafka.tools.StorageTool format -t "$id" -c "$props" >&2
fi
# shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of JVM options
exec java ${KAFKA_HEAP_OPTS:--Xms128m -Xmx256m} -XX:+UseSerialGC -Djava.awt.headless=true "$@" -cp "$classpath" kafka.Kafka "$props"
