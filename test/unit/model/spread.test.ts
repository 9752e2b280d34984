// The spread options (kubernetes.<role>.spread, .spread-topology, .topology-spread-constraints):
// defaults, every rule with the option, the value and the rule in the message, and the same spec
// from typed props, a deployment file (both field spellings) and -D.

import { loadApplication } from '../../../lib/model/load';
import type { SeaTunnelApplicationProps, TopologySpreadConstraintProps } from '../../../lib/model/props';
import { mergeProps } from '../../../lib/model/template';
import { JOB_CONFIG, problems, spec } from '../../support/fixtures';

const load = (text: string, overrides: Array<[string, string]> = []) =>
  loadApplication({
    deploymentText: `kubernetes.image = "a/b:1"\napplication.name = orders\n${text}`,
    deploymentFile: 'deploy.conf',
    jobConfig: JOB_CONFIG,
    overrides,
  });

const ZONE: TopologySpreadConstraintProps = {
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
};

describe('defaults', () => {
  test('masters spread preferred over nodes, workers not spread, no constraints', () => {
    const s = spec();
    expect([s.master.spread, s.master.spreadTopology, s.master.topologySpreadConstraints]).toEqual([
      'preferred',
      ['kubernetes.io/hostname'],
      [],
    ]);
    expect([s.worker.spread, s.worker.spreadTopology, s.worker.topologySpreadConstraints]).toEqual([
      'none',
      ['kubernetes.io/hostname'],
      [],
    ]);
  });
});

