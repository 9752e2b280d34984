// Lists a directory of the checkpoint storage with the engine's own Hadoop client: Hadoop's
// FsShell (`-ls -C`), run with the java and classpath of the master's command line, so it speaks
// the same Hadoop version, with the same jars, as the engine's `hdfs` checkpoint plugin. The plugin's
// Hadoop properties go in a core-site.xml at the front of the classpath (the shaded Hadoop of Zeta
// 2.3.8 has no core-site.xml, and FsShell's `-D` refuses to run without one); its hdfs_site_path
// file is copied as hdfs-site.xml, which the HDFS client loads the same way.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { zetaJavaArgv } from 'seatunnel-app/runtime-support';
import type { HadoopClientConfig, HadoopLister } from './checkpoints';

const FS_SHELL = 'org.apache.hadoop.fs.FsShell';

export interface HadoopListOptions {
  /** The master's command line: its java and its `-cp`/`-classpath` are reused. */
  readonly engineCommand: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** A writable directory for the client's configuration files. */
  readonly confDir: string;
  readonly timeoutMs: number;
}

/** `java` and the classpath of a java command line. */
export function javaAndClasspath(command: readonly string[]): { java: string; classpath: string } {
  const argv = zetaJavaArgv(command);
  const i = argv.findIndex((a) => a === '-cp' || a === '-classpath' || a === '--class-path');
  if (i < 0 || i + 1 >= argv.length) throw new Error(`the engine command has no classpath: ${argv.join(' ')}`);
  return { java: argv[0], classpath: argv[i + 1] };
}

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** core-site.xml with these properties. */
export function coreSiteXml(properties: Readonly<Record<string, string>>): string {
  const props = Object.entries(properties)
    .map(([k, v]) => `  <property><name>${xmlText(k)}</name><value>${xmlText(v)}</value></property>`)
    .join('\n');
  return `<?xml version="1.0"?>\n<configuration>\n${props}\n</configuration>\n`;
}

/** Reads FsShell's answer: the listed paths; [] for a directory that does not exist; else an error. */
export function parseListing(code: number | null, stdout: string, stderr: string): string[] {
  if (code === 0) {
    return stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
  }
  if (/No such file or directory/.test(stderr)) return [];
  const why = stderr
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !/^(WARNING|SLF4J|log4j)/i.test(l));
  throw new Error(`Hadoop FsShell exited with ${code ?? 'a signal'}${why ? `: ${why}` : ''}`);
}

export function hadoopLister(opts: HadoopListOptions): HadoopLister {
  return async (config: HadoopClientConfig, dir: string) => {
    const { java, classpath } = javaAndClasspath(opts.engineCommand);
    fs.mkdirSync(opts.confDir, { recursive: true, mode: 0o700 });
    // It may hold fs.s3a.secret.key (the plugin-config's own keys): readable by the runtime only.
    const coreSite = path.join(opts.confDir, 'core-site.xml');
    fs.writeFileSync(coreSite, coreSiteXml(config.properties), { mode: 0o600 });
    fs.chmodSync(coreSite, 0o600);
    if (config.hdfsSitePath) fs.copyFileSync(config.hdfsSitePath, path.join(opts.confDir, 'hdfs-site.xml'));
    return new Promise<string[]>((resolve, reject) => {
      execFile(
        java,
        ['-cp', `${opts.confDir}:${classpath}`, FS_SHELL, '-ls', '-C', dir],
        { env: opts.env, timeout: opts.timeoutMs, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err && typeof err.code !== 'number') return reject(new Error(`${java} ${FS_SHELL}: ${err.message}`));
          try {
            resolve(parseListing(err ? (err.code as number) : 0, stdout, stderr));
          } catch (e) {
            reject(e);
          }
        },
      );
    });
  };
}
