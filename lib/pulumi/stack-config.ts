// One stack per job: the stack config (namespace `seatunnel`) says which application the stack
// deploys, in one of two shapes, optionally under a team template.
//
//   seatunnel:deploymentFile  SeaTunnel deployment file (HOCON), as `-a`        ─┐ the SeaTunnel
//   seatunnel:deployment      the same keys as an object ({application: {...},   ├ way: same keys,
//                             kubernetes: {...}})                                 │ same messages
//   seatunnel:overrides       {"application.worker-count": 5, ...}, as `-D`     ─┘
//   seatunnel:application     typed props ({name, image, workerCount, ...})       the TypeScript way
//   seatunnel:jobFile         the job config file, as `-c`  (or seatunnel:jobConfig, its text)
//   seatunnel:template        a team template by name; its locks apply to either shape
//
// Relative paths are relative to the project directory (where `pulumi up` runs the program);
// relative paths inside a deployment file are relative to that file, as with the CLI. IDs are
// derived: the same config always yields the same application ID, so `up` is repeatable.

import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileIncludeReader, filesRelativeTo, readTextFile } from '../hocon/file-include';
import { readDeploymentOptions, type DeploymentInput } from '../model/deployment';
import { ConfigurationError, type ValidationIssue } from '../model/issues';
import { loadApplication } from '../model/load';
import type { SeaTunnelApplicationProps } from '../model/props';
import { resolveApplication } from '../model/resolve';
import type { ApplicationSpec } from '../model/spec';
import type { TeamTemplate } from '../model/template';

/** The config namespace of every key below (`seatunnel:<key>`). */
export const CONFIG_NAMESPACE = 'seatunnel';

export interface StackJobConfig {
  /** Path of a SeaTunnel deployment file. @default - none */
  readonly deploymentFile?: string;
  /** The deployment file's keys as structured config (JSON is HOCON). @default - none */
  readonly deployment?: Readonly<Record<string, unknown>>;
  /** `-D` overrides of the deployment file, key → value. @default - none */
  readonly overrides?: Readonly<Record<string, string | number | boolean>>;
  /** Typed props (the TypeScript door's keys). @default - none */
  readonly application?: Partial<SeaTunnelApplicationProps>;
  /** Path of the job config file. @default - none (then `jobConfig` or the props' own) */
  readonly jobFile?: string;
  /** The job config text. @default - none */
  readonly jobConfig?: string;
  /** Name of a team template (see the `templates` option). @default - none */
  readonly template?: string;
}

/** Every key, in the order they are documented. */
export const STACK_CONFIG_KEYS: ReadonlyArray<keyof StackJobConfig> = [
  'deploymentFile',
  'deployment',
  'overrides',
  'application',
  'jobFile',
  'jobConfig',
  'template',
];
const OBJECT_KEYS: ReadonlySet<keyof StackJobConfig> = new Set(['deployment', 'overrides', 'application']);

/** What the program needs of `pulumi.Config` (so this module stays testable without the engine). */
export interface ConfigReader {
  get(key: string): string | undefined;
  getObject<T>(key: string): T | undefined;
}

