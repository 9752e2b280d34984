import { runtimeSettings } from '../../../lib/plan/runtime-settings';
import { DOLLAR_JOB_CONFIG, plan } from '../../support/fixtures';
import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
import { env, main, masterPod, workerPod } from './helpers';

describe('job config step', () => {
  test('inline: verbatim in the master environment (escaped for the kubelet), unresolved placeholders kept', () => {
    const p = plan();
    const v = env(main(masterPod(p)), 'SEATUNNEL_APPLICATION_JOB_CONFIG')!;
    expect(v.value).toBe(
      p.spec.jobConfig.kind === 'inline' ? p.spec.jobConfig.text.replaceAll('$', '$$$$') : undefined,
    );
    expect(kubeletExpand(v.value!, {})).toContain('${ROWS}');
    expect(env(main(workerPod(p)), 'SEATUNNEL_APPLICATION_JOB_CONFIG')).toBeUndefined();
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
  test('inline job config: escaped, so expansion gives back exactly the -c text', () => {
    const p = plan({ jobConfig: tricky });
    const v = env(main(masterPod(p)), 'SEATUNNEL_APPLICATION_JOB_CONFIG')!.value!;
    expect(v).not.toBe(tricky);
    expect(kubeletExpand(v, { SEATUNNEL_POD_NAME: 'orders-abcde', X: 'x' })).toBe(tricky);
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