describe('refused with the option, the value and the rule', () => {
  const rows: Array<[string, Partial<SeaTunnelApplicationProps>, string[]]> = [
    [
      'an unknown mode',
      { masterSpread: 'hard' as never },
      ['masterSpread: must be one of none, preferred, required (case-sensitive)'],
    ],
    [
      'an empty topology with a spread',
      { workerSpread: 'required', workerSpreadTopology: [] },
      ['workerSpreadTopology: must name at least one node label when workerSpread is required'],
    ],
    [
      'a topology key that is no label key',
      { masterSpreadTopology: ['kubernetes.io/host name'] },
      [expect.stringMatching(/^masterSpreadTopology\.\[0\]: name part must consist of letters/)],
    ],
    [
      'a topology key listed twice',
      { masterSpreadTopology: ['kubernetes.io/hostname', 'kubernetes.io/hostname'] },
      ['masterSpreadTopology.[1]: is listed twice'],
    ],
    [
      'maxSkew 0',
      { workerTopologySpreadConstraints: [{ ...ZONE, maxSkew: 0 }] },
      ['workerTopologySpreadConstraints.[0]: maxSkew must be an integer of at least 1'],
    ],
    [
      'no topologyKey',
      { workerTopologySpreadConstraints: [{ ...ZONE, topologyKey: undefined as never }] },
      ['workerTopologySpreadConstraints.[0]: topologyKey must be set to a node label key'],
    ],
    [
      'a whenUnsatisfiable Kubernetes does not know',
      { workerTopologySpreadConstraints: [{ ...ZONE, whenUnsatisfiable: 'Never' as never }] },
      ['workerTopologySpreadConstraints.[0]: whenUnsatisfiable must be DoNotSchedule or ScheduleAnyway'],
    ],
    [
      'minDomains with ScheduleAnyway',
      { workerTopologySpreadConstraints: [{ ...ZONE, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 }] },
      ['workerTopologySpreadConstraints.[0]: minDomains is only valid with whenUnsatisfiable DoNotSchedule'],
    ],
    [
      'minDomains 0',
      { masterTopologySpreadConstraints: [{ ...ZONE, minDomains: 0 }] },
      ['masterTopologySpreadConstraints.[0]: minDomains must be an integer of at least 1'],
    ],
    [
      'a node policy Kubernetes does not know',
      { workerTopologySpreadConstraints: [{ ...ZONE, nodeTaintsPolicy: 'honor' as never }] },
      ['workerTopologySpreadConstraints.[0]: nodeTaintsPolicy must be Honor or Ignore'],
    ],
    [
      'two constraints with the same key and whenUnsatisfiable',
      { workerTopologySpreadConstraints: [ZONE, { ...ZONE, maxSkew: 2 }] },
      [
        'workerTopologySpreadConstraints.[1]: two constraints with the same topologyKey and whenUnsatisfiable (Kubernetes allows one)',
      ],
    ],
    [
      'matchLabelKeys naming a key of the default selector',
      { workerTopologySpreadConstraints: [{ ...ZONE, matchLabelKeys: ['seatunnel.apache.org/role'] }] },
      [
        'workerTopologySpreadConstraints.[0]: matchLabelKeys must not name a key the labelSelector already has (seatunnel.apache.org/role)',
      ],
    ],
    [
      'a selector operator In without values',
      {
        workerTopologySpreadConstraints: [
          { ...ZONE, labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In' }] } },
        ],
      },
      [
        'workerTopologySpreadConstraints.[0]: labelSelector.matchExpressions (key "tier"): operator In needs at least one value',
      ],
    ],
    [
      'a selector operator Exists with values',
      {
        workerTopologySpreadConstraints: [
          { ...ZONE, labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['x'] }] } },
        ],
      },
      [
        'workerTopologySpreadConstraints.[0]: labelSelector.matchExpressions (key "tier"): operator Exists takes no values',
      ],
    ],
    [
      'a selector label value Kubernetes refuses',
      { workerTopologySpreadConstraints: [{ ...ZONE, labelSelector: { matchLabels: { tier: 'a b' } } }] },
      [
        expect.stringMatching(
          /^workerTopologySpreadConstraints\.\[0\]: labelSelector\.matchLabels label value must consist/,
        ),
      ],
    ],
  ];
  test.each(rows)('%s', (_name, extra, expected) => {
    expect(problems(() => spec(extra))).toEqual(expected);
  });

  test('the message shows the value received', () => {
    try {
      spec({ workerTopologySpreadConstraints: [{ ...ZONE, maxSkew: 0 }] });
      throw new Error('not refused');
    } catch (e) {
      expect((e as Error).message).toContain('workerTopologySpreadConstraints.[0]: got 0; maxSkew must be');
    }
  });

  test('from a deployment file, the option is named by its key', () => {
    expect(
      problems(() =>
        load(`kubernetes.master { spread = Required, spread-topology = [] }
kubernetes.worker.topology-spread-constraints = [ { max-skew = 1, topology-key = zone, when-unsatisfiable = Later } ]`),
      ),
    ).toEqual([
      'kubernetes.master.spread: must be one of none, preferred, required (case-sensitive: did you mean "required"?)',
      // The unreadable mode leaves the default, preferred, which needs a topology as well.
      'kubernetes.master.spread-topology: must name at least one node label when kubernetes.master.spread is preferred',
      'kubernetes.worker.topology-spread-constraints.[0]: whenUnsatisfiable must be DoNotSchedule or ScheduleAnyway',
    ]);
    expect(
      problems(() => load('kubernetes.worker.topology-spread-constraints = [ { max-skew = 1, skew = 2 } ]')),
    ).toEqual([expect.stringMatching(/^kubernetes\.worker\.topology-spread-constraints\[0\]\.skew: unknown field/)]);
    expect(
      problems(() => load('', [['kubernetes.worker.topology-spread-constraints', 'zone:one:DoNotSchedule']])),
    ).toEqual([
      expect.stringMatching(
        /^kubernetes\.worker\.topology-spread-constraints: every item must look like "topologyKey:maxSkew:whenUnsatisfiable"/,
      ),
    ]);
  });
});

