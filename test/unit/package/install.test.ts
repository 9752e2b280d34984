// The package as its users get it: `npm pack`, then the tarball installed into empty projects
// that add only what their door needs — a cdk8s app (cdk8s, cdk8s-plus-28, constructs), a
// Pulumi program (@pulumi/pulumi, @pulumi/kubernetes) and a plain TypeScript program (nothing
// else) — each importing seatunnel-app by name, type-checked against the published declarations,
// and run: `cdk8s synth`, the Pulumi program under the runtime's mocks, the root API, and
// `npx seatunnel-app`. The root entry offers what a user needs and none of the plan's internals;
// the runtime's entry (seatunnel-app/runtime-support) offers no types at all (lib/index.ts). Installs come from the local npm cache
// (--prefer-offline); the door frameworks are pinned to the versions this repository tests.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

jest.setTimeout(300_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const bin = (name: string) => path.join(REPO, 'node_modules', '.bin', name);
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const versionOf = (name: string): string =>
  (JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

// Nothing of the `npm test` that runs this may leak into the child npm processes (npm_config_*,
// NODE_OPTIONS for Jest's ESM loader).
const ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.homedir(),
  NODE_OPTIONS: '',
};

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: ENV, encoding: 'utf8' });
}

function ok(cmd: string, args: string[], cwd: string): string {
  const r = run(cmd, args, cwd);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const JOB_CONFIG = `env { job.mode = "BATCH" }
source { FakeSource { plugin_output = "fake", row.num = 10 } }
sink { Console { plugin_input = "fake" } }
`;
const PROPS = `{ name: 'orders', namespace: 'data-jobs', image: 'apache/seatunnel:2.3.12', workerCount: 2, jobConfig: ${JSON.stringify(JOB_CONFIG)} }`;

let work: string;
let tarball: string;
let packed: string[];

/** An empty project with the tarball, @types/node and `deps` installed, and a tsconfig like the cdk8s and Pulumi templates'. */
function project(name: string, deps: string[]): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, skipLibCheck: true, types: ['node'] },
      files: ['main.ts'],
    }),
  );
  // --ignore-scripts: @pulumi/kubernetes' install script would fetch its provider plugin.
  ok(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      tarball,
      `@types/node@${versionOf('@types/node')}`,
      ...deps,
    ],
    dir,
  );
  return dir;
}

/** Compiles main.ts with the classic (node10) resolution, as those templates do, and type-checks it with node16 (package exports). */
function compile(dir: string, source: string): void {
  fs.writeFileSync(path.join(dir, 'main.ts'), source);
  ok(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
  ok(
    process.execPath,
    [TSC, '-p', 'tsconfig.json', '--module', 'node16', '--moduleResolution', 'node16', '--noEmit'],
    dir,
  );
}

function newestMtime(dir: string): number {
  return Math.max(
    0,
    ...fs
      .readdirSync(dir, { withFileTypes: true })
      .map((e) =>
        e.isDirectory() ? newestMtime(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).mtimeMs,
      ),
  );
}

const installed = (dir: string, name: string) => fs.existsSync(path.join(dir, 'node_modules', name, 'package.json'));

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'st-pack-'));
  // What `npm pack` would build through `prepare`, limited to the shipped part (lib/) and only
  // when a source is newer than the build, so this test packs the current sources without
  // compiling the tests, tools and benchmarks too.
  const built = path.join(REPO, 'build', 'lib', 'index.js');
  if (!fs.existsSync(built) || newestMtime(path.join(REPO, 'lib')) > fs.statSync(built).mtimeMs)
    ok(process.execPath, [TSC, '-p', 'tsconfig.lib.json'], REPO);
  // The CLI's bundle (build:cli), by the same rule.
  const cli = path.join(REPO, 'build', 'cli', 'seatunnel-app.js');
  if (!fs.existsSync(cli) || newestMtime(path.join(REPO, 'lib')) > fs.statSync(cli).mtimeMs)
    ok(process.execPath, [path.join(REPO, 'tools', 'build-cli.mjs')], REPO);
  const [info] = JSON.parse(
    ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO),
  ) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = path.join(work, info.filename);
  packed = info.files.map((f) => f.path);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the built library, its declarations, the CLI and its example, and no tests or sources', () => {
  for (const f of [
    'package.json',
    'README.md',
    'bin/seatunnel-app.js',
    'bin/kubectl-seatunnel.js',
    'bin/kubectl_complete-seatunnel.js',
    'runtime/Dockerfile',
    'runtime/Dockerfile.dockerignore',
    'build/lib/index.js',
    'build/lib/index.d.ts',
    'build/lib/cdk8s/index.d.ts',
    'build/lib/pulumi/index.d.ts',
    'build/lib/cli/main.js',
    'build/cli/seatunnel-app.js',
    'apps/examples/deploy.conf',
    'apps/examples/job.conf',
    'docs/options.md',
  ]) {
    expect(packed).toContain(f);
  }
  const unexpected = packed.filter(
    (f) =>
      (/^(test|tools|bench|runtime|lib|build\/(?!lib\/))\//.test(f) &&
        !/^runtime\/Dockerfile(\.dockerignore)?$/.test(f)) ||
      (/\.ts$/.test(f) && !f.endsWith('.d.ts')) ||
      f.endsWith('.map'),
  );
  expect(unexpected).toEqual([]);
});

