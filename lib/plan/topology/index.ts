// The master topology of an application, chosen once: the only place the plan asks whether a
// spec has high availability to decide which Pods exist (./topology.ts says what each one offers).

import type { ApplicationSpec } from '../../model/spec';
import { haMasters } from './high-availability';
import { localMaster } from './local';
import type { MasterTopology } from './topology';

export type { MasterTopology } from './topology';

export function masterTopology(spec: ApplicationSpec): MasterTopology {
  return spec.ha ? haMasters(spec, spec.ha) : localMaster(spec);
}
