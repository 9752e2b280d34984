import { runtimeSettings } from '../../../lib/plan/runtime-settings';
import { DOLLAR_JOB_CONFIG, plan } from '../../support/fixtures';
import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
import { env, main, masterPod, mountAt, volume, workerPod } from './helpers';

describe('job config step', () => {
  // Not in the environment (issue 27, item 9): a Pod's spec is readable by anyone with `view` and
  // by every runtime of the namespace; a Secret is not.
  test('inline: verbatim in an owned Secret, mounted on the runtime’s container only, placeholders kept', () => {
    const p = plan();
    const text = p.spec.jobConfig.kind === 'inline' ? p.spec.jobConfig.text : '';
    const secret = p.secrets.find((s) => s.metadata.name === `${p.spec.appId}.job-config`)!;
    expect(secret.stringData).toEqual({ 'job.conf': text });
    expect(text).toContain('${ROWS}');
    const c = main(masterPod(p));
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG')).toBeUndefined();
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG_FILE')!.value).toBe('/etc/seatunnel-app/job/job.conf');
    expect(mountAt(c, '/etc/seatunnel-app/job')).toMatchObject({ readOnly: true });
    expect(volume(masterPod(p), mountAt(c, '/etc/seatunnel-app/job')!.name)!.secret!.secretName).toBe(
      `${p.spec.appId}.job-config`,
    );
    expect(runtimeSettings(p.spec).jobConfig).toEqual({ kind: 'file', path: '/etc/seatunnel-app/job/job.conf' });
    // Nowhere in a Pod spec, and not on the workers.
    expect(JSON.stringify([p.job, p.workerTemplate])).not.toContain('FakeSource');
    expect(mountAt(main(workerPod(p)), '/etc/seatunnel-app/job')).toBeUndefined();
  });

  test('with HA: on the coordinator only, never on the masters', () => {
    const p = plan({ haEnabled: true, checkpointPvc: 'ckpt' });
    expect(mountAt(main(masterPod(p)), '/etc/seatunnel-app/job')).toBeDefined();
    expect(mountAt(main(p.masters!.spec!.template.spec!), '/etc/seatunnel-app/job')).toBeUndefined();
    expect(JSON.stringify(p.masters)).not.toContain('FakeSource');
  });

  test('the job config never lands in a ConfigMap', () => {
    const p = plan();
    for (const cm of p.configMaps) expect(JSON.stringify(cm.data)).not.toContain('FakeSource');
  });

  test('file: only the path travels', () => {
    const p = plan({
      jobConfig: undefined,
      jobConfigFile: '/etc/job/job.conf',
      configMaps: { job: { ref: 'jobs', mounts: { 'job.conf': '/etc/job/job.conf' } } },
    });
    const c = main(masterPod(p));
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG_FILE')!.value).toBe('/etc/job/job.conf');
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG')).toBeUndefined();
    expect(p.secrets.some((s) => s.metadata.name.endsWith('.job-config'))).toBe(false);
  });
});

describe('the kubelet sees a literal', () => {
  // What the real kubelet does to env values, command and args (k8s.io/kubernetes
  // third_party/forked/golang/expansion, expand_test.go cases), as the local kubelet stand-in applies it.
  test.each([
    ['$$', {}, '$'],
    ['$(VAR_A)', { VAR_A: 'A' }, 'A'],
    ['$(UNDEFINED)', {}, '$(UNDEFINED)'],
    ['$$(VAR_A)', { VAR_A: 'A' }, '$(VAR_A)'],
    ['$$$(VAR_A)', { VAR_A: 'A' }, '$A'],
    ['$${X}', {}, '${X}'],
    ['${X}', {}, '${X}'],
    ['$(VAR_A', { VAR_A: 'A' }, '$(VAR_A'],
    ['foo$', {}, 'foo$'],
    ['$()', { '': 'empty' }, 'empty'],
    ['$(a b)', { 'a b': 'x' }, 'x'],
  ])('kubeletExpand(%j) = %j', (input, vars: Record<string, string>, expected) => {
    expect(kubeletExpand(input, vars)).toBe(expected);
  });

  test("the byte after a lone $ is copied as a code point, as Go's string(byte) does (a non-ASCII character there is mangled)", () => {
    expect(kubeletExpand('$é', {})).not.toBe('$é');
  });

  const tricky = DOLLAR_JOB_CONFIG;
  test('inline job config: a Secret’s data, which the kubelet does not expand, is exactly the -c text', () => {
    const p = plan({ jobConfig: tricky });
    expect(p.secrets.find((s) => s.metadata.name.endsWith('.job-config'))!.stringData!['job.conf']).toBe(tricky);
  });

  test('env literals: escaped the same way', () => {
    const p = plan({ env: { LITERAL: 'a$(SEATUNNEL_POD_NAME)b$$c' } });
    const v = env(main(masterPod(p)), 'LITERAL')!.value!;
    expect(kubeletExpand(v, { SEATUNNEL_POD_NAME: 'orders-abcde' })).toBe('a$(SEATUNNEL_POD_NAME)b$$c');
  });
});

// Command lines the kubelet runs are expanded too (issue 27, item 11): `$(DB_PASSWORD)` in a JVM
// flag would put a Secret's value on a command line, and a `$` in seatunnel-home would change paths.
describe('command lines and SEATUNNEL_HOME the kubelet expands stay literal', () => {
  const SECRET_ENV = { DB_PASSWORD: 'hunter2', HOME: '/root' };
  const expand = (argv: readonly string[] | undefined) => (argv ?? []).map((a) => kubeletExpand(a, SECRET_ENV));
  const props = {
    seatunnelHome: '/opt/st$(HOME)',
    runtimeFiles: { jvmOptions: { content: '-Dmy.flag=$(DB_PASSWORD)\n-Dcost=$5' } },
  };

  test('the workers: every argument, and SEATUNNEL_HOME', () => {
    const p = plan(props);
    const c = main(workerPod(p));
    const argv = expand(c.command);
    expect(argv).toContain('-Dmy.flag=$(DB_PASSWORD)');
    expect(argv).toContain('-Dcost=$5');
    expect(argv).toContain('-Dseatunnel.home=/opt/st$(HOME)');
    expect(argv.join(' ')).not.toContain('hunter2');
    expect(kubeletExpand(env(c, 'SEATUNNEL_HOME')!.value!, SECRET_ENV)).toBe('/opt/st$(HOME)');
  });

  test('the HA masters (run by the kubelet, not by the runtime)', () => {
    const p = plan({ ...props, haEnabled: true, checkpointPvc: 'ckpt' });
    const c = p.masters!.spec!.template.spec!.containers[0];
    const argv = expand(c.command);
    expect(argv).toContain('-Dmy.flag=$(DB_PASSWORD)');
    expect(argv).toContain('-Dseatunnel.home=/opt/st$(HOME)');
    expect(kubeletExpand(env(c, 'SEATUNNEL_HOME')!.value!, SECRET_ENV)).toBe('/opt/st$(HOME)');
  });

  test('the local master is started by the runtime, which expands nothing: its command is kept as is', () => {
    const p = plan(props);
    expect(runtimeSettings(p.spec).master.command).toContain('-Dmy.flag=$(DB_PASSWORD)');
  });
});
