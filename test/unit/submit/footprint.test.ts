// Quota headroom and LimitRange compatibility of the whole footprint (pure).
import {
  applicationFootprint,
  defaultedContainer,
  formatQuantity,
  podResources,
} from '../../../lib/submit/admit/footprint';
import { checkLimitRanges } from '../../../lib/submit/admit/limit-range';
import { checkQuotas, quotaScopesMatch } from '../../../lib/submit/admit/quota';
import { plan } from '../../support/fixtures';

const p = plan({ workerCount: 3, workerCpuCores: 2, workerMemoryMb: 2048 });
const objects = {
  configMaps: p.configMaps.length,
  secrets: p.secrets.length,
  roles: p.roles.length,
  roleBindings: p.roleBindings.length,
  networkPolicies: p.networkPolicies.length,
};
const fp = () => applicationFootprint(p.job.spec!.template.spec!, p.workerTemplate.template!.spec!, 3, objects);

describe('footprint', () => {
  test('master (with its init container) + N workers', () => {
    const f = fp();
    expect(f.master.requests).toEqual({ cpu: 1, memory: 1024 * 1024 ** 2 });
    expect(f.worker.requests).toEqual({ cpu: 2, memory: 2048 * 1024 ** 2 });
    expect(f.requests).toEqual({ cpu: 7, memory: 7 * 1024 ** 3 });
    expect(f.limits).toEqual(f.requests);
    expect(f.objects).toMatchObject({ pods: 4, 'count/jobs.batch': 1, services: 1, configmaps: objects.configMaps });
  });

  test('effective Pod resources: max(sum of containers, largest init container)', () => {
    const r = podResources({
      initContainers: [{ name: 'big-init', resources: { requests: { cpu: '3' }, limits: { cpu: '3' } } }],
      containers: [
        { name: 'a', resources: { requests: { cpu: '1', memory: '1Gi' } } },
        { name: 'b', resources: { requests: { cpu: '500m' } } },
      ],
    });
    expect(r.requests).toEqual({ cpu: 3, memory: 1024 ** 3 });
  });

  test('LimitRange defaulting fills in what a container leaves out', () => {
    const lr = [
      {
        metadata: { name: 'lr' },
        spec: {
          limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } }],
        },
      },
    ];
    const c = defaultedContainer({ name: 'x', resources: {} }, false, lr);
    expect(c.limits).toEqual({ cpu: 0.5, memory: 256 * 1024 ** 2 });
    expect(c.requests).toEqual({ cpu: 0.1, memory: 256 * 1024 ** 2 });
    expect(c.defaulted).toContain('limits.cpu = 500m from LimitRange lr');
  });

  test('formatQuantity', () => {
    expect(formatQuantity('requests.cpu', 0.25)).toBe('250m');
    expect(formatQuantity('cpu', 7)).toBe('7');
    expect(formatQuantity('limits.memory', 7 * 1024 ** 3)).toBe('7Gi');
    expect(formatQuantity('memory', 1536 * 1024 ** 2)).toBe('1536Mi');
    expect(formatQuantity('pods', 4)).toBe('4');
  });
});

describe('ResourceQuota headroom', () => {
  test('too small for N workers: one line per exhausted resource, with the breakdown', () => {
    const problems = checkQuotas(
      [
        {
          metadata: { name: 'q' },
          spec: { hard: { pods: '3', 'requests.cpu': '10', 'limits.memory': '8Gi', 'count/jobs.batch': '5' } },
          status: { used: { pods: '0', 'requests.cpu': '4', 'limits.memory': '0' } },
        },
      ],
      fp(),
    );
    expect(problems.map((x) => x.message)).toEqual([
      'ResourceQuota q: pods: the application needs 4 (master + 3 workers), but only 3 of 3 is free (0 used)',
      'ResourceQuota q: requests.cpu: the application needs 7 (master 1 + 3 workers × 2), but only 6 of 10 is free (4 used)',
    ]);
  });

  test('fits: no problem; object counts are checked too', () => {
    expect(
      checkQuotas([{ metadata: { name: 'q' }, spec: { hard: { pods: '10', cpu: '8', memory: '8Gi' } } }], fp()),
    ).toEqual([]);
    expect(
      checkQuotas(
        [
          {
            metadata: { name: 'q' },
            spec: { hard: { 'count/jobs.batch': '2' } },
            status: { used: { 'count/jobs.batch': '2' } },
          },
        ],
        fp(),
      )[0].message,
    ).toMatch(/count\/jobs\.batch: the application needs 1, but only 0 of 2 is free/);
  });

  test('scoped quotas only count the Pods they select', () => {
    const terminatingOnly = { metadata: { name: 't' }, spec: { hard: { pods: '1' }, scopes: ['Terminating'] } };
    expect(checkQuotas([terminatingOnly], fp())).toEqual([]);
    expect(
      checkQuotas(
        [{ ...terminatingOnly, spec: { ...terminatingOnly.spec, scopes: ['NotTerminating', 'NotBestEffort'] } }],
        fp(),
      ),
    ).toHaveLength(1);
    expect(
      quotaScopesMatch(
        {
          spec: {
            scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] },
          },
        },
        { terminating: false, bestEffort: false },
      ),
    ).toBe(false);
    expect(
      quotaScopesMatch(
        { spec: { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }] } } },
        { terminating: false, bestEffort: false },
      ),
    ).toBe(true);
  });

  test('a quota on limits rejects containers without a limit', () => {
    const f = applicationFootprint(
      { containers: [{ name: 'm', resources: { requests: { cpu: '1' } } }] },
      { containers: [{ name: 'w' }] },
      1,
      objects,
    );
    const msgs = checkQuotas([{ metadata: { name: 'q' }, spec: { hard: { 'limits.cpu': '100' } } }], f).map(
      (x) => x.message,
    );
    expect(msgs.some((m) => /master Pod's container "m" sets no limit for cpu/.test(m))).toBe(true);
  });
});

