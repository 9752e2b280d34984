// Pulumi mocks for unit tests. setMocks is global to a Jest module registry, so every test file
// that needs them calls installMocks() in its own beforeAll and only then loads the modules under
// test (with require, after the mocks are in place).

import type * as pulumiModule from '@pulumi/pulumi';

export interface Registered {
  readonly type: string;
  readonly name: string;
  /** The inputs as the engine received them (secrets still wrapped, see isSecretValue). */
  readonly inputs: Record<string, unknown>;
  readonly custom: boolean;
  /** Reference of the provider instance (`urn::id`), when the resource names one. */
  readonly provider?: string;
}

/** The uid the mocked API server gives a Job (stands in for the real one). */
export const mockJobUid = (name: string) => `uid-${name}`;

export interface MockedPulumi {
  readonly pulumi: typeof pulumiModule;
  readonly registered: Registered[];
  /** The value of an Output (resolves once the mock monitor answered). */
  value<T>(o: pulumiModule.Output<T>): Promise<T>;
  /** Whether an Output is a secret. */
  isSecret(o: pulumiModule.Output<unknown>): Promise<boolean>;
}

/** Installs recording mocks: Jobs get a uid; every other resource returns its inputs as state. */
export async function installMocks(project = 'seatunnel-jobs', stack = 'unit'): Promise<MockedPulumi> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pulumi = require('@pulumi/pulumi') as typeof pulumiModule;
  const registered: Registered[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({
          type: args.type,
          name: args.name,
          inputs: args.inputs,
          custom: args.custom ?? false,
          provider: args.provider,
        });
        const inputs = args.inputs as { metadata?: { name?: string; namespace?: string } };
        const state =
          args.type === 'kubernetes:batch/v1:Job'
            ? { ...args.inputs, metadata: { ...inputs.metadata, uid: mockJobUid(inputs.metadata?.name ?? args.name) } }
            : args.inputs;
        const id = inputs.metadata?.name
          ? `${inputs.metadata.namespace ?? ''}/${inputs.metadata.name}`
          : `${args.name}-id`;
        return { id, state };
      },
      call: (args) => args.inputs,
    },
    project,
    stack,
    false,
  );
  return {
    pulumi,
    registered,
    value: <T>(o: pulumiModule.Output<T>) =>
      new Promise<T>((resolve) =>
        o.apply((v) => {
          resolve(v);
          return v;
        }),
      ),
    isSecret: (o) => (o as unknown as { isSecret: Promise<boolean> }).isSecret,
  };
}

/** Whether a mock input value is a secret (the engine receives secrets wrapped in a signature). */
export function isSecretValue(v: unknown): v is { value: unknown } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runtime } = require('@pulumi/pulumi') as typeof pulumiModule;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as Record<string, unknown>)[runtime.specialSigKey] === runtime.specialSecretSig
  );
}

/** A deep copy with every secret wrapper replaced by its value. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecretValue(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}
