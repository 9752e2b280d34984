// Reaching the cluster from the command line: the kubeconfig (kubernetes.kubeconfig, relative to
// the deployment file; then KUBECONFIG; then in-cluster; then ~/.kube/config), and for status and
// cancel the connection settings alone (namespace, kubeconfig) — they need no image and no job file.

import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileIncludeReader } from '../hocon/file-include';
import { readDeploymentOptions } from '../model/deployment';
import { ConfigurationError, type ValidationIssue } from '../model/issues';
import { dns1123LabelProblem } from '../model/k8s-syntax';
import { defaultOf } from '../model/options';
// From the rule itself, not model/resolve: status and cancel need this one check, not every rule.
import { applicationIdProblem } from '../model/rules/identity';
import { connect, ConnectionError } from '../submit/connection/client-node-api';
import { readBeside } from '../submit/act/read-beside';
import { serverSupport, type ServerDependentUse, type ServerSupport } from '../submit/admit/server-support';
import { Kube } from '../kube';
import type { ParsedArgs } from './args';
import { CLI_EXIT, CliError } from './exit-codes';
import { readInputFile } from './io';
import type { Output } from './output';

/** Test hook and escape hatch: a per-request deadline other than SeaTunnel's 10 s. */
export const REQUEST_TIMEOUT_ENV = 'SEATUNNEL_APP_REQUEST_TIMEOUT_MS';

/** kubernetes.kubeconfig as a path on this machine: `~/` expanded, relative to the deployment file. */
export function resolveKubeconfigPath(p: string | undefined, deploymentFile: string | undefined): string | undefined {
  if (!p) return undefined;
  if (p === '~' || p.startsWith('~/')) return resolve(homedir(), p.slice(2));
  if (isAbsolute(p)) return p;
  return resolve(deploymentFile ? dirname(resolve(deploymentFile)) : process.cwd(), p);
}

export interface ConnectChoice {
  /** `kubernetes.kubeconfig` as written. */
  readonly kubeconfig?: string;
  readonly deploymentFile?: string;
  /** The kubeconfig was named by a deployment file that is not trusted (kubeconfigFromUntrustedFile). */
  readonly untrusted?: boolean;
}

/** Whether kubernetes.kubeconfig, if set, comes from a deployment file the command line does not trust. */
export function kubeconfigFromUntrustedFile(args: ParsedArgs): boolean {
  return (
    !args.trustDeploymentFile &&
    args.deploymentFile !== undefined &&
    !args.overrides.some(([k]) => k === 'kubernetes.kubeconfig')
  );
}

export async function connectKube(
  choice: ConnectChoice,
  out?: Pick<Output, 'warn'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Kube> {
  const timeoutText = env[REQUEST_TIMEOUT_ENV];
  let timeoutMs: number | undefined;
  if (timeoutText !== undefined && timeoutText !== '') {
    if (!/^\d+$/.test(timeoutText) || Number(timeoutText) < 100)
      throw new CliError(
        `${REQUEST_TIMEOUT_ENV}: got "${timeoutText}"; must be a whole number of milliseconds, at least 100`,
      );
    timeoutMs = Number(timeoutText);
  }
  const { deploymentFile } = choice;
  try {
    const api = await connect({
      kubeconfig: resolveKubeconfigPath(choice.kubeconfig, deploymentFile),
      env,
      timeoutMs,
      ...(choice.untrusted && deploymentFile ? { untrustedRoot: dirname(resolve(deploymentFile)) } : {}),
    });
    if (api.insecure)
      out?.warn(
        `the kubeconfig (${api.source}) turns off the check of the API server's certificate (insecure-skip-tls-verify): anyone on the network path can read and change what is sent, credentials included`,
      );
    return new Kube(api);
  } catch (e) {
    if (e instanceof ConnectionError) throw new CliError(withoutExcerpt(e.message), CLI_EXIT.usage);
    throw e;
  }
}

/** The server's version (one GET /version per command) and what it means for `use` (lib/submit/admit/server-support.ts). */
export async function readServerSupport(kube: Kube, use?: ServerDependentUse): Promise<ServerSupport> {
  return serverSupport(await kube.serverVersion(), use);
}

/** For submit, status and cancel: stops the command on a server it must not use, prints what the server changes. */
export async function requireSupportedServer(
  kube: Kube,
  out: Output,
  use?: ServerDependentUse,
): Promise<ServerSupport> {
  const support = await readServerSupport(kube, use);
  if (support.refusal) throw new CliError(support.refusal, CLI_EXIT.failed);
  for (const w of support.warnings) out.warn(w);
  return support;
}

/**
 * requireSupportedServer and a read in the same round trip (lib/submit/act/read-beside.ts): the
 * server's refusal, or a failure to learn its version, wins over the read's outcome, and the read's
 * answer is used only on a server the CLI accepts. Only for reads: whatever writes must follow the check.
 */
export function readOnSupportedServer<T>(kube: Kube, out: Output, read: () => Promise<T>): Promise<T> {
  return readBeside(requireSupportedServer(kube, out), read);
}

/**
 * A YAML parser's message about a kubeconfig goes on to quote the offending line, which may be a
 * token or a key: only the first line (what is wrong, and where) is kept.
 */
export function withoutExcerpt(message: string): string {
  const [first] = message.split(/\r?\n/, 1);
  return first.replace(/:\s*$/, '');
}

/** `--id`, checked before any API call. */
export function applicationIdFrom(args: ParsedArgs): string {
  const id = args.id ?? '';
  const problem = applicationIdProblem(id);
  if (problem) throw new CliError(`--id: got "${id}"; ${problem} (use the "Application ID:" that submit printed)`);
  return id;
}

export interface ConnectionSettings extends ConnectChoice {
  readonly namespace: string;
}

/** Namespace and kubeconfig from `-a` and `-D` (status, cancel): the rest of the file is not needed. */
export function connectionFromArgs(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const deploymentFile = args.deploymentFile;
  const deploymentText = deploymentFile !== undefined ? readInputFile(deploymentFile, '-a') : undefined;
  const baseDir = deploymentFile ? dirname(resolve(deploymentFile)) : process.cwd();
  const read = readDeploymentOptions({
    deploymentText,
    deploymentFile,
    overrides: args.overrides,
    env,
    readInclude: fileIncludeReader({ baseDir, ...(args.trustDeploymentFile ? {} : { confineTo: baseDir }) }),
  });
  const issues: ValidationIssue[] = [...read.issues];
  const namespace = read.props.namespace ?? defaultOf('namespace');
  const nsProblem = dns1123LabelProblem(namespace);
  if (nsProblem)
    issues.push({
      key: 'kubernetes.namespace',
      value: namespace,
      rule: nsProblem,
      source: read.sources.get('namespace'),
    });
  if (issues.length) throw new ConfigurationError(issues);
  return {
    namespace,
    kubeconfig: read.props.kubeconfig,
    deploymentFile,
    untrusted: kubeconfigFromUntrustedFile(args),
  };
}
