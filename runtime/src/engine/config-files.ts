// The master's engine files: a copy of every file of the engine ConfigMap, completed with the
// Pod's IP where the generator left MASTER_HOST_PLACEHOLDER (hazelcast-master.yaml: member list
// and public address). Zeta reads the copy (runtime.json master.command points at it).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument, Scalar, visit } from 'yaml';
import {
  MASTER_HOST_PLACEHOLDER,
  overlayUserFiles,
  USER_FILES_MANIFEST,
  type UserFileNotice,
  type UserFilesManifest,
} from 'seatunnel-app/runtime-support';
import { RuntimeFailure } from '../outcome';

/** The address as it goes before `:port` in Hazelcast files: IPv6 in brackets. */
export function hostForAddress(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Replaces every placeholder with the master's host. An IPv6 address (`[fd00::1]`) cannot start a
 * plain YAML scalar (`[` opens a flow sequence), so in YAML files such values are re-written as
 * quoted strings through the YAML document model; IPv4 addresses and names are replaced as text.
 */
export function completeEngineFile(content: string, masterHost: string, fileName = ''): string {
  if (!content.includes(MASTER_HOST_PLACEHOLDER)) return content;
  const host = hostForAddress(masterHost);
  if (host.startsWith('[') && /\.ya?ml$/.test(fileName)) {
    const doc = parseDocument(content);
    if (doc.errors.length === 0) {
      visit(doc, {
        Scalar(_key, node) {
          if (typeof node.value === 'string' && node.value.includes(MASTER_HOST_PLACEHOLDER)) {
            node.value = node.value.split(MASTER_HOST_PLACEHOLDER).join(host);
            node.type = Scalar.QUOTE_DOUBLE;
          }
        },
      });
      return doc.toString();
    }
  }
  return content.split(MASTER_HOST_PLACEHOLDER).join(host);
}

/**
 * Files of a mounted ConfigMap directory: regular names only (the kubelet's `..data` and
 * timestamped directories are skipped; the visible names are symlinks into them).
 */
export function engineFileNames(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => !n.startsWith('..'))
    .filter((n) => fs.statSync(path.join(dir, n)).isFile())
    .sort();
}

export interface UserEngineFiles {
  readonly files: Record<string, string>;
  /** SeaTunnel's shipped defaults that application mode replaced, for the log. */
  readonly notices: readonly UserFileNotice[];
}

/**
 * kubernetes.config-map: the engine files made from the user's mounted ConfigMap and the generated
 * ones, by the rules the plan wrote (user-files.json). Submit checked the ConfigMap already; it is
 * checked again here because it may have changed since, or the application was applied by kubectl.
 */
export function userEngineFiles(
  sourceDir: string,
  generated: Readonly<Record<string, string>>,
  userDir?: string,
): UserEngineFiles {
  const manifestFile = path.join(sourceDir, USER_FILES_MANIFEST);
  if (!fs.existsSync(manifestFile)) return { files: {}, notices: [] };
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as UserFilesManifest;
  const user: Record<string, string> = {};
  const dir = userDir ?? manifest.dir;
  for (const name of engineFileNames(dir)) user[name] = fs.readFileSync(path.join(dir, name), 'utf8');
  const { files, problems, notices } = overlayUserFiles(manifest, user, generated);
  if (problems.length) throw new RuntimeFailure('InvalidSettings', problems.map((p) => p.message).join('; '));
  return { files, notices };
}

/**
 * Writes the completed copy of every engine file from `sourceDir` into `targetDir`; returns the
 * names and the notices of kubernetes.config-map.
 */
export function writeEngineFiles(
  sourceDir: string,
  targetDir: string,
  masterHost: string,
  userDir?: string,
): { names: string[]; notices: readonly UserFileNotice[] } {
  let names: string[];
  const generated: Record<string, string> = {};
  let fromUser: UserEngineFiles;
  try {
    names = engineFileNames(sourceDir);
    for (const name of names) generated[name] = fs.readFileSync(path.join(sourceDir, name), 'utf8');
    fromUser = userEngineFiles(sourceDir, generated, userDir);
  } catch (e) {
    if (e instanceof RuntimeFailure) throw e;
    throw new RuntimeFailure(
      'InvalidSettings',
      `cannot read the engine config directory ${sourceDir}: ${(e as Error).message}`,
    );
  }
  try {
    fs.mkdirSync(targetDir, { recursive: true });
    for (const name of names) {
      const content = fromUser.files[name] ?? generated[name];
      fs.writeFileSync(path.join(targetDir, name), completeEngineFile(content, masterHost, name), { mode: 0o644 });
    }
  } catch (e) {
    throw new RuntimeFailure(
      'InvalidSettings',
      `cannot write the engine files into ${targetDir}: ${(e as Error).message} (the plan mounts an emptyDir there)`,
    );
  }
  return { names, notices: fromUser.notices };
}
