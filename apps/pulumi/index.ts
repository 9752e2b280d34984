// The Pulumi program behind Pulumi.yaml: one stack = one SeaTunnel job. The stack config says
// which (see lib/pulumi/stack-config.ts and the README), e.g.
//
//   pulumi config set seatunnel:deploymentFile apps/examples/deploy.conf
//   pulumi config set seatunnel:jobFile apps/examples/job.conf
//   pulumi up
//
// Invalid config stops the program before any resource is registered, with every problem listed.

import * as pulumi from '@pulumi/pulumi';
import { ConfigurationError } from '../../lib/model/issues';
import { SeaTunnelApplication } from '../../lib/pulumi/application';
import { applicationFromStackConfig, CONFIG_NAMESPACE, readStackJobConfig } from '../../lib/pulumi/stack-config';
import { TEAM_TEMPLATES } from './templates';

function application(): SeaTunnelApplication {
  try {
    const spec = applicationFromStackConfig(readStackJobConfig(new pulumi.Config(CONFIG_NAMESPACE)), {
      // Relative paths in the stack config are relative to the project (where Pulumi.yaml is);
      // the program itself runs in the directory of its entry point.
      baseDir: pulumi.runtime.getRootDirectory() || process.cwd(),
      templates: TEAM_TEMPLATES,
    });
    return new SeaTunnelApplication(spec.name, { spec });
  } catch (e) {
    // A RunError is shown without a stack trace: the message already says what to fix.
    if (e instanceof ConfigurationError) throw new pulumi.RunError(`${e.message}\n(stack ${pulumi.getStack()})`);
    throw e;
  }
}

const app = application();

export const applicationId = app.applicationId;
export const jobId = app.jobId;
export const namespace = app.namespace;
export const jobName = app.jobName;
