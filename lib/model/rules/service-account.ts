// The master's ServiceAccount: the one the user names, or `<appId>-runtime`, generated for the
// application. Never `default`: the runtime Role would then go to every Pod of the namespace that
// runs as `default`.

import type { ApplicationSpec } from '../spec';
import type { PropReader } from './reader';

export function resolveServiceAccount(
  r: PropReader,
  appId: string,
): Pick<ApplicationSpec, 'serviceAccount' | 'serviceAccountGenerated'> {
  const named = r.optionalName('serviceAccount');
  if (named === 'default') {
    r.fail(
      'serviceAccount',
      named,
      'must not be "default": the runtime Role would be granted to every Pod that runs as default; leave it unset (a ServiceAccount is generated for the application) or name a dedicated one',
    );
  }
  return named
    ? { serviceAccount: named, serviceAccountGenerated: false }
    : { serviceAccount: `${appId}-runtime`, serviceAccountGenerated: true };
}