test('a cdk8s app with only cdk8s, cdk8s-plus-28 and constructs imports the construct by name and synthesizes', () => {
  const dir = project('cdk8s-user', [
    `cdk8s@${versionOf('cdk8s')}`,
    `cdk8s-plus-28@${versionOf('cdk8s-plus-28')}`,
    `constructs@${versionOf('constructs')}`,
  ]);
  expect(installed(dir, '@pulumi/pulumi')).toBe(false);
  expect(installed(dir, '@pulumi/kubernetes')).toBe(false);
  compile(
    dir,
    `import { App } from 'cdk8s';
import { SeaTunnelApplicationChart } from 'seatunnel-app/cdk8s';
import { submitterRules, type SeaTunnelApplicationProps } from 'seatunnel-app';
const props: SeaTunnelApplicationProps = ${PROPS};
const app = new App();
new SeaTunnelApplicationChart(app, 'orders', { application: props });
if (submitterRules().length === 0) throw new Error('no submitter rules');
app.synth();
`,
  );
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), 'language: typescript\napp: node main.js\noutput: dist\n');
  ok(bin('cdk8s'), ['synth'], dir);
  const files = fs.readdirSync(path.join(dir, 'dist'));
  expect(files).toEqual(['orders.k8s.yaml']);
  const docs = parseAllDocuments(fs.readFileSync(path.join(dir, 'dist', files[0]), 'utf8')).map(
    (d) => d.toJS() as { kind: string; metadata: { namespace?: string } },
  );
  expect(docs[docs.length - 1].kind).toBe('Job');
  expect(docs.map((d) => d.kind)).toEqual(
    expect.arrayContaining(['PodTemplate', 'Role', 'RoleBinding', 'Service', 'ConfigMap']),
  );
  expect(new Set(docs.map((d) => d.metadata.namespace))).toEqual(new Set(['data-jobs']));

  // The CLI from the same install: `npx seatunnel-app synth` writes the bundled example.
  const out = ok('npx', ['--no', '--', 'seatunnel-app', 'synth', '-o', 'manifests'], dir);
  expect(out).toMatch(/Application ID: fake-to-console-/);
  const [manifest] = fs.readdirSync(path.join(dir, 'manifests'));
  const kinds = parseAllDocuments(fs.readFileSync(path.join(dir, 'manifests', manifest), 'utf8')).map(
    (d) => (d.toJS() as { kind: string }).kind,
  );
  expect(kinds[kinds.length - 1]).toBe('Job');

  // The same CLI as the kubectl plugin (an executable named kubectl-seatunnel on PATH), and the
  // completion kubectl's own asks it for (kubectl_complete-seatunnel, cobra's format).
  for (const name of ['kubectl-seatunnel', 'kubectl_complete-seatunnel'])
    expect(fs.statSync(path.join(dir, 'node_modules', '.bin', name)).mode & 0o111).not.toBe(0);
  const plugin = ok('npx', ['--no', '--', 'kubectl-seatunnel', 'synth', '-o', 'plugin-manifests'], dir);
  expect(plugin).toMatch(/Application ID: fake-to-console-/);
  expect(fs.readdirSync(path.join(dir, 'plugin-manifests'))).toEqual([manifest]);
  expect(ok('npx', ['--no', '--', 'kubectl_complete-seatunnel', 'sta'], dir)).toBe('status\n:4\n');
});

