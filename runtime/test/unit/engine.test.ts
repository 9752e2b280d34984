import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { zetaClasspath, zetaCommand } from 'seatunnel-app/internal/engine/command';
import { renderEngineFiles, MASTER_HOST_PLACEHOLDER } from 'seatunnel-app/internal/engine/files';
import { spec } from '../../../test/support/fixtures';
import { checkpointLocation, requireCheckpoint } from '../../src/engine/checkpoints';
import { coreSiteXml, javaAndClasspath, parseListing } from '../../src/engine/hadoop-list';
import { completeEngineFile, writeEngineFiles } from '../../src/engine/config-files';
import { EngineRejected, EngineUnavailable } from '../../src/engine/port';
import { ZetaRest } from '../../src/engine/zeta-rest';
import { RuntimeFailure } from '../../src/outcome';

describe('engine files', () => {
  const files = renderEngineFiles(spec({ applicationId: 'app-1' })).files;

  test('the placeholder is replaced by the Pod IP (IPv6 in brackets); nothing else changes', () => {
    const master = files['hazelcast-master.yaml'];
    expect(master).toContain(MASTER_HOST_PLACEHOLDER);
    const v4 = completeEngineFile(master, '10.244.0.5');
    expect(v4).not.toContain(MASTER_HOST_PLACEHOLDER);
    expect(v4).toContain('public-address: 10.244.0.5:5801');
    expect(v4).toContain('- 10.244.0.5:5801');
    // IPv6: valid YAML with the bracketed address (a plain `[` would open a YAML sequence)
    const v6 = parse(completeEngineFile(master, 'fd00::5', 'hazelcast-master.yaml'));
    expect(v6.hazelcast.network['public-address']).toBe('[fd00::5]:5801');
    expect(v6.hazelcast.network.join['tcp-ip']['member-list']).toEqual(['[fd00::5]:5801']);
    expect(completeEngineFile(master, '10.0.0.1').split('10.0.0.1').join(MASTER_HOST_PLACEHOLDER)).toBe(master);
  });

  test('every file of a mounted ConfigMap directory is copied (kubelet ..data links skipped)', () => {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cm-'));
    const data = path.join(src, '..2026_01_01');
    fs.mkdirSync(data);
    for (const [name, content] of Object.entries(files)) {
      fs.writeFileSync(path.join(data, name), content);
      fs.symlinkSync(path.join('..2026_01_01', name), path.join(src, name));
    }
    fs.symlinkSync('..2026_01_01', path.join(src, '..data'));
    const dst = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'st-work-')), 'engine');
    const written = writeEngineFiles(src, dst, '10.1.2.3').names;
    expect(written).toEqual(Object.keys(files).sort());
    expect(fs.readdirSync(dst).sort()).toEqual(Object.keys(files).sort());
    expect(fs.readFileSync(path.join(dst, 'hazelcast-master.yaml'), 'utf8')).toContain('10.1.2.3:5801');
    expect(fs.readFileSync(path.join(dst, 'seatunnel-worker.yaml'), 'utf8')).toBe(files['seatunnel-worker.yaml']);
    expect(() => writeEngineFiles('/nonexistent', dst, 'x')).toThrow(RuntimeFailure);
  });
});

