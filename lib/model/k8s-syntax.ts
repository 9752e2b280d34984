// Kubernetes naming and value rules, as the API server enforces them, so that bad input is
// rejected on the submitting host with the option's name instead of by the server later.

import { posix } from 'node:path';

/**
 * Kubernetes' size limit of one ConfigMap or Secret: the API server adds up the bytes of the
 * values (UTF-8 for ConfigMap data; decoded bytes for a Secret, which stringData's UTF-8 is).
 */
export const MAX_OBJECT_DATA_BYTES = 1024 * 1024;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;

/** Why a non-empty name of at most `max` characters that must match `pattern` is not one (`rule` says what it must be). */
function nameProblem(value: string, max: number, pattern: RegExp, rule: string): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters (has ${value.length})`;
  return pattern.test(value) ? undefined : rule;
}

/** Returns why `value` is not a DNS-1123 label (namespaces, Service names), or undefined. */
export function dns1123LabelProblem(value: string): string | undefined {
  return nameProblem(
    value,
    63,
    DNS1123_LABEL,
    'must consist of lower-case letters, digits and "-", and start and end with a letter or digit (DNS-1123 label)',
  );
}

/** Returns why `value` is not a DNS-1123 subdomain (most object names), or undefined. */
export function dns1123SubdomainProblem(value: string): string | undefined {
  return nameProblem(
    value,
    253,
    DNS1123_SUBDOMAIN,
    'must consist of lower-case letters, digits, "-" and ".", and start and end with a letter or digit (DNS-1123 subdomain)',
  );
}

/** Label and annotation keys: an optional DNS-1123 subdomain prefix and a name of at most 63 characters. */
export function qualifiedNameProblem(key: string): string | undefined {
  if (key.length === 0) return 'key must not be empty';
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    const p = dns1123SubdomainProblem(prefix);
    if (p) return `prefix "${prefix}" ${p}`;
  }
  if (name.length === 0) return 'name part after "/" must not be empty';
  if (name.length > 63) return `name part must be at most 63 characters (has ${name.length})`;
  if (!LABEL_NAME.test(name)) {
    return 'name part must consist of letters, digits, "-", "_" and ".", and start and end with a letter or digit';
  }
  return undefined;
}

export function labelValueProblem(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > 63) return `label value must be at most 63 characters (has ${value.length})`;
  if (!LABEL_NAME.test(value)) {
    return 'label value must consist of letters, digits, "-", "_" and ".", and start and end with a letter or digit';
  }
  return undefined;
}

export function envVarNameProblem(name: string): string | undefined {
  if (!ENV_VAR_NAME.test(name)) {
    return 'environment variable names must consist of letters, digits, "_", "-" and ".", and must not start with a digit';
  }
  return undefined;
}

export function configMapKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > 253) return 'keys must be 1 to 253 characters long';
  if (!CONFIG_MAP_KEY.test(key)) return 'keys may contain only letters, digits, "-", "_" and "."';
  if (key === '.' || key === '..') return 'keys must not be "." or ".."';
  // The kubelet's atomic writer keeps its own entries (..data, ..<timestamp>) next to the keys.
  if (key.startsWith('..'))
    return 'keys must not start with ".." (reserved by the kubelet for its own files in the volume)';
  return undefined;
}

/** `normalForm = false` leaves that rule to the caller (who reports it next to checks on the normal form). */
export function absolutePathProblem(path: string, normalForm = true): string | undefined {
  if (!path.startsWith('/')) return 'must be an absolute path (start with "/")';
  if (path.includes(':')) return 'must not contain ":"';
  if (path.split('/').includes('..')) return 'must not contain ".." segments';
  if (path.length > 1 && path.endsWith('/')) return 'must not end with "/"';
  // "/opt/./x" and "/etc//x" name the same file as their normal form, so checks against
  // reserved paths compare normal forms; the written path must be that form too, to avoid doubt.
  return normalForm ? normalFormProblem(path) : undefined;
}

export function normalFormProblem(path: string): string | undefined {
  const normal = posix.normalize(path);
  return normal !== path
    ? `must be written in normal form (no "." or empty segments): ${JSON.stringify(normal)}`
    : undefined;
}

/** True when `a` and `b` are the same path or one lies inside the other (both in normal form). */
export function pathsOverlap(a: string, b: string): boolean {
  const inside = (x: string, dir: string) => x === dir || dir === '/' || x.startsWith(`${dir}/`);
  return inside(a, b) || inside(b, a);
}

// Docker/OCI reference: [registry[:port]/]path[:tag][@digest]; lower-case path components.
const IMAGE_REFERENCE =
  /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;

export function imageReferenceProblem(image: string): string | undefined {
  if (image.trim().length === 0) return 'must not be blank';
  if (image !== image.trim()) return 'must not have leading or trailing spaces';
  if (!IMAGE_REFERENCE.test(image)) {
    return 'must be an image reference such as "apache/seatunnel:3.1.0" or "registry.example.com:5000/team/seatunnel@sha256:<digest>"';
  }
  return undefined;
}

/** CPU in millicores from a positive number of cores with at most three decimals ("0.5", 2). */
export function cpuMillicores(cores: number): number | undefined {
  if (!Number.isFinite(cores) || cores <= 0) return undefined;
  const milli = Math.round(cores * 1000);
  if (Math.abs(milli - cores * 1000) > 1e-6 || milli < 1) return undefined;
  return milli;
}

/** Renders millicores the way Kubernetes prints them: whole cores as "2", otherwise "500m". */
export function cpuQuantity(millicores: number): string {
  return millicores % 1000 === 0 ? String(millicores / 1000) : `${millicores}m`;
}

const QUANTITY = /^([+-]?[0-9.]+)([eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;
const SUFFIX_FACTOR: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};

/** Parses a Kubernetes quantity ("500m", "1Gi", "2") into a plain number; undefined if malformed. */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const m = QUANTITY.exec(value.trim());
  if (!m || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1])) return undefined;
  const base = Number(m[1]);
  const suffix = m[2] ?? '';
  if (/^[eE]/.test(suffix)) return base * 10 ** Number(suffix.slice(1));
  return base * SUFFIX_FACTOR[suffix];
}
