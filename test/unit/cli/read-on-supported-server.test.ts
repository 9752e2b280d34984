// readOnSupportedServer (lib/cli/connect.ts): status reads while it asks for the server's version,
// in one round trip, and still never reports from a server it refuses. The round trip itself is
// proven against the real API server (test/cluster/cli-submit-requests.test.ts); here, which
// outcome wins when the two disagree.
import { readOnSupportedServer } from '../../../lib/cli/connect';
import { CliError } from '../../../lib/cli/exit-codes';
import type { Output } from '../../../lib/cli/output';
import type { Kube } from '../../../lib/kube';
import type { ServerVersion } from '../../../lib/kube/server-version';

function collectingOutput(): Output & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    json: false,
    warnings,
    result: () => undefined,
    line: () => undefined,
    warn: (t) => warnings.push(t),
    error: () => undefined,
  };
}

/** A Kube whose /version answers `version` (or fails with it) after the read has started. */
function kubeAnswering(version: ServerVersion | Error, events: string[]): Kube {
  return {
    serverVersion: async () => {
      events.push('version asked');
      await new Promise((r) => setTimeout(r, 5));
      events.push('version answered');
      if (version instanceof Error) throw version;
      return version;
    },
  } as unknown as Kube;
}

const supported: ServerVersion = { major: 1, minor: 36, gitVersion: 'v1.36.3' };
const tooOld: ServerVersion = { major: 1, minor: 22, gitVersion: 'v1.22.17' };

test('the read starts before the version has answered, and its answer is returned on a supported server', async () => {
  const events: string[] = [];
  const out = collectingOutput();
  const got = await readOnSupportedServer(kubeAnswering(supported, events), out, async () => {
    events.push('read started');
    return 'report';
  });
  expect(got).toBe('report');
  expect(events).toEqual(['version asked', 'read started', 'version answered']);
  expect(out.warnings).toEqual([]);
});

test("a server the CLI refuses: the refusal is the error, even when the read succeeded, and the read's answer is not used", async () => {
  const out = collectingOutput();
  const e = await readOnSupportedServer(kubeAnswering(tooOld, []), out, async () => 'report').catch((x: unknown) => x);
  expect(e).toBeInstanceOf(CliError);
  expect((e as Error).message).toMatch(
    /^Kubernetes server v1\.22\.17 is not supported: seatunnel-app supports Kubernetes 1\.24 and newer/,
  );
});

test('a refused server wins over a failed read (the read failed because the server is too old)', async () => {
  const e = await readOnSupportedServer(kubeAnswering(tooOld, []), collectingOutput(), () =>
    Promise.reject(new Error('404 from an old API')),
  ).catch((x: unknown) => x);
  expect((e as Error).message).toMatch(/is not supported/);
});

test('a version read that fails is the error, whatever the read did', async () => {
  const e = await readOnSupportedServer(
    kubeAnswering(new Error('GET /version: connection refused'), []),
    collectingOutput(),
    async () => 'report',
  ).catch((x: unknown) => x);
  expect((e as Error).message).toBe('GET /version: connection refused');
});

test("on a supported server the read's own failure is the error", async () => {
  const e = await readOnSupportedServer(kubeAnswering(supported, []), collectingOutput(), () =>
    Promise.reject(new Error('403: cannot list pods')),
  ).catch((x: unknown) => x);
  expect((e as Error).message).toBe('403: cannot list pods');
});