describe('restore checkpoints', () => {
  const pvcEngine = renderEngineFiles(spec({ checkpointPvc: 'ckpt' })).files['seatunnel-master.yaml'];

  test('the generated engine file with a PVC keeps checkpoints locally under /opt/seatunnel/checkpoints/', () => {
    expect(checkpointLocation(pvcEngine)).toEqual({ kind: 'local', namespace: '/opt/seatunnel/checkpoints/' });
  });

  test('files found → ok; none → CheckpointNotFound, never a fresh start', async () => {
    const readdir = (dir: string) => {
      if (dir === '/opt/seatunnel/checkpoints/4711')
        return ['1795944094278-806-1-1.ser', '1795944094278-806-1-1.ser.crc', '1795944094279-806-1-2.ser'];
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(await requireCheckpoint(pvcEngine, '4711', { readdir })).toEqual([
      '/opt/seatunnel/checkpoints/4711/1795944094278-806-1-1.ser',
      '/opt/seatunnel/checkpoints/4711/1795944094279-806-1-2.ser',
    ]);
    const err = await requireCheckpoint(pvcEngine, '4712', { readdir }).catch((e: unknown) => e as RuntimeFailure);
    expect((err as RuntimeFailure).reason).toBe('CheckpointNotFound');
    expect((err as RuntimeFailure).message).toMatch(/no checkpoint found under \/opt\/seatunnel\/checkpoints\/4712\//);
  });

  const hdfsEngine = (pluginConfig: string) =>
    `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        type: hdfs\n        plugin-config:\n          storage.type: hdfs\n${pluginConfig}`;

  test('HDFS: the location carries what the hdfs plugin gives Hadoop (fs.defaultFS, seatunnel.hadoop.*, hdfs_site_path)', () => {
    const yaml = hdfsEngine(
      '          fs.defaultFS: hdfs://nn:8020\n          namespace: /st/ckpt\n          seatunnel.hadoop.dfs.replication: 1\n          hdfs_site_path: /etc/hadoop/hdfs-site.xml\n',
    );
    expect(checkpointLocation(yaml)).toEqual({
      kind: 'hadoop',
      namespace: '/st/ckpt',
      hadoop: {
        properties: { 'fs.defaultFS': 'hdfs://nn:8020', 'dfs.replication': '1' },
        hdfsSitePath: '/etc/hadoop/hdfs-site.xml',
      },
      description: 'hdfs/hdfs at hdfs://nn:8020, namespace /st/ckpt',
    });
  });

  test('HDFS: lists <namespace>/<jobId>/ with the Hadoop client; .ser files → ok, none → CheckpointNotFound naming the directory', async () => {
    const yaml = hdfsEngine('          fs.defaultFS: hdfs://127.0.0.1:9000\n          namespace: /st/ckpt\n');
    const asked: string[] = [];
    const listHadoop = async (_c: unknown, dir: string) => {
      asked.push(dir);
      return dir === '/st/ckpt/4711/' ? ['/st/ckpt/4711/1-806-1-1.ser', '/st/ckpt/4711/1-806-1-1.ser.tmp'] : [];
    };
    expect(await requireCheckpoint(yaml, '4711', { listHadoop })).toEqual(['/st/ckpt/4711/1-806-1-1.ser']);
    const err = (await requireCheckpoint(yaml, '4712', { listHadoop }).catch((e: unknown) => e)) as RuntimeFailure;
    expect(asked).toEqual(['/st/ckpt/4711/', '/st/ckpt/4712/']);
    expect(err.reason).toBe('CheckpointNotFound');
    expect(err.message).toMatch(/no checkpoint found under \/st\/ckpt\/4712\/ on hdfs:\/\/127\.0\.0\.1:9000/);
  });

  test('HDFS that cannot be listed: CheckpointNotFound with the reason, never a fresh start', async () => {
    const yaml = hdfsEngine('          fs.defaultFS: hdfs://127.0.0.1:9\n');
    const listHadoop = async () => {
      throw new Error('Hadoop FsShell exited with 1: ls: Call From x to 127.0.0.1:9 failed on connection exception');
    };
    const err = (await requireCheckpoint(yaml, '1', { listHadoop }).catch((e: unknown) => e)) as RuntimeFailure;
    expect(err.reason).toBe('CheckpointNotFound');
    expect(err.message).toMatch(/could not be listed: .*connection exception/);
  });

  const s3Engine = (pluginConfig: string) =>
    `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        type: hdfs\n        plugin-config:\n          storage.type: s3\n${pluginConfig}`;

  test('S3 through S3A: the location carries what the plugin gives Hadoop (the bucket as fs.defaultFS, S3A, every fs.s3a.* key)', () => {
    const yaml = s3Engine(
      '          s3.bucket: s3a://checkpoints\n          namespace: /st/ckpt/\n          fs.s3a.endpoint: http://127.0.0.1:9000\n' +
        '          fs.s3a.path.style.access: true\n          fs.s3a.aws.credentials.provider: com.amazonaws.auth.EnvironmentVariableCredentialsProvider\n' +
        '          seatunnel.hadoop.ignored: x\n',
    );
    expect(checkpointLocation(yaml)).toEqual({
      kind: 'hadoop',
      namespace: '/st/ckpt/',
      hadoop: {
        properties: {
          'fs.defaultFS': 's3a://checkpoints',
          'fs.s3a.impl': 'org.apache.hadoop.fs.s3a.S3AFileSystem',
          'fs.s3a.impl.disable.cache': 'true',
          'fs.s3a.endpoint': 'http://127.0.0.1:9000',
          'fs.s3a.path.style.access': 'true',
          'fs.s3a.aws.credentials.provider': 'com.amazonaws.auth.EnvironmentVariableCredentialsProvider',
        },
      },
      description: 'hdfs/s3 at s3a://checkpoints, namespace /st/ckpt/',
    });
  });

  test('S3: lists <namespace><jobId>/ in the bucket; none → CheckpointNotFound naming the bucket, never a fresh start', async () => {
    const yaml = s3Engine('          s3.bucket: s3a://checkpoints\n          namespace: /st/ckpt/\n');
    const asked: string[] = [];
    const listHadoop = async (c: { properties: Readonly<Record<string, string>> }, dir: string) => {
      asked.push(`${c.properties['fs.defaultFS']}${dir}`);
      return dir === '/st/ckpt/4711/' ? ['s3a://checkpoints/st/ckpt/4711/1-806-1-1.ser'] : [];
    };
    expect(await requireCheckpoint(yaml, '4711', { listHadoop })).toEqual([
      's3a://checkpoints/st/ckpt/4711/1-806-1-1.ser',
    ]);
    const err = (await requireCheckpoint(yaml, '4712', { listHadoop }).catch((e: unknown) => e)) as RuntimeFailure;
    expect(asked).toEqual(['s3a://checkpoints/st/ckpt/4711/', 's3a://checkpoints/st/ckpt/4712/']);
    expect(err.reason).toBe('CheckpointNotFound');
    expect(err.message).toMatch(/no checkpoint found under \/st\/ckpt\/4712\/ on s3a:\/\/checkpoints/);
  });

  test('storage it cannot inspect (s3n or no bucket, OSS, Kerberos HDFS): the restore is refused rather than risk a fresh start', async () => {
    for (const pc of [
      '          s3.bucket: s3n://old\n          namespace: /ckpt/\n',
      '          fs.s3a.endpoint: x\n          namespace: /ckpt/\n',
      '          s3.bucket: s3a://\n',
    ]) {
      expect(checkpointLocation(s3Engine(pc)).kind).toBe('remote');
      await expect(requireCheckpoint(s3Engine(pc), '1')).rejects.toThrow(/cannot inspect/);
    }
    const oss =
      'seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        type: hdfs\n        plugin-config:\n          storage.type: oss\n          oss.bucket: oss://b\n';
    expect(checkpointLocation(oss).kind).toBe('remote');
    const kerberos = hdfsEngine(
      '          fs.defaultFS: hdfs://nn:8020\n          kerberosPrincipal: st@EXAMPLE\n          kerberosKeytabFilePath: /k\n',
    );
    expect(checkpointLocation(kerberos).kind).toBe('remote');
  });
});

describe('Hadoop listing (FsShell)', () => {
  test('java and classpath come from the master command line', () => {
    expect(
      javaAndClasspath(['/usr/bin/java', '-Xmx1g', '-cp', '/h/lib/*:/h/starter/x.jar', 'Main', '-r', 'master']),
    ).toEqual({
      java: '/usr/bin/java',
      classpath: '/h/lib/*:/h/starter/x.jar',
    });
    expect(() => javaAndClasspath(['java', 'Main'])).toThrow(/no classpath/);
  });

  test('with kubernetes.config-map the master command starts java through the JVM options launcher: java is found behind it', () => {
    const command = zetaCommand(spec({ runtimeConfigMap: 'seatunnel-config' }), 'master', {
      configDir: '/w/engine',
      logDir: '/w/logs',
    });
    expect(command[0]).toBe('/bin/sh');
    expect(javaAndClasspath(command)).toEqual({ java: 'java', classpath: zetaClasspath('/opt/seatunnel') });
  });

  test('core-site.xml escapes values', () => {
    expect(coreSiteXml({ 'fs.defaultFS': 'hdfs://a&b<c>' })).toContain('<value>hdfs://a&amp;b&lt;c&gt;</value>');
  });

  test('exit 0 → the paths; a missing directory → []; anything else → the error line', () => {
    expect(parseListing(0, '/c/1/a.ser\n/c/1/b.ser\n', '')).toEqual(['/c/1/a.ser', '/c/1/b.ser']);
    expect(parseListing(1, '', "ls: `/c/2/': No such file or directory\n")).toEqual([]);
    expect(() =>
      parseListing(1, '', 'SLF4J: x\nls: Call From h to 127.0.0.1:9 failed on connection exception\n'),
    ).toThrow(/exited with 1: ls: Call From .* connection exception/);
  });
});

describe('Zeta REST client', () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ method: string; url: string; body: string }> = [];
  let reply: (url: string) => [number, string] = () => [200, '{}'];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body });
        const [status, text] = reply(req.url!);
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const client = () => new ZetaRest({ host: '127.0.0.1', port, path: '/hazelcast/rest/maps' });

  test('overview: 2.3.8 strings and the `workers` field; REST v2 `works`', async () => {
    reply = () => [200, '{"projectVersion":"2.3.8","totalSlot":"6","unassignedSlot":"6","workers":"3"}'];
    expect(await client().overview()).toEqual({ workers: 3, totalSlot: 6 });
    reply = () => [200, '{"totalSlot":4,"works":2}'];
    expect(await client().overview()).toEqual({ workers: 2, totalSlot: 4 });
    expect(seen[seen.length - 1].url).toBe('/hazelcast/rest/maps/overview');
  });

  test('submit sends the job id, name and restore flag as query, the config as the body', async () => {
    reply = () => [200, '{"jobId":"9223372036854775807","jobName":"orders"}'];
    expect(await client().submit('9223372036854775807', 'orders', '{"env":{}}', true)).toBe('9223372036854775807');
    expect(seen[seen.length - 1]).toEqual({
      method: 'POST',
      url: '/hazelcast/rest/maps/submit-job?jobId=9223372036854775807&jobName=orders&isStartWithSavePoint=true',
      body: '{"env":{}}',
    });
  });

  test('stop-job keeps the 63-bit id exact', async () => {
    reply = () => [200, '{"jobId":"9223372036854775807"}'];
    await client().stopJob('9223372036854775807');
    expect(seen[seen.length - 1].body).toBe('{"jobId":9223372036854775807,"isStopWithSavePoint":false}');
    await client().stopJob('42', true);
    expect(seen[seen.length - 1].body).toBe('{"jobId":42,"isStopWithSavePoint":true}');
  });

  test('job-info: status and error; an unknown job has no status', async () => {
    reply = () => [200, '{"jobId":"5","jobStatus":"FAILED","errorMsg":"boom\\n\\tat x"}'];
    expect(await client().jobInfo('5')).toEqual({ jobId: '5', status: 'FAILED', errorMsg: 'boom\n\tat x' });
    reply = () => [200, '{"jobId":"4711"}'];
    expect(await client().jobInfo('4711')).toEqual({ jobId: '4711' });
  });

  test('a refusal is final; member churn, 5xx without a message and no answer are transient', async () => {
    reply = () => [
      500,
      '{"status":"fail","message":"ErrorCode:[API-06], ErrorDescription:[Factory initialize failed]\\n\\tat x"}',
    ];
    await expect(client().submit('1', 'n', '{}', false)).rejects.toBeInstanceOf(EngineRejected);
    reply = () => [400, '{"status":"fail","message":"Invalid JSON format in request body."}'];
    await expect(client().submit('1', 'n', '{}', false)).rejects.toBeInstanceOf(EngineRejected);
    reply = () => [
      500,
      '{"status":"fail","message":"com.hazelcast.core.MemberLeftException: Member [127.0.0.1]:5802 has left cluster!"}',
    ];
    await expect(client().jobInfo('1')).rejects.toBeInstanceOf(EngineUnavailable);
    reply = () => [503, ''];
    await expect(client().overview()).rejects.toBeInstanceOf(EngineUnavailable);
    await expect(new ZetaRest({ host: '127.0.0.1', port: 9, path: '' }).overview()).rejects.toBeInstanceOf(
      EngineUnavailable,
    );
  });
});