test('a Pulumi program with only @pulumi/pulumi and @pulumi/kubernetes gets the component by name, and no cdk8s', () => {
  const dir = project('pulumi-user', [
    `@pulumi/pulumi@${versionOf('@pulumi/pulumi')}`,
    `@pulumi/kubernetes@${versionOf('@pulumi/kubernetes')}`,
  ]);
  for (const name of ['cdk8s', 'cdk8s-plus-28', 'constructs']) expect(installed(dir, name)).toBe(false);
  compile(
    dir,
    `import * as pulumi from '@pulumi/pulumi';
import type { SeaTunnelApplicationArgs } from 'seatunnel-app/pulumi';

const registered: string[] = [];
async function main(): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered.push(a.type);
        const inputs = a.inputs as { metadata?: Record<string, unknown> };
        const state = a.type === 'kubernetes:batch/v1:Job' ? { ...inputs, metadata: { ...inputs.metadata, uid: 'uid-1' } } : inputs;
        return { id: a.name + '-id', state };
      },
      call: (a) => a.inputs,
    },
    'project',
    'stack',
    false,
  );
  // Loaded after the mocks are in place.
  const { SeaTunnelApplication } = await import('seatunnel-app/pulumi');
  const args: SeaTunnelApplicationArgs = ${PROPS};
  const app = new SeaTunnelApplication('orders', args);
  const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply((v) => { resolve(v); return v; }));
  await Promise.all([app, app.job, ...app.dependents, app.start].map((r) => value(r.urn)));
  process.stdout.write(JSON.stringify({ jobName: await value(app.jobName), registered }));
}
main().catch((e) => { console.error(e); process.exit(1); });
`,
  );
  const result = JSON.parse(ok(process.execPath, ['main.js'], dir)) as { jobName: string; registered: string[] };
  expect(result.jobName).toMatch(/^orders-/);
  expect(result.registered).toEqual(
    expect.arrayContaining([
      'kubernetes:batch/v1:Job',
      'kubernetes:batch/v1:JobPatch',
      'kubernetes:core/v1:PodTemplate',
      'kubernetes:rbac.authorization.k8s.io/v1:Role',
    ]),
  );

  // The CLI works without cdk8s, synth included: it renders what the cdk8s door would, without it.
  expect(ok('npx', ['--no', '--', 'seatunnel-app', '--help'], dir)).toMatch(/synth/);
  expect(fs.existsSync(path.join(dir, 'node_modules', 'cdk8s'))).toBe(false);
  expect(ok('npx', ['--no', '--', 'seatunnel-app', 'synth', '-o', 'out'], dir)).toMatch(/Wrote out[\\/].+\.k8s\.yaml/);
  expect(fs.readFileSync(path.join(dir, 'out', fs.readdirSync(path.join(dir, 'out'))[0]), 'utf8')).toMatch(
    /^kind: Job$/m,
  );
});

