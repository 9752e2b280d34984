// One local master: Zeta's master runs in this Pod, started by the runtime once the workers'
// containers run (docs/runtime.md, "Start order"): Zeta's master registers the workers that are
// members when its resource manager starts, and a worker that joins later registers only at its
// next heartbeat, every 5 s. A worker keeps trying to join the master's address (this Pod's IP,
// known from the start), so the workers' JVMs start while the master's does. The workers are
// owned by this Pod: deleting it, however it happens, removes them.

import { startEngine, waitForEngine, workersUnderway } from '../steps/engine-start';
import type { Step } from '../steps/context';
import type { MasterTopology } from './topology';

export function localMaster(s: Step): MasterTopology {
  const { settings, kube } = s.deps;
  return {
    kind: 'local',
    outlivesThisPod: false,
    prepare: () => s.deps.writeEngineFiles(),
    // The Job never starts a second runtime (backoffLimit 0).
    restartsExhausted: () => undefined,
    // One Pod, one runtime: nobody else can be in charge.
    takeCharge: () => Promise.resolve(),
    stillInCharge: () => Promise.resolve(true),
    workers: (k) => ({
      ownerUid: k.pod.uid,
      adoptOwned: false,
      stamp: {
        appId: settings.app.appId,
        namespace: kube.namespace,
        template: k.template,
        master: k.pod,
        masterHost: settings.pod.masterHost,
        masterPort: settings.app.master.port,
      },
    }),
    // The workers first: the master's JVM starts once their containers run (see above).
    async start(_k, createWorkers) {
      const reconciler = await createWorkers();
      const ready = (async () => {
        await workersUnderway(s, reconciler);
        startEngine(s);
        await waitForEngine(s);
      })();
      await s.interruption.guard(ready);
      return reconciler;
    },
    // The Job never starts a second runtime (backoffLimit 0): nobody submitted before this one.
    reattach: () => Promise.resolve(undefined),
    claimSubmission: () => Promise.resolve({ claimed: true }),
    submitted: () => undefined,
    inheritedWorkers: () => [],
    // The one master is the engine in this Pod: there is no other to take the job over.
    restartActiveMaster: () => Promise.resolve(false),
    confirmEnd: (_jobId, seen) => Promise.resolve(seen),
    // The one master is the only way in.
    readJobElsewhere: () => Promise.resolve(undefined),
    release: () => Promise.resolve(),
    removeMasters: () => Promise.resolve([]),
  };
}