/** Reads the stack config of the `seatunnel` namespace. */
export function readStackJobConfig(config: ConfigReader): StackJobConfig {
  const out: Record<string, unknown> = {};
  for (const key of STACK_CONFIG_KEYS) {
    const value = OBJECT_KEYS.has(key) ? config.getObject<unknown>(key) : config.get(key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export interface StackConfigContext {
  /** Directory relative paths are resolved against. @default - the working directory */
  readonly baseDir?: string;
  /** Team templates by name. @default - none */
  readonly templates?: Readonly<Record<string, TeamTemplate>>;
  /** Environment for `${VAR}` fallbacks in deployment files. @default - process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const key = (k: keyof StackJobConfig) => `${CONFIG_NAMESPACE}:${k}`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The application a stack deploys, resolved and validated (throws ConfigurationError listing
 * every problem, each naming the stack config key or the deployment-file option).
 */
export function applicationFromStackConfig(config: StackJobConfig, ctx: StackConfigContext = {}): ApplicationSpec {
  const baseDir = ctx.baseDir ?? process.cwd();
  const env = ctx.env ?? process.env;
  const problems: ValidationIssue[] = [];
  const fail = (k: keyof StackJobConfig, value: unknown, rule: string) => problems.push({ key: key(k), value, rule });

  for (const k of Object.keys(config) as Array<keyof StackJobConfig>) {
    if (!STACK_CONFIG_KEYS.includes(k))
      fail(k, config[k], `unknown key; expected one of ${STACK_CONFIG_KEYS.map(key).join(', ')}`);
  }
  for (const k of OBJECT_KEYS) {
    if (config[k] !== undefined && !isObject(config[k]))
      fail(k, config[k], 'must be an object (set it with `pulumi config set --path` or as YAML in the stack file)');
  }
  const fileDoor = config.deploymentFile !== undefined || config.deployment !== undefined;
  if (config.deploymentFile !== undefined && config.deployment !== undefined) {
    fail(
      'deployment',
      config.deployment,
      `give the deployment either as a file (${key('deploymentFile')}) or as structured config, not both`,
    );
  }
  if (fileDoor && config.application !== undefined) {
    fail(
      'application',
      config.application,
      `typed props and a deployment (${key(config.deploymentFile !== undefined ? 'deploymentFile' : 'deployment')}) are two ways to say the same; use one`,
    );
  }
  if (!fileDoor && config.overrides !== undefined) {
    fail(
      'overrides',
      config.overrides,
      `overrides apply to a deployment (${key('deploymentFile')} or ${key('deployment')}); with typed props set the value in ${key('application')}`,
    );
  }
  if (!fileDoor && config.application === undefined) {
    problems.push({
      key: CONFIG_NAMESPACE,
      rule: `no application configured: set ${key('deploymentFile')} (and ${key('jobFile')}), ${key('deployment')}, or ${key('application')}`,
    });
  }
  if (config.jobFile !== undefined && config.jobConfig !== undefined) {
    fail('jobConfig', '(text)', `give the job either as a file (${key('jobFile')}) or as text, not both`);
  }
  const template = config.template !== undefined ? ctx.templates?.[config.template] : undefined;
  if (config.template !== undefined && !template) {
    const known = Object.keys(ctx.templates ?? {});
    fail(
      'template',
      config.template,
      known.length
        ? `unknown team template; known: ${known.join(', ')}`
        : 'no team templates are known to this program',
    );
  }

  const readText = (k: 'deploymentFile' | 'jobFile'): { path: string; text: string } | undefined => {
    const p = config[k];
    if (p === undefined) return undefined;
    const path = isAbsolute(p) ? p : resolve(baseDir, p);
    if (!existsSync(path)) return void fail(k, p, `file not found (looked at ${path})`);
    if (statSync(path).isDirectory()) return void fail(k, p, 'is a directory, expected a file');
    try {
      return { path, text: readTextFile(path) };
    } catch (e) {
      return void fail(k, p, (e as Error).message);
    }
  };
  const deploymentFile = readText('deploymentFile');
  const jobFile = readText('jobFile');
  if (problems.length) throw new ConfigurationError(problems, 'Invalid Pulumi stack config');

  const jobConfig = jobFile?.text ?? config.jobConfig;
  if (fileDoor) {
    const fileBase = deploymentFile ? dirname(deploymentFile.path) : baseDir;
    const input: DeploymentInput = {
      deploymentText: deploymentFile?.text ?? JSON.stringify(config.deployment),
      deploymentFile: deploymentFile?.path ?? key('deployment'),
      overrides: Object.entries(config.overrides ?? {}).map(([k, v]) => [k, String(v)] as const),
      jobConfig,
      env,
      readInclude: fileIncludeReader({ baseDir: fileBase }),
    };
    // A template's locks hold for deployment files too: check them on what the file sets.
    if (template) template.application(readDeploymentOptions(input).props);
    return loadApplication(input, {
      ids: 'derived',
      defaults: template?.defaults,
      readFile: filesRelativeTo(fileBase),
    });
  }
  const own = { ...config.application, ...(jobConfig !== undefined ? { jobConfig } : {}) } as SeaTunnelApplicationProps;
  const props = template ? template.application(own) : own;
  return resolveApplication(props, {
    ids: 'derived',
    readFile: filesRelativeTo(baseDir),
  });
}
