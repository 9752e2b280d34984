import * as fs from 'node:fs';
import { allObjects, buildPlan, dependents, FEATURE_STEPS, withJobOwner } from '../../../lib/plan/build-plan';
import { plan, spec } from '../../support/fixtures';

test('pure: the same spec gives the same objects', () => {
  const s = spec();
  expect(JSON.stringify(buildPlan(s))).toBe(JSON.stringify(buildPlan(s)));
});

test('dependents come before the Job, RBAC first', () => {
  const objs = allObjects(plan());
  expect(objs[objs.length - 1].kind).toBe('Job');
  expect(objs.slice(0, 3).map((o) => o.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding']);
  expect(dependents(plan()).map((o) => o.kind)).not.toContain('Job');
});

test('every object is in the namespace and carries the application label', () => {
  const p = plan({ namespace: 'jobs' });
  for (const o of allObjects(p)) {
    expect(o.metadata.namespace).toBe('jobs');
    expect(o.metadata.labels!['seatunnel.apache.org/application-id']).toBe(p.spec.appId);
  }
});

test('owner references: the Job, controller false, blockOwnerDeletion false', () => {
  const p = plan();
  expect(withJobOwner(p.service, p.job.metadata.name, 'uid-1').metadata.ownerReferences).toEqual([
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: p.job.metadata.name,
      uid: 'uid-1',
      controller: false,
      blockOwnerDeletion: false,
    },
  ]);
  expect(p.service.metadata.ownerReferences).toBeUndefined();
});

test('every step has its own test file', () => {
  for (const step of FEATURE_STEPS) expect(fs.existsSync(`${__dirname}/${step.name}.test.ts`)).toBe(true);
});
