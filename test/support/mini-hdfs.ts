// A real HDFS for the engine tier: Hadoop's MiniDFSCluster (one NameNode, one DataNode) in a child
// JVM bound to 127.0.0.1, assembled from Maven Central by tools/hdfs/install.sh. The child ends when
// its standard input closes, so a test process that dies takes it along.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installedHome } from '../../tools/local-stack/installed-home';

export interface MiniHdfs {
  /** `hdfs://127.0.0.1:<port>` */
  readonly uri: string;
  /** Full paths under `dir`, or [] when it does not exist (read through the cluster's own client). */
  list(dir: string): string[];
  stop(): Promise<void>;
}

export async function startMiniHdfs(baseDir: string, timeoutMs = 120_000): Promise<MiniHdfs> {
  const home = installedHome('hdfs');
  fs.mkdirSync(baseDir, { recursive: true });
  const classpath = `${home}/classes:${home}/lib/*`;
  // MiniDFSCluster empties its own directory when it formats: the log and client files stay beside it.
  const child: ChildProcess = spawn(
    'java',
    ['-Xmx384m', '-cp', classpath, 'org.seatunnelapp.hdfs.MiniHdfs', path.join(baseDir, 'dfs')],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, HADOOP_USER_NAME: process.env.USER ?? 'root' },
    },
  );
  const log = fs.createWriteStream(path.join(baseDir, 'mini-hdfs.log'));
  child.stderr!.pipe(log);
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`MiniHdfs did not start in ${timeoutMs} ms (log: ${baseDir}/mini-hdfs.log)`)),
      timeoutMs,
    );
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /^HDFS_URI=(hdfs:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`MiniHdfs exited with ${code} before it was ready (log: ${baseDir}/mini-hdfs.log)`));
    });
  });
  // Reads go through FsShell of the same Hadoop release, with fs.defaultFS in a core-site.xml.
  const confDir = path.join(baseDir, 'client-conf');
  fs.mkdirSync(confDir, { recursive: true });
  fs.writeFileSync(
    path.join(confDir, 'core-site.xml'),
    `<?xml version="1.0"?>\n<configuration><property><name>fs.defaultFS</name><value>${uri}</value></property></configuration>\n`,
  );
  return {
    uri,
    list(dir: string): string[] {
      try {
        return execFileSync(
          'java',
          ['-cp', `${confDir}:${classpath}`, 'org.apache.hadoop.fs.FsShell', '-ls', '-C', dir],
          {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        )
          .split('\n')
          .filter((l) => l.trim().length > 0);
      } catch (e) {
        if (/No such file or directory/.test(String((e as { stderr?: string }).stderr))) return [];
        throw e;
      }
    },
    async stop(): Promise<void> {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
