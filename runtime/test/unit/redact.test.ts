// Zeta's error text on the Job (issue 27, item 8): the message annotation and the Events are
// readable with `view` on the namespace, so credentials in connector exceptions are replaced and
// Zeta's part is bounded; the runtime's log keeps the whole text.
import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import { EngineRejected } from '../../src/engine/port';
import { engineText, MAX_ENGINE_TEXT, redact } from '../../src/report/redact';
import { setup } from './lifecycle-setup';

const LEAK =
  'java.sql.SQLException: Access denied: jdbc:mysql://etl:S3cr3t-pw@db.internal:3306/orders?user=etl&password=hunter2&useSSL=true';

test.each([
  ['a URL with a password', 'jdbc:postgresql://u:pa55@h/db', 'jdbc:postgresql://u:***@h/db'],
  ['a JDBC query parameter', 'jdbc:mysql://h/db?user=u&password=pa55&x=1', 'jdbc:mysql://h/db?user=u&password=***&x=1'],
  [
    'a SQL Server property',
    'jdbc:sqlserver://h;user=sa;password=Pa55;database=x',
    'jdbc:sqlserver://h;user=sa;password=***;database=x',
  ],
  ['a quoted JAAS password', 'username="u" password="p w";', 'username="u" password=***;'],
  ['a JSON property', '{"password":"pa55","user":"u"}', '{"password":***,"user":"u"}'],
  ['a bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def', 'Authorization: *** ***'],
  ['cloud keys', 'secret_key=AKIA1 accessKeyId=AKIA2', 'secret_key=*** accessKeyId=***'],
])('%s is replaced by ***', (_what, text, expected) => {
  expect(redact(text)).toBe(expected);
});

test('text without credentials is left as it is', () => {
  const text =
    "ErrorCode:[API-06], ErrorDescription:[Factory initialize failed] - Unable to create a source for identifier 'FakeSource'.";
  expect(redact(text)).toBe(text);
});

test("Zeta's part is its first line, bounded", () => {
  expect(engineText(`${'x'.repeat(5000)}\n\tat y`)).toHaveLength(MAX_ENGINE_TEXT);
});

test("a failed job's JDBC URL with credentials reaches neither the message annotation nor an Event; the log keeps it", async () => {
  const s = setup();
  s.engine.script = (n) => (n >= 2 ? 'FAILED' : 'RUNNING');
  s.engine.errorMsg = `${LEAK}\n\tat com.mysql.cj.jdbc.ConnectionImpl.<init>(ConnectionImpl.java:1)`;
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'JobFailed', state: 'FAILED' });
  const written = [
    s.kube.annotations[ANNOTATIONS.message],
    ...s.kube.annotationPatches.map((p) => p[ANNOTATIONS.message]),
    ...s.kube.events.map((e) => e.message),
  ].join('\n');
  expect(written).toContain('jdbc:mysql://etl:***@db.internal:3306/orders?user=etl&password=***');
  expect(written).not.toContain('S3cr3t-pw');
  expect(written).not.toContain('hunter2');
  expect(s.log.lines.join('\n')).toContain('hunter2');
});

test('a job Zeta refuses: its text on the Job is redacted too', async () => {
  const s = setup();
  s.engine.submitError = new EngineRejected(`POST /submit-job: HTTP 500: ${LEAK}`, 500);
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'JobRejected' });
  const written = [s.kube.annotations[ANNOTATIONS.message], ...s.kube.events.map((e) => e.message)].join('\n');
  expect(written).toMatch(/Zeta refused the job: .*password=\*\*\*/);
  expect(written).not.toContain('hunter2');
});
