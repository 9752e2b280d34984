// The version decision (lib/submit/admit/server-support.ts) and the /version reader
// (lib/kube/server-version.ts): which servers are refused, what an older one changes, and that
// the documented "tested" minors are the ones the test tiers build (tools/testbin/versions.env).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { atLeast, parseServerVersion, type ServerVersion } from '../../../lib/kube/server-version';
import { KUBERNETES_SUPPORT, serverSupport } from '../../../lib/submit/admit/server-support';

const v = (gitVersion: string): ServerVersion =>
  parseServerVersion({ gitVersion, major: '1', minor: gitVersion.split('.')[1] });
const plain = { highAvailability: false, admissionFence: false };

describe('parseServerVersion', () => {
  it('reads major and minor, tolerating the "+" and suffixes managed clusters add', () => {
    expect(parseServerVersion({ major: '1', minor: '24', gitVersion: 'v1.24.17' })).toEqual({
      major: 1,
      minor: 24,
      gitVersion: 'v1.24.17',
    });
    expect(parseServerVersion({ major: '1', minor: '27+', gitVersion: 'v1.27.3-eks-a5565ad' })).toEqual({
      major: 1,
      minor: 27,
      gitVersion: 'v1.27.3-eks-a5565ad',
    });
  });

  it('falls back to gitVersion when major and minor are empty', () => {
    expect(parseServerVersion({ major: '', minor: '', gitVersion: 'v1.30.1+k3s1' })).toEqual({
      major: 1,
      minor: 30,
      gitVersion: 'v1.30.1+k3s1',
    });
  });

  it('names what it got when there is no version at all', () => {
    expect(() => parseServerVersion({ major: '', minor: '', gitVersion: 'unknown' })).toThrow(
      'GET /version answered no Kubernetes version (major "", minor "", gitVersion "unknown")',
    );
    expect(() => parseServerVersion('not json')).toThrow(/answered no Kubernetes version/);
  });

  it('atLeast compares major first', () => {
    expect(atLeast(v('v1.26.0'), 1, 26)).toBe(true);
    expect(atLeast(v('v1.25.9'), 1, 26)).toBe(false);
    expect(atLeast({ major: 2, minor: 0, gitVersion: 'v2.0.0' }, 1, 26)).toBe(true);
  });
});

describe('serverSupport', () => {
  it('refuses a server below the minimum for every command, naming its version and the supported range', () => {
    for (const use of [undefined, plain]) {
      const s = serverSupport(v('v1.23.17'), use);
      expect(s.refusal).toBe(
        'Kubernetes server v1.23.17 is not supported: seatunnel-app supports Kubernetes 1.24 and newer (tested on 1.24 and 1.36). Its Job API lacks what submit relies on (spec.suspend, GA in 1.24), and status and cancel read what submit writes',
      );
    }
  });

  it('accepts the minimum; without HA it warns that the Job will not record the exit code (podFailurePolicy < 1.26)', () => {
    const s = serverSupport(v('v1.24.17'), plain);
    expect(s.refusal).toBeUndefined();
    expect(s.warnings).toEqual([
      expect.stringMatching(
        /^Kubernetes server v1\.24\.17 lacks the Job's podFailurePolicy \(on by default from 1\.26\) and drops it: /,
      ),
    ]);
    expect(s.notes[0]).toBe(
      'Kubernetes server v1.24.17: supported (Kubernetes 1.24 and newer (tested on 1.24 and 1.36))',
    );
    expect(s.notes).toContain(s.warnings[0]);
    expect(s.notes).toContainEqual(
      expect.stringMatching(/no server-side field validation \(fieldValidation=Strict, on by default from 1\.25\)/),
    );
  });

  it('refuses high availability below 1.26, naming the option', () => {
    const s = serverSupport(v('v1.25.16'), { highAvailability: true, admissionFence: false });
    expect(s.refusal).toMatch(
      /^application\.ha\.enabled: Kubernetes server v1\.25\.16 lacks the Job's podFailurePolicy .* High availability needs Kubernetes 1\.26 or newer$/,
    );
    expect(serverSupport(v('v1.26.0'), { highAvailability: true, admissionFence: false }).refusal).toBeUndefined();
  });

  it('status and cancel (no plan) get no warnings about the plan on an old server', () => {
    expect(serverSupport(v('v1.24.17'))).toEqual({
      server: 'v1.24.17',
      warnings: [],
      notes: ['Kubernetes server v1.24.17: supported (Kubernetes 1.24 and newer (tested on 1.24 and 1.36))'],
    });
  });

  it('notes the admission fence needs 1.30 only when the application uses it', () => {
    const fence = { highAvailability: false, admissionFence: true };
    expect(serverSupport(v('v1.29.4'), fence).notes).toContainEqual(
      expect.stringMatching(/^kubernetes\.admission-fence: .* no ValidatingAdmissionPolicy v1 \(GA in 1\.30\)/),
    );
    expect(serverSupport(v('v1.29.4'), plain).notes.join('\n')).not.toMatch(/admission-fence/);
    expect(serverSupport(v('v1.30.0'), fence).notes.join('\n')).not.toMatch(/admission-fence/);
  });

  it('a current server is supported without warnings; untested minors say so', () => {
    expect(serverSupport(v('v1.36.3'), { highAvailability: true, admissionFence: true })).toEqual({
      server: 'v1.36.3',
      warnings: [],
      notes: ['Kubernetes server v1.36.3: supported (Kubernetes 1.24 and newer (tested on 1.24 and 1.36))'],
    });
    expect(serverSupport(v('v1.30.2'), plain).notes[0]).toMatch(/; this minor lies between the tested ones$/);
    expect(serverSupport(v('v1.37.0'), plain).notes[0]).toMatch(
      /; newer than the newest tested minor 1\.36, and every API the application uses is GA there$/,
    );
  });
});

describe('the tested minors are the ones the test tiers build', () => {
  it('tools/testbin/versions.env: K8S_OLDEST_VERSION is the minimum and the first tested minor, K8S_VERSION the last', () => {
    const env = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'tools', 'testbin', 'versions.env'), 'utf8');
    const minorOf = (name: string) => {
      const m = new RegExp(`^${name}=v(\\d+\\.\\d+)\\.\\d+$`, 'm').exec(env);
      if (!m) throw new Error(`${name} not found in versions.env`);
      return m[1];
    };
    const { major, minor } = KUBERNETES_SUPPORT.minimum;
    expect(KUBERNETES_SUPPORT.tested).toEqual([minorOf('K8S_OLDEST_VERSION'), minorOf('K8S_VERSION')]);
    expect(minorOf('K8S_OLDEST_VERSION')).toBe(`${major}.${minor}`);
  });
});
