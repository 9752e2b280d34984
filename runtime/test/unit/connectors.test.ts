// A connector the job names and the image lacks fails the application before anything starts
// (runtime/src/engine/connectors.ts), instead of Zeta's HTTP 500 "Plugin … not found" at submission.
import { connectorNeeds, missingConnectors, parsePluginMapping } from '../../src/engine/connectors';
import { setup } from './lifecycle-setup';

const MAPPING = `# SeaTunnel's own comments
seatunnel.source.FakeSource = connector-fake
seatunnel.sink.Console = connector-console
seatunnel.source.Jdbc = connector-jdbc
seatunnel.sink.Jdbc = connector-jdbc
seatunnel.sink.Kafka: connector-kafka
`;
const JARS = [
  'plugin-mapping.properties',
  'connector-fake-2.3.8.jar',
  'connector-console-2.3.8.jar',
  'connector-jdbc-2.3.8.jar',
];

const body = (sources: string[], sinks: string[]) =>
  JSON.stringify({
    env: { 'job.mode': 'BATCH' },
    source: sources.map((plugin_name) => ({ plugin_name, result_table_name: 't' })),
    transform: [{ plugin_name: 'Sql', query: 'select 1' }],
    sink: sinks.map((plugin_name) => ({ plugin_name })),
  });

test('the sources and sinks a job names, once each; transforms are not connectors', () => {
  expect(connectorNeeds(body(['Jdbc', 'Jdbc', 'FakeSource'], ['Console']))).toEqual([
    { kind: 'source', plugin: 'Jdbc' },
    { kind: 'source', plugin: 'FakeSource' },
    { kind: 'sink', plugin: 'Console' },
  ]);
  expect(connectorNeeds(JSON.stringify({ env: {} }))).toEqual([]);
});

test("plugin-mapping.properties as Java reads it: '=' or ':', comments, keys ignoring case", () => {
  const m = parsePluginMapping(MAPPING);
  expect(m.get('seatunnel.sink.kafka')).toBe('connector-kafka');
  expect(m.get('seatunnel.source.fakesource')).toBe('connector-fake');
  expect(m.size).toBe(5);
});

test('a plugin without a mapping line, or whose jar is not in connectors/, is named; what is there passes', () => {
  const home = { mapping: MAPPING, jars: JARS };
  expect(missingConnectors(connectorNeeds(body(['fakesource', 'Jdbc'], ['JDBC', 'Console'])), home)).toEqual([]);
  expect(missingConnectors(connectorNeeds(body(['MySQL-CDC'], ['Kafka'])), home)).toEqual([
    "source MySQL-CDC: no line 'seatunnel.source.MySQL-CDC = <jar prefix>' in connectors/plugin-mapping.properties",
    'sink Kafka: connectors/ has no connector-kafka-<version>.jar (plugin-mapping.properties maps it there)',
  ]);
});

describe('in the lifecycle', () => {
  /** An application whose image's engine home has connectors/ with `jars` and MAPPING. */
  const withHome = (jars: string[] | undefined) => {
    const s = setup();
    s.files.set('/opt/seatunnel/connectors/plugin-mapping.properties', MAPPING);
    if (jars) s.dirs.set('/opt/seatunnel/connectors', jars);
    return s;
  };

  test('ConnectorMissing (a configuration error, exit 4) before a worker or the engine starts', async () => {
    const s = withHome(['connector-fake-2.3.8.jar']);
    const outcome = await s.run();
    expect(outcome.reason).toBe('ConnectorMissing');
    expect(outcome.exitCode).toBe(4);
    expect(outcome.message).toContain('sink Console: connectors/ has no connector-console-<version>.jar');
    expect(outcome.message).toContain('/opt/seatunnel');
    expect(s.engine.started).toBe(false);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toEqual([]);
  });

  test('what the job names is there: it runs', async () => {
    const s = withHome(JARS);
    s.engine.script = () => 'FINISHED';
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.log.lines.some((l) => /connectors present/.test(l) && /source:FakeSource/.test(l))).toBe(true);
  });

  test('an engine home without a readable connectors/ (another layout) is not judged', async () => {
    const s = withHome(undefined);
    s.engine.script = () => 'FINISHED';
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.log.lines.some((l) => /connectors not checked/.test(l))).toBe(true);
  });
});