describe('LimitRange compatibility', () => {
  test('max, min and maxLimitRequestRatio per Container and per Pod', () => {
    const { problems } = checkLimitRanges(
      [
        {
          metadata: { name: 'lr' },
          spec: {
            limits: [
              { type: 'Container', max: { memory: '1536Mi' }, min: { cpu: '2' }, maxLimitRequestRatio: { cpu: '1' } },
              { type: 'Pod', max: { cpu: '1500m' } },
            ],
          },
        },
      ],
      fp(),
    );
    const msgs = problems.map((x) => x.message);
    expect(msgs).toContain(
      'LimitRange lr: the worker Pod\'s container "seatunnel": memory limit 2Gi is above the maximum 1536Mi per Container',
    );
    expect(msgs).toContain(
      'LimitRange lr: the master Pod\'s container "seatunnel": cpu request 1 is below the minimum 2 per Container',
    );
    expect(msgs).toContain(
      'LimitRange lr: the master Pod\'s init container "install-runtime": cpu request 1 is below the minimum 2 per Container',
    );
    expect(msgs).toContain('LimitRange lr: the worker Pod: cpu limit 2 is above the maximum 1500m per Pod');
    expect(msgs.some((m) => /ratio/.test(m))).toBe(false); // requests == limits
  });

  test('defaults are noted, with whether they apply', () => {
    const { problems, notes } = checkLimitRanges(
      [{ metadata: { name: 'd' }, spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } }],
      fp(),
    );
    expect(problems).toEqual([]);
    expect(notes[0]).toMatch(/LimitRange d sets container defaults \(limit cpu 1\); none applies/);
  });
});

describe('with HA', () => {
  const ha = plan({
    workerCount: 3,
    workerCpuCores: 2,
    workerMemoryMb: 2048,
    haEnabled: true,
    haMasters: 3,
    checkpointPvc: 'ckpt',
  });
  const haFp = () =>
    applicationFootprint(ha.job.spec!.template.spec!, ha.workerTemplate.template!.spec!, 3, objects, [], {
      spec: ha.masters!.spec!.template.spec!,
      count: ha.masters!.spec!.replicas!,
    });

  test('coordinator + M masters + N workers, two Services, one StatefulSet', () => {
    const f = haFp();
    // coordinator 250m (its init container is smaller), 3 masters × 1 core, 3 workers × 2 cores
    expect(f.requests.cpu).toBeCloseTo(0.25 + 3 + 6);
    expect(f.requests.memory).toBe(256 * 1024 ** 2 + 3 * 1024 * 1024 ** 2 + 3 * 2048 * 1024 ** 2);
    expect(f.objects).toMatchObject({ pods: 7, services: 2, 'count/statefulsets.apps': 1 });
  });

  test('a quota that cannot hold the masters says so, per part', () => {
    const quota = {
      metadata: { name: 'q' },
      spec: { hard: { 'requests.cpu': '8' } },
      status: { hard: { 'requests.cpu': '8' }, used: { 'requests.cpu': '0' } },
    };
    const problems = checkQuotas([quota], haFp(), { terminating: false });
    expect(problems.map((x) => x.message)).toEqual([
      'ResourceQuota q: requests.cpu: the application needs 9250m (coordinator 250m + 3 masters × 1 + 3 workers × 2), but only 8 of 8 is free (0 used)',
    ]);
  });
});
