// The end of every runtime scenario of a cluster test file (./application.ts deploys, this removes).

import { deleteApplication, expectNoWorkersLeft, type Deployed, type RuntimeRun } from './application';

/**
 * The end of every runtime scenario of a test file: the runtime killed if it still runs, no worker
 * Pod of the application left, the application deleted. Returns `track`, which names the
 * application (and its run) the current test works on.
 */
export function cleanUpEachApplication(): (app: Deployed, run?: RuntimeRun) => void {
  let current: { app: Deployed; run?: RuntimeRun } | undefined;
  afterEach(async () => {
    if (!current) return;
    const { app, run } = current;
    current = undefined;
    if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
    try {
      await expectNoWorkersLeft(app.namespace, app.appId);
    } finally {
      await deleteApplication(app);
    }
  }, 60_000);
  return (app, run) => {
    current = { app, run };
  };
}
