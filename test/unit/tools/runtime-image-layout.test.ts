// runtime/Dockerfile and tools/images/build.sh describe the same runtime image: the files and
// modes under /seatunnel-app and the CMD. The Dockerfile's final stage is `FROM scratch` (no shell to
// chmod with): each file's mode is its COPY's --chmod, and the directories COPY creates are 0755.
// build.sh lays out its layer from
// tools/images/runtime-layout.json (and checks the layer against it while building), so this test
// compares the Dockerfile's final stage with that file; a change to either side alone fails here.

import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const DOCKERFILE = path.join(REPO, 'runtime', 'Dockerfile');
const LAYOUT = path.join(REPO, 'tools', 'images', 'runtime-layout.json');
const ROOT = '/seatunnel-app';

interface Entry {
  path: string;
  type: 'dir' | 'file';
  mode: string;
  from?: string;
}
interface Layout {
  entries: Entry[];
  cmd: string[];
}

/** Where a Dockerfile COPY source comes from, in runtime-layout.json's terms. */
function sourceOf(src: string): string {
  if (src === '/usr/local/bin/node') return 'node';
  if (src === '/install-runtime') return 'installer';
  const bundle = /^\/src\/runtime\/dist\/([^/]+)$/.exec(src);
  if (bundle) return `bundle:${bundle[1]}`;
  throw new Error(`runtime/Dockerfile copies ${src}, which runtime-layout.json has no source kind for`);
}

/** The final stage of the Dockerfile as a layout: COPY destinations with their --chmod, the parent directories under /seatunnel-app (0755, as COPY makes them), CMD. */
function dockerfileLayout(text: string): Layout {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const lastFrom = instructions.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const entries = new Map<string, Entry>();
  let cmd: string[] = [];
  for (const line of instructions.slice(lastFrom + 1)) {
    const [op, ...args] = line.split(/\s+/);
    if (/^COPY$/i.test(op)) {
      const paths = args.filter((a) => !a.startsWith('--'));
      if (paths.length !== 2) throw new Error(`COPY with ${paths.length} paths is not understood: ${line}`);
      const [src, dest] = paths;
      const mode = args.map((a) => /^--chmod=([0-7]{3,4})$/.exec(a)?.[1]).find((m) => m !== undefined);
      if (!mode)
        throw new Error(`runtime/Dockerfile leaves the mode of ${dest} to the default; give its COPY a --chmod`);
      entries.set(dest, { path: dest, type: 'file', mode: mode.padStart(4, '0'), from: sourceOf(src) });
      for (let d = path.posix.dirname(dest); d.startsWith(ROOT); d = path.posix.dirname(d))
        entries.set(d, { path: d, type: 'dir', mode: '0755' });
    } else if (/^RUN$/i.test(op)) {
      throw new Error(`runtime/Dockerfile's final stage has a RUN, but the image has no shell: ${line}`);
    } else if (/^CMD$/i.test(op)) {
      cmd = JSON.parse(line.slice(3).trim()) as string[];
    }
  }
  return { entries: [...entries.values()], cmd };
}

const sorted = (l: Layout) => ({
  cmd: l.cmd,
  entries: [...l.entries].map((e) => ({ ...e })).sort((a, b) => a.path.localeCompare(b.path)),
});
const layoutFile = (): Layout => JSON.parse(fs.readFileSync(LAYOUT, 'utf8')) as Layout;
const dockerfileText = (): string => fs.readFileSync(DOCKERFILE, 'utf8');

describe('runtime image: runtime/Dockerfile and tools/images/build.sh', () => {
  it('describe the same files, modes and CMD under /seatunnel-app', () => {
    expect(sorted(dockerfileLayout(dockerfileText()))).toEqual(sorted(layoutFile()));
  });

  it('the Dockerfile as read here has the node binary, install-runtime, the bundle and its map (the parser reads the real file)', () => {
    const paths = dockerfileLayout(dockerfileText()).entries.map((e) => `${e.path} ${e.mode}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/seatunnel-app/bin/node 0755',
        '/seatunnel-app/bin/install-runtime 0755',
        '/seatunnel-app/runtime.cjs 0644',
        '/seatunnel-app/runtime.cjs.map 0644',
        '/seatunnel-app 0755',
      ]),
    );
  });

  it('a change to one side alone is caught: another mode, another file, another CMD', () => {
    const text = dockerfileText();
    const layout = sorted(layoutFile());
    const otherMode = text.replace(
      '--chmod=0644 /src/runtime/dist/runtime.cjs ',
      '--chmod=0600 /src/runtime/dist/runtime.cjs ',
    );
    expect(otherMode).not.toBe(text);
    expect(sorted(dockerfileLayout(otherMode))).not.toEqual(layout);
    const extraFile = text.replace(
      '\nCMD ',
      '\nCOPY --from=bundle --chmod=0644 /src/runtime/dist/extra.js /seatunnel-app/extra.js\nCMD ',
    );
    expect(extraFile).not.toBe(text);
    expect(sorted(dockerfileLayout(extraFile))).not.toEqual(layout);
    const otherCmd = text.replace(/^CMD .*$/m, 'CMD ["/bin/true"]');
    expect(sorted(dockerfileLayout(otherCmd))).not.toEqual(layout);
    const fewerEntries = { ...layout, entries: layout.entries.filter((e) => !e.path.endsWith('.map')) };
    expect(sorted(dockerfileLayout(text))).not.toEqual(fewerEntries);
  });

  it('a COPY without an explicit --chmod is reported, not silently given a default; a RUN (no shell) too', () => {
    const text = dockerfileText().replace(
      '\nCMD ',
      '\nCOPY --from=bundle /src/runtime/dist/extra.js /seatunnel-app/extra.js\nCMD ',
    );
    expect(() => dockerfileLayout(text)).toThrow('leaves the mode of /seatunnel-app/extra.js');
    const run = dockerfileText().replace('\nCMD ', '\nRUN chmod 0644 /seatunnel-app/runtime.cjs\nCMD ');
    expect(() => dockerfileLayout(run)).toThrow('final stage has a RUN');
  });

  it('build.sh lays out the runtime layer from runtime-layout.json and checks the layer against it', () => {
    const script = fs.readFileSync(path.join(REPO, 'tools', 'images', 'build.sh'), 'utf8');
    expect(script).toContain('LAYOUT="$HERE/runtime-layout.json"');
    expect(script).toMatch(/done < <\(layout_entries\)/);
    expect(script).toContain('runtime: check the layer against runtime-layout.json');
  });
});
