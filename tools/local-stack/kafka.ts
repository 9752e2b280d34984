// A real Kafka broker for the data pipelines (the engine tier's tests and `npm run example -- --pipeline kafka-…`):
// a throw-away KRaft node of its own (one process that is broker and controller, formatted into a new directory,
// 127.0.0.1, two free ports), from the jars that tools/kafka/install.sh assembles. Stopped after use, its directory
// removed; a process that dies takes it along (the watchdog, as for PostgreSQL and the control plane's processes).
// Topics are created, filled and read back with TopicTool (tools/kafka/TopicTool.java), which counts exactly: it
// reads every partition to the end offsets it saw when it started.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installedHome } from './installed-home';
import { freePorts } from './ports';
import { ManagedProcess, processStartTime } from './process';
import { waitFor } from './wait';
import { failedStart, removeService } from './throwaway-service';
import { startWatchdog } from './watchdog';

/** What TopicTool does with a broker's topics (tools/kafka/TopicTool.java), wherever it runs. */
export interface Topics {
  /** A topic with this many partitions (replication 1), returned once each partition has a leader. */
  createTopic(name: string, partitions: number): Promise<void>;
  /** One record per line (the line is its value, no key), each acknowledged by the broker; resolves to their number. */
  produce(topic: string, lines: readonly string[]): Promise<number>;
  /** Every record's value (null for a null value), partition by partition, up to the end offsets at the call. */
  messages(topic: string): Promise<Array<string | null>>;
}

/**
 * Topics through TopicTool, given how to run it (`run(args, stdin)` resolves with its stdout) and the broker's
 * address as TopicTool dials it: the operations, their inputs checked and their output read the one way.
 */
export function topicTool(run: (args: string[], stdin?: string) => Promise<string>, bootstrap: string): Topics {
  return {
    async createTopic(name, partitions) {
      await run(['create', bootstrap, name, String(partitions)]);
    },
    async produce(topic, lines) {
      if (lines.some((l) => l.includes('\n'))) throw new Error('produce: a line holds a newline (one record per line)');
      const out = await run(['produce', bootstrap, topic], lines.map((l) => `${l}\n`).join(''));
      const m = /^produced (\d+)$/m.exec(out);
      if (!m || Number(m[1]) !== lines.length)
        throw new Error(`produce ${topic}: ${lines.length} lines sent, TopicTool says "${out.trim()}"`);
      return lines.length;
    },
    async messages(topic) {
      const out = await run(['read', bootstrap, topic]);
      return out
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as string | null);
    },
  };
}

export interface Kafka extends Topics {
  /** `127.0.0.1:<port>`, what a client's `bootstrap.servers` names. */
  readonly bootstrap: string;
  /** Its files (server.properties, data, kafka.log), removed by stop(). */
  readonly dir: string;
  /** Milliseconds from the broker's start to its "started" line (formatting the directory not included). */
  readonly startMs: number;
  /** What the pipelines' job configs read from the environment (apps/examples/pipelines/kafka-*: KAFKA_BOOTSTRAP). */
  connectionEnv(): Record<string, string>;
  stop(): Promise<void>;
}

/** The broker's heap: a few test topics need little, and it shares 2 cores and the memory with Zeta's JVMs. */
const BROKER_JVM = ['-Xms128m', '-Xmx256m', '-XX:+UseSerialGC', '-Djava.awt.headless=true'];
/** TopicTool is a short client: start fast, log only what is wrong. */
const TOOL_JVM = [
  '-Xmx128m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
];
/** slf4j-simple's line once the broker has caught up with the metadata and is unfenced: it serves clients now. */
const STARTED = /KafkaRaftServer nodeId=\d+\] Kafka Server started/;

/** A KRaft cluster id: 16 random bytes, base64url without padding (Kafka's Uuid), not starting with '-'. */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function serverProperties(dir: string, brokerPort: number, controllerPort: number): string {
  return [
    '# written by tools/local-stack/kafka.ts: one KRaft node, broker and controller, on 127.0.0.1',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${path.join(dir, 'data')}`,
    // A topic a job writes to must have been created: a misspelt topic fails the job instead of appearing.
    'auto.create.topics.enable=false',
    // One broker: every internal topic with one replica, and one partition each (the defaults, 50, cost seconds).
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'group.initial.rebalance.delay.ms=0',
    '',
  ].join('\n');
}

/** Runs `java` to its end; stdout on success, an error with stderr's last lines otherwise. */
function java(args: string[], opts: { stdin?: string; pidFile?: string; what: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    // Listed for the watchdog too: a test process killed meanwhile leaves no client behind.
    if (opts.pidFile && child.pid !== undefined)
      fs.appendFileSync(opts.pidFile, `${child.pid} ${processStartTime(child.pid) ?? '-'} ${opts.what}\n`);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const tail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-15).join('\n');
      reject(new Error(`${opts.what} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}:\n${tail}`));
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

export async function startKafka(): Promise<Kafka> {
  const home = installedHome('kafka');
  const libs = `${path.join(home, 'libs')}/*`;
  const toolClasspath = `${path.join(home, 'classes')}:${libs}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-kafka-'));
  const pidFile = path.join(dir, 'pids');
  const watchdog = startWatchdog({ pidFile, dir, keepDir: false });
  const [brokerPort, controllerPort] = await freePorts(2);
  const properties = path.join(dir, 'server.properties');
  fs.writeFileSync(properties, serverProperties(dir, brokerPort, controllerPort));
  const bootstrap = `127.0.0.1:${brokerPort}`;

  let server: ManagedProcess | undefined;
  const t0 = Date.now();
  try {
    // KRaft needs its log directory formatted with a cluster id (and the node's metadata) before the first start.
    await java(['-cp', libs, ...TOOL_JVM, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', properties], {
      pidFile,
      what: 'kafka.tools.StorageTool format',
    });
    const started = Date.now();
    server = await ManagedProcess.start({
      name: 'kafka',
      command: 'java',
      args: [...BROKER_JVM, '-cp', libs, 'kafka.Kafka', properties],
      logFile: path.join(dir, 'kafka.log'),
      pidFile,
    });
    const broker = server;
    await waitFor(() => STARTED.test(fs.readFileSync(broker.logFile, 'utf8')), {
      description: `the Kafka broker on ${bootstrap} to say "Kafka Server started"`,
      timeoutMs: 90_000,
      intervalMs: 100,
      guard: () => broker.assertRunning(),
    });
    const startMs = Date.now() - started;
    process.stderr.write(
      `[kafka] broker on ${bootstrap} ready in ${(startMs / 1000).toFixed(1)} s (${((Date.now() - t0) / 1000).toFixed(1)} s with formatting; ${dir})\n`,
    );

    const tool = (args: string[], stdin?: string) =>
      java(['-cp', toolClasspath, ...TOOL_JVM, 'org.seatunnelapp.kafka.TopicTool', ...args], {
        stdin,
        pidFile,
        what: `TopicTool ${args[0]} ${args[2]}`,
      });
    return {
      bootstrap,
      dir,
      startMs,
      connectionEnv: () => ({ KAFKA_BOOTSTRAP: bootstrap }),
      ...topicTool(tool, bootstrap),
      // SIGTERM: a controlled shutdown, a second or two; the data is thrown away either way.
      stop: () => removeService(broker, watchdog, dir, 10_000),
    };
  } catch (e) {
    return failedStart(e, server, watchdog, dir);
  }
}