test('a program with only seatunnel-app uses the root API, which offers none of the internals', () => {
  const dir = project('library-user', []);
  for (const name of ['cdk8s', 'constructs', '@pulumi/pulumi']) expect(installed(dir, name)).toBe(false);
  compile(
    dir,
    `import * as root from 'seatunnel-app';
import {
  admissionFence, allObjects, ANNOTATIONS, buildPlan, ConfigurationError, EXIT_CODES, formatIssue, LABELS,
  loadApplication, PHASES, resolveApplication, runtimeRules, submitterRules, TeamTemplate, TOPOLOGY,
  type ApplicationPlan, type KubeObject, type SeaTunnelApplicationProps,
} from 'seatunnel-app';
const team = new TeamTemplate(
  { namespace: 'data-jobs', image: 'apache/seatunnel:2.3.12', workerSpreadTopology: [TOPOLOGY.zone] },
  { locked: ['namespace'] },
);
const props: SeaTunnelApplicationProps = team.application({ name: 'orders', workerCount: 2, jobConfig: ${JSON.stringify(JOB_CONFIG)} });
const plan: ApplicationPlan = buildPlan(resolveApplication(props));
const objects: KubeObject[] = allObjects(plan);
const loaded = loadApplication({
  deploymentText: 'kubernetes { namespace = data-jobs, image = "apache/seatunnel:2.3.12" }',
  overrides: [['application.worker-count', '3']],
  jobConfig: ${JSON.stringify(JOB_CONFIG)},
});
let refused = '';
try {
  resolveApplication({ ...props, workerCount: 0 });
} catch (e) {
  if (e instanceof ConfigurationError) refused = e.issues.map(formatIssue).join('; ');
}
process.stdout.write(JSON.stringify({
  kinds: objects.map((o) => o.kind),
  loadedWorkers: loaded.worker.count,
  refused,
  rules: [submitterRules().length, runtimeRules(plan.spec).length, admissionFence().length],
  words: [ANNOTATIONS.phase, PHASES[0], EXIT_CODES.canceled, LABELS.applicationId],
  exported: Object.keys(root),
}));
`,
  );
  const result = JSON.parse(ok(process.execPath, ['main.js'], dir)) as {
    kinds: string[];
    loadedWorkers: number;
    refused: string;
    rules: number[];
    words: unknown[];
    exported: string[];
  };
  expect(result.kinds[result.kinds.length - 1]).toBe('Job');
  expect(result.kinds).toEqual(expect.arrayContaining(['PodTemplate', 'Role', 'Service', 'ConfigMap']));
  expect(result.loadedWorkers).toBe(3);
  expect(result.refused).toMatch(/workerCount/);
  for (const n of result.rules) expect(n).toBeGreaterThan(0);
  expect(result.words).toEqual(['seatunnel.apache.org/phase', 'Starting', 2, 'seatunnel.apache.org/application-id']);
  expect(result.exported).toEqual(
    expect.arrayContaining(['buildPlan', 'allObjects', 'loadApplication', 'TeamTemplate', 'submitterRules']),
  );
  // The plan's Pod editors and draft, the stamping the runtime does, the option registry: not for users.
  const internals = ['masterRolePods', 'addEnv', 'FEATURE_STEPS', 'emptyDraft', 'stampWorker', 'OPTIONS'];
  expect(result.exported.filter((n) => internals.includes(n))).toEqual([]);

  // Nor can a program type-check against them, from the root or from the runtime's entry.
  fs.writeFileSync(
    path.join(dir, 'internals.ts'),
    `import { masterRolePods, addEnv } from 'seatunnel-app';
import { stampWorker } from 'seatunnel-app/runtime-support';
export const used = [masterRolePods, addEnv, stampWorker];
`,
  );
  const check = run(
    process.execPath,
    [
      TSC,
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'ES2022',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--types',
      'node',
      'internals.ts',
    ],
    dir,
  );
  expect(check.status).not.toBe(0);
  for (const name of ['masterRolePods', 'addEnv', 'stampWorker'])
    expect(check.stdout).toMatch(new RegExp(`has no exported member (named )?'${name}'`));
});
