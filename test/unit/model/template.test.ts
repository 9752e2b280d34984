import { mergeProps, TeamTemplate } from '../../../lib/model/template';
import { resolveApplication } from '../../../lib/model/resolve';
import { dataTeam, platform, teamApplications } from '../../../apps/examples/team/template';
import { JOB_CONFIG, problems } from '../../support/fixtures';

describe('team template merge semantics', () => {
  const parent = {
    image: 'a/b:1',
    workerCount: 2,
    labels: { team: 'platform', cost: 'cc' },
    imagePullSecrets: ['reg'],
    workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' as const }],
    env: { A: 'a', B: 'b' },
    configMaps: { drivers: { ref: 'jdbc', mounts: { 'x.jar': '/x.jar' } } },
    runtimeFiles: { log4j2: { enabled: false }, jvmOptions: { content: '-Dx=1' } },
  };

  test('single values: the child wins', () => {
    expect(mergeProps(parent, { workerCount: 5 }).workerCount).toBe(5);
    expect(mergeProps(parent, {}).workerCount).toBe(2);
  });

  test('string maps merge key by key', () => {
    expect(mergeProps(parent, { labels: { team: 'data', tier: 'gold' } }).labels).toEqual({
      team: 'data',
      cost: 'cc',
      tier: 'gold',
    });
  });

  test('lists are added to, without duplicates', () => {
    const m = mergeProps(parent, {
      imagePullSecrets: ['reg', 'team-reg'],
      workerTolerations: [
        { key: 'dedicated', value: 'st', effect: 'NoSchedule' },
        { key: 'spot', operator: 'Exists' },
      ],
    });
    expect(m.imagePullSecrets).toEqual(['reg', 'team-reg']);
    expect(m.workerTolerations).toHaveLength(2);
  });

  test('entries are replaced whole by name, others kept', () => {
    const m = mergeProps(parent, {
      env: { B: { secret: 's', key: 'k' } },
      configMaps: { drivers: { ref: 'other' } },
      runtimeFiles: { log4j2: { content: 'x' } },
    });
    expect(m.env).toEqual({ A: 'a', B: { secret: 's', key: 'k' } });
    expect(m.configMaps).toEqual({ drivers: { ref: 'other' } });
    expect(m.runtimeFiles).toEqual({ log4j2: { content: 'x' }, jvmOptions: { content: '-Dx=1' } });
  });

  test('undefined in the child keeps the parent value', () => {
    expect(mergeProps(parent, { workerCount: undefined }).workerCount).toBe(2);
  });
});

describe('TeamTemplate', () => {
  const t = new TeamTemplate(
    { namespace: 'jobs', image: 'a/b:1', networkPolicyEnabled: true, labels: { team: 'p' } },
    { name: 'platform', locked: ['namespace', 'networkPolicyEnabled'] },
  );

  test('applications override only what they need', () => {
    const s = resolveApplication(
      t.application({ name: 'x', jobConfig: JOB_CONFIG, workerCount: 3, labels: { app: 'x' } }),
    );
    expect(s.namespace).toBe('jobs');
    expect(s.worker.count).toBe(3);
    expect(s.labels).toEqual({ team: 'p', app: 'x' });
  });

  test('locked props cannot be changed, but may be repeated', () => {
    expect(problems(() => t.application({ namespace: 'mine', networkPolicyEnabled: false }))).toEqual([
      'namespace: is locked by platform (value "jobs"); ask the platform team to change it',
      'networkPolicyEnabled: is locked by platform (value true); ask the platform team to change it',
    ]);
    expect(() => t.application({ namespace: 'jobs' })).not.toThrow();
  });

  test('extend keeps the locks and merges defaults', () => {
    const team = t.extend({ labels: { team: 'data' }, workerCount: 4 }, { name: 'data team' });
    expect(team.application({}).labels).toEqual({ team: 'data' });
    expect(team.application({}).workerCount).toBe(4);
    expect(() => team.application({ namespace: 'other' })).toThrow(/locked by data team/);
  });

  test('the bundled team example resolves three applications with the platform defaults', () => {
    const specs = Object.values(teamApplications).map((a) => resolveApplication(dataTeam.application(a)));
    expect(specs.map((s) => s.name)).toEqual(['orders', 'payments', 'clicks']);
    for (const s of specs) {
      expect(s.namespace).toBe('data-jobs');
      expect(s.imagePullSecrets).toEqual(['platform-registry']);
      expect(s.worker.nodeSelector).toEqual({ 'node-pool': 'batch' });
      expect(s.worker.spread).toBe('preferred');
      expect(s.worker.cpuMillicores).toBe(2000);
      expect(s.labels.team).toBe('data');
    }
    expect(specs[1].worker.memoryMiB).toBe(4096);
    expect(specs[0].worker.memoryMiB).toBe(2048);
    expect(specs[2].labels).toEqual({ 'cost-center': 'cc-42', team: 'data', tier: 'bulk' });
    expect(platform.locked).toEqual(['namespace', 'networkPolicyEnabled']);
  });
});
