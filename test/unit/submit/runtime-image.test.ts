// Which build of the runtime image the master Pod ran, against the one the package records
// (lib/submit/observe/runtime-image.ts); the real kubelet's imageID for a loaded image is checked by
// the node tier's quick-start test.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../../lib/model/reserved';
import {
  readRuntimeImageRecord,
  runtimeImageMismatch,
  type RuntimeImageRecord,
} from '../../../lib/submit/observe/runtime-image';
import { deriveStatus, statusLines } from '../../../lib/submit/observe/status';

const ID = `sha256:${'c'.repeat(64)}`;
const MANIFEST = `sha256:${'4'.repeat(64)}`;
const OTHER = `sha256:${'9'.repeat(64)}`;
const RECORD: RuntimeImageRecord = { ref: 'seatunnel-app-runtime:0.1.0', imageId: ID, manifestDigest: MANIFEST };

function master(imageID: string | undefined, image = RECORD.ref): Pod {
  return {
    metadata: { name: 'orders-1-m', labels: { [LABELS.role]: 'master' } },
    spec: { nodeName: 'node-2', initContainers: [{ name: 'install-runtime', image }], containers: [] },
    status: {
      phase: 'Running',
      initContainerStatuses: [{ name: 'install-runtime', image, imageID: imageID ?? '', ready: true, restartCount: 0 }],
    },
  };
}

describe('runtimeImageMismatch', () => {
  it("is silent for this release's image: loaded (the image ID) or pulled (name@manifest digest)", () => {
    expect(runtimeImageMismatch(master(ID), RECORD)).toBeUndefined();
    expect(runtimeImageMismatch(master(`registry.example/seatunnel-app-runtime@${MANIFEST}`), RECORD)).toBeUndefined();
  });

  it('names the node, what ran and what this release expects when another build ran under the tag', () => {
    expect(runtimeImageMismatch(master(OTHER), RECORD)).toBe(
      `the runtime image seatunnel-app-runtime:0.1.0 on node node-2 is another build than this release's (it ran ${OTHER}, this release's is ${ID}): ` +
        'load this release\'s image there (`npm run image`; docs/runtime.md, "Delivery")',
    );
  });

  it('is silent for an image the user named, and before the kubelet reports one', () => {
    expect(runtimeImageMismatch(master(OTHER, 'registry.example/team/runtime:7'), RECORD)).toBeUndefined();
    expect(runtimeImageMismatch(master(undefined), RECORD)).toBeUndefined();
    expect(runtimeImageMismatch({ metadata: { name: 'x' } }, RECORD)).toBeUndefined();
  });
});

describe('status with the record', () => {
  const job = { metadata: { name: 'orders-1', annotations: {} }, spec: { suspend: false }, status: {} } as Job;
  it('prints a Warning line for another build and none for this one; the status itself is unchanged', () => {
    const obs = (id: string) => ({
      applicationId: 'orders-1',
      namespace: 'ns',
      job,
      pods: [master(id)],
      runtimeImage: RECORD,
    });
    const other = deriveStatus(obs(OTHER));
    const same = deriveStatus(obs(ID));
    expect(other.status).toBe(same.status);
    expect(statusLines(other).filter((l) => l.startsWith('Warning: '))).toEqual([
      `Warning: ${runtimeImageMismatch(master(OTHER), RECORD)}`,
    ]);
    expect(statusLines(same).some((l) => l.startsWith('Warning: '))).toBe(false);
    // Without a record (a checkout before `npm run image`) nothing is compared.
    const { runtimeImage: _none, ...unrecorded } = obs(OTHER);
    expect(deriveStatus(unrecorded).warning).toBeUndefined();
  });
});

describe('readRuntimeImageRecord', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-image-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (v: unknown) => fs.writeFileSync(path.join(dir, 'runtime-image.json'), JSON.stringify(v));

  it('reads what npm run image writes', () => {
    write({ comment: 'x', ...RECORD, bundle: OTHER });
    expect(readRuntimeImageRecord(dir)).toEqual(RECORD);
  });

  it('gives nothing for no file, broken JSON or a field that is not a digest', () => {
    expect(readRuntimeImageRecord(dir)).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'runtime-image.json'), '{');
    expect(readRuntimeImageRecord(dir)).toBeUndefined();
    write({ ...RECORD, imageId: 'sha256:short' });
    expect(readRuntimeImageRecord(dir)).toBeUndefined();
  });
});
