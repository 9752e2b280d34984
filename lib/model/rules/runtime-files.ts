// The engine's runtime files (seatunnel.yaml, Hazelcast, JVM options, Log4j2): generated, supplied
// (inline or read from a file now, on the submitting host) or disabled in favour of the image's own.

import { parse as parseYaml } from 'yaml';
import type { RuntimeFileProps } from '../props';
import type { RuntimeFileSpec, RuntimeFilesSpec } from '../spec';
import type { PropReader } from './reader';

type RuntimeFileName = keyof RuntimeFilesSpec;

export function resolveRuntimeFiles(r: PropReader): RuntimeFilesSpec {
  return {
    engine: runtimeFile(r, 'engine'),
    hazelcast: runtimeFile(r, 'hazelcast'),
    jvmOptions: runtimeFile(r, 'jvmOptions'),
    log4j2: runtimeFile(r, 'log4j2'),
  };
}

function runtimeFile(r: PropReader, name: RuntimeFileName): RuntimeFileSpec {
  const f: RuntimeFileProps | undefined = r.props.runtimeFiles?.[name];
  const sub = name === 'jvmOptions' ? 'jvm-options' : name;
  if (f === undefined) return { mode: 'generated' };
  if (f.enabled === false) {
    if (f.content !== undefined || f.file !== undefined) r.fail('runtimeFiles', f, 'a disabled runtime file cannot also supply content or file', sub);
    return { mode: 'disabled' };
  }
  if (f.content !== undefined && f.file !== undefined) {
    r.fail('runtimeFiles', f, 'set either content or file, not both', sub);
    return { mode: 'generated' };
  }
  let content: string | undefined = f.content;
  let origin = 'inline content';
  if (f.file !== undefined) {
    origin = f.file;
    if (!r.ctx.readFile) {
      r.fail('runtimeFiles', f.file, 'files can only be read where a file reader is available; pass content instead', `${sub}.file`);
      return { mode: 'generated' };
    }
    try {
      content = r.ctx.readFile(f.file);
    } catch (e) {
      r.fail('runtimeFiles', f.file, `cannot be read: ${(e as Error).message}`, `${sub}.file`);
      return { mode: 'generated' };
    }
  }
  if (content === undefined) return { mode: 'generated' };
  if (name === 'engine' || name === 'hazelcast') {
    try {
      const doc = parseYaml(content) as unknown;
      if (doc !== null && (typeof doc !== 'object' || Array.isArray(doc))) throw new Error('the top level must be a mapping');
    } catch (e) {
      r.fail('runtimeFiles', origin, `is not valid YAML: ${(e as Error).message.split('\n')[0]}`, sub);
    }
  }
  return { mode: 'supplied', content, origin };
}
