// The cdk8s app behind `npx cdk8s synth` (see cdk8s.yaml): the bundled example from its
// SeaTunnel deployment file, and the team template's three applications — one YAML file each.

import { App } from 'cdk8s';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addTeamApplications, SeaTunnelApplicationChart } from '../../lib/cdk8s/application';
import { packageRoot } from '../../lib/cli/io';
import { loadApplication } from '../../lib/model/load';
import { dataTeam, teamApplications } from '../examples/team/template';

const exampleDir = join(packageRoot(), 'apps', 'examples');

export function buildApp(outdir?: string): App {
  const app = new App(outdir ? { outdir } : {});
  const spec = loadApplication(
    {
      deploymentText: readFileSync(join(exampleDir, 'deploy.conf'), 'utf8'),
      deploymentFile: join(exampleDir, 'deploy.conf'),
      jobConfig: readFileSync(join(exampleDir, 'job.conf'), 'utf8'),
      env: process.env,
    },
    { ids: 'derived' },
  );
  new SeaTunnelApplicationChart(app, spec.appId, { application: { spec } });
  addTeamApplications(app, dataTeam, teamApplications);
  return app;
}

if (require.main === module) buildApp().synth();
