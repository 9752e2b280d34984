// The homes the project's install scripts assemble and cache (tools/seatunnel/install.sh,
// tools/hdfs/install.sh, tools/kafka/install.sh): the script runs first — it installs what is missing, its progress on
// stderr — and prints the home as its last line; a home is whole once it holds `.complete`.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../lib/cli/io';

export function installedHome(tool: 'seatunnel' | 'hdfs' | 'kafka'): string {
  const script = path.join('tools', tool, 'install.sh');
  const out = execFileSync('bash', [path.join(packageRoot(), script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const home = out.trim().split('\n').pop() ?? '';
  if (!fs.existsSync(path.join(home, '.complete'))) throw new Error(`${script} did not produce a home (${home})`);
  return home;
}
