// The test side of the throw-away Kafka broker (tools/local-stack/kafka.ts): create a topic, produce lines into it,
// read back everything in it. Kafka's own shell tools do each of these too, but each is a JVM start of its own and
// their output is meant for people; this one reads a topic exactly to the end offsets it saw at start, and prints
// every value as one JSON string per line, so a value with a newline or a null is still counted once.
//
//   java -cp "<home>/classes:<home>/libs/*" org.seatunnelapp.kafka.TopicTool create <bootstrap> <topic> <partitions>
//   ... TopicTool produce <bootstrap> <topic>      one record per line of stdin (the line is the value, no key)
//   ... TopicTool read <bootstrap> <topic>         stdout: one JSON string (or null) per record, partition by partition
//
// Exit codes: 0 ok; 1 the operation failed or timed out (the reason on stderr); 2 usage.
package org.seatunnelapp.kafka;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class TopicTool {
  private static final long TIMEOUT_MS = 60_000;

  public static void main(String[] args) throws Exception {
    if (args.length < 3) usage();
    String bootstrap = args[1];
    String topic = args[2];
    switch (args[0]) {
      case "create":
        if (args.length != 4) usage();
        create(bootstrap, topic, Integer.parseInt(args[3]));
        break;
      case "produce":
        if (args.length != 3) usage();
        produce(bootstrap, topic);
        break;
      case "read":
        if (args.length != 3) usage();
        read(bootstrap, topic);
        break;
      default:
        usage();
    }
  }

  private static void usage() {
    System.err.println("usage: TopicTool create <bootstrap> <topic> <partitions> | produce <bootstrap> <topic> | read <bootstrap> <topic>");
    System.exit(2);
  }

  private static void fail(String message) {
    System.err.println("TopicTool: " + message);
    System.exit(1);
  }

  /** Creates the topic (replication 1: one broker) and returns once every partition has a leader. */
  private static void create(String bootstrap, String topic, int partitions) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      long deadline = System.currentTimeMillis() + TIMEOUT_MS;
      for (;;) {
        TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
        if (d.partitions().size() == partitions && d.partitions().stream().allMatch(i -> i.leader() != null)) break;
        if (System.currentTimeMillis() > deadline) fail("topic " + topic + ": not every partition has a leader after " + TIMEOUT_MS + " ms");
        Thread.sleep(100);
      }
    }
    System.out.println("created " + topic + " with " + partitions + " partitions");
  }

  /**
   * Every line of stdin as one record. Idempotent and acks=all: a retried send is not written twice, and the count
   * printed is of records the broker acknowledged.
   */
  private static void produce(String bootstrap, String topic) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) sent.add(producer.send(new ProducerRecord<>(topic, line)));
      producer.flush();
      for (Future<RecordMetadata> f : sent) f.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
    System.out.println("produced " + sent.size());
  }

  /**
   * Every record of every partition from its beginning to the end offset it had when the read started (committed
   * records only: a transaction still open or aborted is not counted), in partition order.
   */
  private static void read(String bootstrap, String topic) throws Exception {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    long count = 0;
    BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofMillis(TIMEOUT_MS));
      if (infos == null || infos.isEmpty()) fail("topic " + topic + " does not exist");
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo i : infos) partitions.add(new TopicPartition(topic, i.partition()));
      Collections.sort(partitions, (a, b) -> Integer.compare(a.partition(), b.partition()));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofMillis(TIMEOUT_MS));
      for (;;) {
        boolean done = true;
        for (TopicPartition tp : partitions) done &= consumer.position(tp, Duration.ofMillis(TIMEOUT_MS)) >= end.get(tp);
        if (done) break;
        if (System.currentTimeMillis() > deadline) fail("topic " + topic + ": not read to its end offsets " + end + " in " + TIMEOUT_MS + " ms");
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          // Past the end seen at start: written meanwhile, not part of this read.
          if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) continue;
          out.write(r.value() == null ? "null" : quote(r.value()));
          out.write('\n');
          count++;
        }
      }
      out.flush();
      System.err.println("TopicTool: read " + count + " records of " + topic + " (" + partitions.size() + " partitions, end offsets " + end + ")");
    }
  }

  /** A JSON string literal. */
  private static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
