// The deployment-file door in one call: read options, merge them over an optional template,
// resolve and validate, and report every problem of every stage at once.

import { readDeploymentOptions, type DeploymentInput } from './deployment';
import { ConfigurationError, type ValidationIssue } from './issues';
import { FILE_OPTIONS, optionPath } from './options';
import type { SeaTunnelApplicationProps } from './props';
import { resolveDetailed, type ResolveContext } from './resolve';
import type { ApplicationSpec } from './spec';
import { mergeProps } from './template';

export interface LoadOptions extends Omit<ResolveContext, 'keyStyle' | 'sourceOf'> {
  /** Defaults under the deployment file (e.g. a team template's). */
  readonly defaults?: Partial<SeaTunnelApplicationProps>;
  /** Receives warnings about a configuration that is valid but risky (never containing a value). */
  readonly onWarning?: (message: string) => void;
}

export function loadApplication(input: DeploymentInput, options: LoadOptions = {}): ApplicationSpec {
  const { onWarning, ...resolveOptions } = options;
  const read = readDeploymentOptions(input);
  const props = mergeProps(options.defaults ?? {}, read.props) as SeaTunnelApplicationProps;
  const ctx: ResolveContext = {
    ...resolveOptions,
    keyStyle: 'file',
    sourceOf: (prop) =>
      read.sources.get(prop) ?? (options.defaults?.[prop] !== undefined ? 'team template' : undefined),
  };
  const rejectedKeys = new Set(
    FILE_OPTIONS.filter(([prop]) => read.rejected.has(prop)).map(([, def]) => optionPath(def)),
  );
  // A value that could not be read is reported once, by the reader, not again as "missing".
  const { spec, issues } = resolveDetailed(props, ctx);
  const later = issues.filter(
    (i) => ![...rejectedKeys].some((k) => i.key === k || i.key.startsWith(`${k}.`) || i.key.startsWith(`${k}[`)),
  );
  const all: ValidationIssue[] = [...read.issues, ...later];
  if (all.length > 0) throw new ConfigurationError(all);
  for (const w of read.warnings) onWarning?.(w);
  return spec;
}
