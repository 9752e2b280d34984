import { plan } from '../../support/fixtures';
import { env, main, masterPod, workerPod } from './helpers';

describe('job config step', () => {
  test('inline: verbatim in the master environment, unresolved placeholders kept', () => {
    const p = plan();
    const v = env(main(masterPod(p)), 'SEATUNNEL_APPLICATION_JOB_CONFIG')!;
    expect(v.value).toBe(p.spec.jobConfig.kind === 'inline' ? p.spec.jobConfig.text : undefined);
    expect(v.value).toContain('${ROWS}');
    expect(env(main(workerPod(p)), 'SEATUNNEL_APPLICATION_JOB_CONFIG')).toBeUndefined();
  });

  test('the job config never lands in a ConfigMap', () => {
    const p = plan();
    for (const cm of p.configMaps) expect(JSON.stringify(cm.data)).not.toContain('FakeSource');
  });

  test('file: only the path travels', () => {
    const p = plan({ jobConfig: undefined, jobConfigFile: '/etc/job/job.conf', configMaps: { job: { ref: 'jobs', mounts: { 'job.conf': '/etc/job/job.conf' } } } });
    const c = main(masterPod(p));
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG_FILE')!.value).toBe('/etc/job/job.conf');
    expect(env(c, 'SEATUNNEL_APPLICATION_JOB_CONFIG')).toBeUndefined();
  });
});
