// The job itself: inline text (from `-c` or props), carried verbatim in a Secret the application
// owns and mounts on the runtime's container, or the path of a file mounted on the master. Its
// syntax is checked now rather than in the Pod.

import { parseHocon } from '../../hocon';
import { absolutePathProblem } from '../k8s-syntax';
import type { JobConfigSpec, MountedObject } from '../spec';
import type { PropReader } from './reader';

/**
 * Largest job config carried inline (in the job config's Secret); bigger ones belong in a mounted
 * file. The Secret is applied as it is synthesised, and `kubectl apply` copies the whole object
 * into its last-applied-configuration annotation, while a Kubernetes object's annotations may total
 * at most 256 KiB: 120 KiB leaves room for that copy (JSON-escaped) and the object around it. It
 * also stays under the 128 KiB Linux allows one environment string (MAX_ARG_STRLEN) should the text
 * ever travel in the environment again — a 135 KiB job did, and the master died with "argument list
 * too long" on a real node.
 */
export const MAX_INLINE_JOB_CONFIG_BYTES = 120 * 1024;

/**
 * The job config travels verbatim, but a file that is not HOCON, or that has no source or sink,
 * would only fail inside the Pod minutes later; check its syntax now (placeholders stay unresolved).
 */
export function jobConfigProblem(text: string): string | undefined {
  let tree: Record<string, unknown>;
  try {
    const doc = parseHocon(text, { filename: 'job config' });
    tree = doc.resolve({ env: {}, allowUnresolved: true });
  } catch (e) {
    return `the job config is not valid HOCON: ${(e as Error).message}`;
  }
  const missing = ['source', 'sink'].filter((k) => tree[k] === undefined);
  if (missing.length)
    return `the job config has no ${missing.join(' and no ')} section; a SeaTunnel job needs env, source and sink`;
  return undefined;
}

/** `mounted`: the application's resolved ConfigMap and Secret entries, where a job file must come from. */
export function resolveJobConfig(r: PropReader, mounted: readonly MountedObject[]): JobConfigSpec | undefined {
  const text = r.props.jobConfig;
  const file = r.props.jobConfigFile;
  if (text !== undefined && file !== undefined) {
    r.fail(
      'jobConfigFile',
      file,
      'a job config (-c) and kubernetes.job-config-file were both given; choose one (the mounted file would make -c silently unused)',
    );
    return undefined;
  }
  if (file !== undefined) {
    if (!r.check('jobConfigFile', file, absolutePathProblem(file))) return undefined;
    const onMaster = mounted.filter((m) => m.roles.includes('master')).flatMap((m) => m.mounts.map((x) => x.path));
    if (!onMaster.includes(file)) {
      r.fail(
        'jobConfigFile',
        file,
        `must be the path of a key mounted on the master by a kubernetes.configmap.<entry> or kubernetes.secret.<entry> (mounted on the master: ${onMaster.join(', ') || 'none'})`,
      );
      return undefined;
    }
    return { kind: 'file', path: file };
  }
  const key = r.jobConfigKey();
  if (text === undefined) {
    r.failWithoutOption(
      key,
      'a job config is required: pass -c job.conf, or set kubernetes.job-config-file to a mounted file',
    );
    return undefined;
  }
  if (typeof text !== 'string' || text.trim() === '') {
    r.failWithoutOption(key, 'the job config must not be empty', text);
    return undefined;
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_INLINE_JOB_CONFIG_BYTES) {
    r.failWithoutOption(
      key,
      `an inline job config is carried in a Secret of the application and may be at most ${MAX_INLINE_JOB_CONFIG_BYTES / 1024} KiB; mount it with kubernetes.configmap.<entry> and set kubernetes.job-config-file`,
      `${bytes} bytes`,
    );
    return undefined;
  }
  const problem = jobConfigProblem(text);
  if (problem) {
    r.failWithoutOption(key, problem);
    return undefined;
  }
  return { kind: 'inline', text };
}
