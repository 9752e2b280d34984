// bench/synth: per-application time of the plan alone and of the full cdk8s synth to YAML, for
// N = 1, 100 and 1000 applications, against the floor: plain YAML serialisation (the `yaml`
// package) of the same, already built objects, measured in the same run. Target: synth ≤ 3× the floor.
//
// "synth" is what `seatunnel-app synth` does per application: resolve → plan → YAML as the cdk8s
// door writes it, without cdk8s (lib/plan/manifest-yaml.ts). "one App, N charts" is what a user's
// own cdk8s app with many applications does; cdk8s itself grows worse than linearly there (its
// validation and dependency sort walk the whole tree).
//
//   npm run bench:synth

import { App } from 'cdk8s';
import { stringify } from 'yaml';
import { SeaTunnelApplicationChart } from '../lib/cdk8s/application';
import { synthYaml } from '../lib/cli/commands/synth';
import { resolveApplication } from '../lib/model/resolve';
import type { ApplicationSpec } from '../lib/model/spec';
import { allObjects, buildPlan } from '../lib/plan/build-plan';
import { medianOf, table } from './harness';

const JOB =
  'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 100 } }\nsink { Console { plugin_input = "fake" } }\n';

function specs(n: number): ApplicationSpec[] {
  return Array.from({ length: n }, (_, i) =>
    resolveApplication({
      name: `bench-${i}`,
      image: 'apache/seatunnel:2.3.12',
      jobConfig: JOB,
      workerCount: 3,
      configMaps: { cfg: { data: { 'a.properties': `x=${i}` }, mounts: { 'a.properties': '/etc/a.properties' } } },
      env: { ROWS: '100', PASSWORD: { secret: 'db', key: 'password' } },
      workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
    }),
  );
}

function planOnly(list: ApplicationSpec[]): void {
  for (const s of list) buildPlan(s, { suspend: false });
}

function yamlOnly(objects: ReadonlyArray<ReturnType<typeof allObjects>>): void {
  for (const objs of objects) objs.map((o) => stringify(o)).join('---\n');
}

function synthEach(list: ApplicationSpec[]): void {
  for (const s of list) synthYaml(s);
}

function synthOneApp(list: ApplicationSpec[]): void {
  const app = new App({ outdir: '/nonexistent' });
  for (const s of list) new SeaTunnelApplicationChart(app, s.appId, { application: { spec: s } });
  app.synthYaml();
}

const rows: Array<Array<string | number>> = [];
for (const n of [1, 100, 1000]) {
  const list = specs(n);
  const objects = list.map((s) => allObjects(buildPlan(s, { suspend: false })));
  const runs = n === 1 ? 50 : n === 100 ? 5 : 3;
  const tPlan = medianOf(runs, () => planOnly(list)) / n;
  const tFloor = medianOf(runs, () => yamlOnly(objects)) / n;
  const tSynth = medianOf(runs, () => synthEach(list)) / n;
  const tOneApp = medianOf(n === 1000 ? 1 : runs, () => synthOneApp(list)) / n;
  rows.push([
    String(n),
    tPlan,
    tFloor,
    tSynth,
    `${(tSynth / tFloor).toFixed(2)}x`,
    tSynth / tFloor <= 3 ? 'yes' : 'NO',
    tOneApp,
    `${(tOneApp / tFloor).toFixed(2)}x`,
  ]);
}
console.log(
  'Per-application time in ms (median of repeated runs after a warm-up; one run for one App with 1000 charts):',
);
console.log(
  table(['N', 'plan', 'YAML only (floor)', 'synth', 'synth/floor', '≤ 3×', 'one App, N charts', 'ratio'], rows),
);
