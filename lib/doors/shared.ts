// What the cdk8s door (lib/cdk8s) and the Pulumi door (lib/pulumi) do alike, written once: tell
// typed props from an application resolved elsewhere, resolve typed props the way both do (derived,
// stable IDs; runtime files read relative to a base directory), and name each plan object (the
// construct id in cdk8s, the resource name in Pulumi — a public contract of both). Imports neither
// framework: like model and plan, it is shared below the doors.

import { filesRelativeTo } from '../hocon/file-include';
import type { SeaTunnelApplicationProps } from '../model/props';
import { resolveApplication } from '../model/resolve';
import type { ApplicationSpec } from '../model/spec';

/** An application already resolved elsewhere (the CLI, a deployment file, a test): a door uses it as is. */
export interface ResolvedInput {
  readonly spec: ApplicationSpec;
}

/** Whether a door's input is an application resolved elsewhere rather than typed props. */
export function isResolved(input: object): input is ResolvedInput {
  return 'spec' in input && typeof input.spec === 'object' && !('image' in input);
}

/**
 * Typed props resolved as the doors resolve them: derived IDs (the same application keeps its IDs
 * from one synth or `up` to the next) and `runtimeFiles.*.file` read relative to `baseDir`.
 * @throws ConfigurationError with every problem.
 */
export function resolveDoorProps(props: SeaTunnelApplicationProps, baseDir: string = process.cwd()): ApplicationSpec {
  return resolveApplication(props, { ids: 'derived', readFile: filesRelativeTo(baseDir) });
}

/** The id of a plan object in a door: `<kind>-<name>`. */
export function objectId(o: { readonly kind: string; readonly metadata: { readonly name: string } }): string {
  return `${o.kind}-${o.metadata.name}`;
}
