// The glue the cdk8s and Pulumi doors share (lib/doors/shared.ts).

import { Testing } from 'cdk8s';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeaTunnelApplication } from '../../../lib/cdk8s/application';
import { isResolved, objectId, resolveDoorProps } from '../../../lib/doors/shared';
import { allObjects } from '../../../lib/plan/build-plan';
import { problems, props, spec } from '../../support/fixtures';

test('typed props and an application resolved elsewhere are told apart', () => {
  expect(isResolved({ spec: spec() })).toBe(true);
  expect(isResolved({ spec: spec(), suspend: true })).toBe(true);
  expect(isResolved(props())).toBe(false);
});

test('runtime files are read relative to the base directory, with derived IDs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'door-files-'));
  writeFileSync(join(dir, 'log4j2.properties'), 'rootLogger.level = WARN\n');
  const a = resolveDoorProps(props({ runtimeFiles: { log4j2: { file: 'log4j2.properties' } } }), dir);
  expect(a.runtimeFiles.log4j2).toMatchObject({ mode: 'supplied', content: 'rootLogger.level = WARN\n' });
  const b = resolveDoorProps(props({ runtimeFiles: { log4j2: { file: join(dir, 'log4j2.properties') } } }), '/');
  expect(b.appId).toBe(a.appId);
  expect(b.jobId).toBe(a.jobId);
});

test('a runtime file that is not a regular file is a configuration error, not an endless read', () => {
  expect(problems(() => resolveDoorProps(props({ runtimeFiles: { log4j2: { file: '/dev/zero' } } })))).toEqual([
    'runtimeFiles.log4j2.file: cannot be read: /dev/zero: is a device, expected a regular file',
  ]);
});

test('the cdk8s construct names each object by objectId', () => {
  const app = new SeaTunnelApplication(Testing.chart(), 'app', props());
  const ids = app.apiObjects.map((o) => o.node.id).sort();
  expect(ids).toEqual(allObjects(app.plan).map(objectId).sort());
  expect(objectId(app.plan.job)).toBe(`Job-${app.applicationId}`);
});
