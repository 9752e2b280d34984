import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classDataArchive, ZETA_LAUNCHER, zetaJavaArgv } from '../../../lib/engine/command';
import { loadApplication } from '../../../lib/model/load';
import { JOB_CONFIG, plan, problems } from '../../support/fixtures';
import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
import { main, workerPod } from './helpers';

const HOME = '/opt/seatunnel';
const asRun = (argv: readonly string[]) => argv.map((a) => kubeletExpand(a, {}));

describe('kubernetes.class-data-sharing', () => {
  test("auto (the default): every Zeta JVM is started through the launcher with the image's archive path", () => {
    const p = plan();
    // As the kubelet hands it to the container (it expands `$`, which the plan escapes).
    const worker = asRun(main(workerPod(p)).command!);
    expect(worker.slice(0, 6)).toEqual(['/bin/sh', '-c', ZETA_LAUNCHER, '', `${HOME}/cds/zeta.jsa`, 'java']);
    const runtime = JSON.parse(p.configMaps.find((c) => c.metadata.name.endsWith('-engine'))!.data!['runtime.json']);
    expect(runtime.master.command.slice(2, 6)).toEqual([ZETA_LAUNCHER, '', `${HOME}/cds/zeta.jsa`, 'java']);
    const ha = plan({ haEnabled: true, haMasters: 2, haBackupCount: 1, checkpointPvc: 'ckpt' });
    expect(asRun(ha.masters!.spec!.template.spec!.containers[0].command!).slice(2, 5)).toEqual([
      ZETA_LAUNCHER,
      '',
      `${HOME}/cds/zeta.jsa`,
    ]);
  });

  test('off: java is started directly, as before', () => {
    const p = plan({ classDataSharing: 'off' });
    const worker = main(workerPod(p)).command!;
    expect(worker[0]).toBe('java');
    expect(worker.join(' ')).not.toMatch(/jsa|SharedArchiveFile/);
  });

  test('the archive follows seatunnel-home', () => {
    expect(classDataArchive('/srv/st/')).toBe('/srv/st/cds/zeta.jsa');
    expect(main(workerPod(plan({ seatunnelHome: '/srv/st' }))).command![4]).toBe('/srv/st/cds/zeta.jsa');
  });

  test('any other value is refused, naming the option and the values', () => {
    const load = (value: string) =>
      loadApplication({
        deploymentText: `kubernetes { image = "a/b:1", class-data-sharing = ${value} }`,
        deploymentFile: 'deploy.conf',
        jobConfig: JOB_CONFIG,
      });
    expect(problems(() => load('on'))).toEqual([
      'kubernetes.class-data-sharing: must be one of auto, off (case-sensitive)',
    ]);
    expect(load('off').classDataSharing).toBe('off');
  });
});

describe('the launcher, run by /bin/sh', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zeta-launcher-'));
  // A stand-in for java that prints its arguments, one per line.
  const java = path.join(dir, 'java');
  fs.writeFileSync(java, '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n', { mode: 0o755 });
  const archive = path.join(dir, 'zeta.jsa');
  const options = path.join(dir, 'jvm_worker_options');
  fs.writeFileSync(options, '-Xms1g  -Xmx1g\n-XX:+UseG1GC -Dx=*\n');
  fs.writeFileSync(path.join(dir, 'decoy'), '');
  const run = (file: string, jsa: string) =>
    execFileSync('/bin/sh', ['-c', ZETA_LAUNCHER, file, jsa, java, '-cp', 'lib/*', 'Main'], {
      cwd: dir,
      encoding: 'utf8',
    })
      .trim()
      .split('\n');

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('with the archive in the image: it is the first flag, before the file’s, so a user -Xshare:off wins', () => {
    fs.writeFileSync(archive, 'x');
    expect(run(options, archive)).toEqual([
      `-XX:SharedArchiveFile=${archive}`,
      '-Xms1g',
      '-Xmx1g',
      '-XX:+UseG1GC',
      '-Dx=*',
      '-cp',
      'lib/*',
      'Main',
    ]);
    expect(run('', archive)).toEqual([`-XX:SharedArchiveFile=${archive}`, '-cp', 'lib/*', 'Main']);
    fs.rmSync(archive);
  });

  test('without it (or turned off): no flag at all, which keeps the JDK’s own sharing', () => {
    expect(run(options, archive)).toEqual(['-Xms1g', '-Xmx1g', '-XX:+UseG1GC', '-Dx=*', '-cp', 'lib/*', 'Main']);
    expect(run('', '')).toEqual(['-cp', 'lib/*', 'Main']);
  });

  test('a JVM options file that cannot be read stops the start (exit 1), java never runs', () => {
    const r = spawnSync('/bin/sh', ['-c', ZETA_LAUNCHER, path.join(dir, 'missing'), '', java, 'Main'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
  });

  test('zetaJavaArgv strips the launcher', () => {
    expect(zetaJavaArgv(['/bin/sh', '-c', ZETA_LAUNCHER, '', '/a.jsa', 'java', '-cp', 'x', 'Main'])).toEqual([
      'java',
      '-cp',
      'x',
      'Main',
    ]);
    expect(zetaJavaArgv(['java', 'Main'])).toEqual(['java', 'Main']);
  });
});
