// The API server's version as GET /version reports it, reduced to what decisions need: the minor.
// Managed clusters decorate the fields ("minor": "27+" on EKS and GKE, gitVersion
// "v1.27.3-eks-a5565ad"), so the numbers are read leniently and the text is kept for messages.

export interface ServerVersion {
  readonly major: number;
  readonly minor: number;
  /** As the server reports it (e.g. v1.24.17, v1.27.3-eks-a5565ad): for messages only. */
  readonly gitVersion: string;
}

interface VersionInfo {
  major?: unknown;
  minor?: unknown;
  gitVersion?: unknown;
}

const leadingNumber = (v: unknown): number | undefined => {
  const m = typeof v === 'string' ? /^(\d+)/.exec(v) : null;
  return m ? Number(m[1]) : undefined;
};

/**
 * Reads a /version answer. major/minor win; gitVersion (vMAJOR.MINOR…) is the fallback for servers
 * that leave them empty (some distributions' builds do). Throws when neither gives a version.
 */
export function parseServerVersion(body: unknown): ServerVersion {
  const info = (body && typeof body === 'object' ? body : {}) as VersionInfo;
  const gitVersion = typeof info.gitVersion === 'string' ? info.gitVersion : '';
  const fromGit = /^v?(\d+)\.(\d+)/.exec(gitVersion);
  const major = leadingNumber(info.major) ?? (fromGit ? Number(fromGit[1]) : undefined);
  const minor = leadingNumber(info.minor) ?? (fromGit ? Number(fromGit[2]) : undefined);
  if (major === undefined || minor === undefined) {
    throw new Error(
      `GET /version answered no Kubernetes version (major ${JSON.stringify(info.major)}, minor ${JSON.stringify(info.minor)}, gitVersion ${JSON.stringify(info.gitVersion)})`,
    );
  }
  return { major, minor, gitVersion: gitVersion || `v${major}.${minor}` };
}

/** `a` is at least MAJOR.MINOR. */
export function atLeast(v: ServerVersion, major: number, minor: number): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}