/** Every field a constraint can have, with both parts of a selector. */
const CONSTRAINTS: TopologySpreadConstraintProps[] = [
  { ...ZONE, minDomains: 2, nodeAffinityPolicy: 'Ignore' },
  {
    maxSkew: 2,
    topologyKey: 'kubernetes.io/hostname',
    whenUnsatisfiable: 'ScheduleAnyway',
    labelSelector: { matchLabels: { team: 'data' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
    matchLabelKeys: ['pool'],
  },
];

describe('one spec from every spelling', () => {
  const typed = spec({
    masterSpread: 'required',
    masterSpreadTopology: ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
    workerSpread: 'preferred',
    workerTopologySpreadConstraints: CONSTRAINTS,
  });

  test('typed props keep every field as given', () => {
    expect(typed.master.spread).toBe('required');
    expect(typed.master.spreadTopology).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    expect(typed.worker.topologySpreadConstraints).toEqual(CONSTRAINTS);
  });

  test("a deployment file in kebab-case, one in Kubernetes' names, and -D give the same spec", () => {
    const kebab = load(`kubernetes {
  master { spread = required, spread-topology = "kubernetes.io/hostname, topology.kubernetes.io/zone" }
  worker.spread = preferred
  worker.topology-spread-constraints = [
    { max-skew = 1, topology-key = "topology.kubernetes.io/zone", when-unsatisfiable = DoNotSchedule, min-domains = 2, node-affinity-policy = Ignore }
    { max-skew = 2, topology-key = "kubernetes.io/hostname", when-unsatisfiable = ScheduleAnyway,
      label-selector { match-labels { team = data }, match-expressions = [ { key = tier, operator = Exists } ] },
      match-label-keys = [pool] }
  ]
}`);
    const camel = load(`kubernetes {
  master.spread = required
  master.spread-topology = ["kubernetes.io/hostname", "topology.kubernetes.io/zone"]
  worker.spread = preferred
  worker.topology-spread-constraints = [
    { maxSkew = 1, topologyKey = "topology.kubernetes.io/zone", whenUnsatisfiable = DoNotSchedule, minDomains = 2, nodeAffinityPolicy = Ignore }
    { maxSkew = 2, topologyKey = "kubernetes.io/hostname", whenUnsatisfiable = ScheduleAnyway,
      labelSelector { matchLabels { team = data }, matchExpressions = [ { key = tier, operator = Exists } ] },
      matchLabelKeys = [pool] }
  ]
}`);
    for (const s of [kebab, camel]) {
      expect(s.master).toEqual(typed.master);
      expect(s.worker).toEqual(typed.worker);
    }
  });

  test('-D: the mode, a comma-separated topology and "topologyKey:maxSkew:whenUnsatisfiable" constraints', () => {
    const s = load('', [
      ['kubernetes.master.spread', 'required'],
      ['kubernetes.master.spread-topology', 'kubernetes.io/hostname,topology.kubernetes.io/zone'],
      [
        'kubernetes.worker.topology-spread-constraints',
        'topology.kubernetes.io/zone:1:DoNotSchedule, kubernetes.io/hostname:3:ScheduleAnyway',
      ],
    ]);
    expect(s.master.spread).toBe('required');
    expect(s.master.spreadTopology).toEqual(typed.master.spreadTopology);
    expect(s.worker.topologySpreadConstraints).toEqual([
      ZONE,
      { maxSkew: 3, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
    ]);
  });
});

describe('team templates', () => {
  test("constraints are added to the template's; the spread topology and mode are replaced", () => {
    const parent: Partial<SeaTunnelApplicationProps> = {
      workerSpread: 'preferred',
      workerSpreadTopology: ['kubernetes.io/hostname'],
      workerTopologySpreadConstraints: [ZONE],
    };
    const child = mergeProps(parent, {
      workerSpread: 'required',
      workerSpreadTopology: ['topology.kubernetes.io/zone'],
      workerTopologySpreadConstraints: [
        ZONE,
        { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    });
    expect(child.workerSpread).toBe('required');
    expect(child.workerSpreadTopology).toEqual(['topology.kubernetes.io/zone']);
    expect(child.workerTopologySpreadConstraints).toEqual([
      ZONE,
      { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
    ]);
  });
});
