// kwok has no built-in behaviour: every transition is a Stage. We use kwok's own default stage
// files (copied from its module by tools/testbin/build.sh) and add one opt-out so a test can take
// over a Pod's lifecycle, e.g. an engine test that runs the real process on this machine and
// reflects it into the Pod's status itself:
//
//   metadata.annotations["seatunnel-app.test/kwok-lifecycle"] = "manual"       kwok neither starts nor completes the Pod
//   metadata.annotations["seatunnel-app.test/kwok-lifecycle"] = "no-complete"  kwok makes it Running but never Succeeded
//   metadata.annotations["seatunnel-app.test/kwok-lifecycle"] = "local"        kwok leaves the Pod entirely to the local
//                                                                               kubelet (local-kubelet.ts),
//                                                                               graceful deletion included
//
// Deleting a "manual" or "no-complete" Pod still works (the pod-delete stage applies to them).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

export const KWOK_LIFECYCLE_ANNOTATION = 'seatunnel-app.test/kwok-lifecycle';
export type KwokLifecycle = 'manual' | 'no-complete' | 'local';

/** The annotation that lets kwok manage the fake nodes we create. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const KWOK_NODE_ANNOTATION_VALUE = 'fake';

const STAGE_FILES = [
  'node-initialize.yaml',
  'node-heartbeat-with-lease.yaml',
  'pod-ready.yaml',
  'pod-complete.yaml',
  'pod-delete.yaml',
];

interface Stage {
  metadata: { name: string };
  spec: { selector?: { matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> } };
}

const OPT_OUT: Record<string, string[]> = {
  'pod-ready': ['manual', 'local'],
  'pod-complete': ['manual', 'no-complete', 'local'],
  // A local Pod's deletion is finished by the local kubelet once its processes have exited, as a
  // kubelet does: until then the Pod exists, so its bound ServiceAccount token stays valid.
  'pod-delete': ['local'],
};

/** Writes one multi-document stage file for kwok's `-c` and returns its path. */
export function writeKwokStages(stagesDir: string, outFile: string): string {
  const docs: string[] = [];
  for (const file of STAGE_FILES) {
    const full = path.join(stagesDir, file);
    if (!fs.existsSync(full))
      throw new Error(`kwok stage ${full} is missing (rebuild kwok with tools/testbin/build.sh)`);
    for (const doc of parseAllDocuments(fs.readFileSync(full, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`kwok stage ${full}: ${doc.errors[0].message}`);
      const stage = doc.toJS() as Stage;
      const values = OPT_OUT[stage.metadata.name];
      if (values) {
        stage.spec.selector ??= {};
        stage.spec.selector.matchExpressions ??= [];
        stage.spec.selector.matchExpressions.push({
          key: `.metadata.annotations["${KWOK_LIFECYCLE_ANNOTATION}"]`,
          operator: 'NotIn',
          values,
        });
      }
      docs.push(stringify(stage));
    }
  }
  fs.writeFileSync(outFile, docs.join('---\n'));
  return outFile;
}
