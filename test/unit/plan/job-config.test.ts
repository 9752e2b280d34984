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
