// Shell completion: the engine (`__complete`) against the parser's tables and the option registry,
// and the bash script run by a real bash against the CLI as bin/ runs it (the bundle).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALLOWED, COMMANDS } from '../../../lib/cli/args';
import { complete, completionOutput, DIRECTIVE } from '../../../lib/cli/completion';
import { COMPLETION_SCRIPTS } from '../../../lib/cli/completion-scripts';
import { main } from '../../../lib/cli/main';
import { FILE_OPTIONS } from '../../../lib/model/options';

jest.setTimeout(60_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const candidates = (...words: string[]) => complete(words).candidates;

describe('the completion engine', () => {
  test('commands, by prefix', () => {
    expect(candidates('')).toEqual([...COMMANDS, 'completion', '--help']);
    expect(candidates('s')).toEqual(['submit', 'status', 'synth']);
    expect(candidates('comp')).toEqual(['completion']);
    expect(candidates('completion', '')).toEqual(['bash', 'zsh']);
  });

  test('each command offers exactly the flags the parser lets it take', () => {
    for (const command of COMMANDS.filter((c) => c !== 'help')) {
      const offered = candidates(command, '-');
      expect(offered).toHaveLength(ALLOWED[command].length);
      for (const flag of ALLOWED[command]) expect(offered).toContain(flag.length === 1 ? `-${flag}` : `--${flag}`);
    }
    expect(candidates('logs', '--')).not.toContain('--output');
    expect(candidates('logs', '--ro')).toEqual(['--role']);
  });

  test('a flag already given is not offered again; -D is, and goes on with a key without a space', () => {
    expect(candidates('status', '--id', 'x', '--')).not.toContain('--id');
    expect(candidates('submit', '-Da=1', '')).toContain('-D');
    expect(complete(['submit', '-D']).directive).toBe(DIRECTIVE.noFiles | DIRECTIVE.noSpace);
  });

  test('-D and -i offer every option key of the registry, families ending in a dot', () => {
    const keys = candidates('submit', '-D');
    expect(keys).toHaveLength(FILE_OPTIONS.length);
    expect(keys).toContain('-Dkubernetes.namespace=');
    expect(keys).toContain('-Dapplication.worker-count=');
    expect(keys).toContain('-Dkubernetes.configmap.');
    expect(candidates('submit', '-ikubernetes.names')).toEqual(['-ikubernetes.namespace=']);
    expect(candidates('submit', '-D', 'kubernetes.names')).toEqual(['kubernetes.namespace=']);
    expect(complete(['submit', '-Dkubernetes.names']).directive).toBe(DIRECTIVE.noFiles | DIRECTIVE.noSpace);
    expect(candidates('status', '-D')).toHaveLength(FILE_OPTIONS.length);
    expect(candidates('docs', '-D')).toEqual([]);
  });

  test('the values of enum and boolean options', () => {
    expect(candidates('submit', '-Dkubernetes.pod-security=')).toEqual([
      '-Dkubernetes.pod-security=baseline',
      '-Dkubernetes.pod-security=restricted',
    ]);
    expect(candidates('submit', '-Dkubernetes.rbac.create=f')).toEqual(['-Dkubernetes.rbac.create=false']);
    expect(candidates('submit', '-Dkubernetes.namespace=')).toEqual([]);
  });

  test('values of flags: fixed lists, file names, or nothing', () => {
    expect(candidates('logs', '--role', '')).toEqual(['master', 'worker']);
    expect(candidates('list', '--status', 'R')).toEqual(['RUNNING']);
    expect(candidates('status', '--output', '')).toEqual(['json', 'text']);
    expect(candidates('submit', '-t', '')).toEqual(['kubernetes']);
    expect(complete(['submit', '-a', ''])).toEqual({ candidates: [], directive: 0 });
    expect(complete(['submit', '-c', 'jo'])).toEqual({ candidates: [], directive: 0 });
    expect(complete(['status', '--id', ''])).toEqual({ candidates: [], directive: DIRECTIVE.noFiles });
    expect(complete(['nonsense', ''])).toEqual({ candidates: [], directive: DIRECTIVE.noFiles });
  });

  test('the output ends with cobra’s directive line', () => {
    expect(completionOutput(['lo'])).toBe(`logs\n:${DIRECTIVE.noFiles}\n`);
  });
});

describe('seatunnel-app completion', () => {
  let written = '';
  let spy: jest.SpyInstance;
  beforeEach(() => {
    written = '';
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      written += String(s);
      return true;
    });
  });
  afterEach(() => spy.mockRestore());

  test('prints the script of the shell named, for both program names', async () => {
    for (const shell of ['bash', 'zsh'] as const) {
      written = '';
      expect(await main(['completion', shell])).toBe(0);
      expect(written).toBe(COMPLETION_SCRIPTS[shell]);
      expect(written).toContain('__complete');
      expect(written).toMatch(/seatunnel-app kubectl-seatunnel\n$/);
    }
    expect(COMPLETION_SCRIPTS.zsh).toMatch(/^#compdef seatunnel-app kubectl-seatunnel\n/);
  });

  test('another shell, or none, is bad usage naming the shells', async () => {
    const errors: string[] = [];
    const err = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      errors.push(String(s));
      return true;
    });
    try {
      expect(await main(['completion', 'fish'])).toBe(64);
      expect(await main(['completion'])).toBe(64);
    } finally {
      err.mockRestore();
    }
    expect(errors.join('')).toMatch(/completion: got "fish"; name one shell, bash or zsh/);
    expect(errors.join('')).toMatch(/completion: got no shell/);
  });

  test('completion --help prints the help, as every command does', async () => {
    const printed: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      printed.push(String(s));
      return true;
    });
    try {
      expect(await main(['completion', '--help'])).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(printed.join('')).toMatch(/seatunnel-app completion/);
  });
});

describe('the bash script in a real bash, against the bundled CLI', () => {
  let dir: string;
  beforeAll(() => {
    fs.mkdirSync(path.join(REPO, 'build'), { recursive: true });
    dir = fs.mkdtempSync(path.join(REPO, 'build', 'test-completion-'));
    const bundle = path.join(dir, 'seatunnel-app.js');
    const built = spawnSync(process.execPath, [path.join(REPO, 'tools', 'build-cli.mjs'), bundle], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`tools/build-cli.mjs failed:\n${built.stdout}\n${built.stderr}`);
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    // The program under both names the package installs, each running the bundle.
    for (const name of ['seatunnel-app', 'kubectl-seatunnel'])
      fs.writeFileSync(
        path.join(bin, name),
        `#!/bin/sh\nexec "${process.execPath}" -e 'require(process.argv[1]).main(process.argv.slice(2)).then((c) => { process.exitCode = c; })' "${bundle}" "$@"\n`,
        { mode: 0o755 },
      );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Completes `line` as bash would at its end: COMPREPLY, and the options compopt was given. */
  function bashComplete(line: string): { reply: string[]; compopt: string[] } {
    const script = `
compopt() { local IFS=' '; printf 'compopt %s\\n' "$*" >&2; }
source <(seatunnel-app completion bash)
COMP_LINE="$LINE"; COMP_POINT=\${#COMP_LINE}
# bash's own word splitting, COMP_WORDBREAKS (= and :) included
IFS=$' \\t\\n' read -ra COMP_WORDS <<<"$(printf '%s' "$COMP_LINE" | sed -e 's/\\([=:]\\)/ \\1 /g')"
[[ $COMP_LINE == *[[:space:]] ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
complete -p seatunnel-app kubectl-seatunnel >&2
_seatunnel_app_complete
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, HOME: dir, LINE: line },
    });
    if (r.status !== 0) throw new Error(`bash exited ${r.status}: ${r.stderr}`);
    expect(r.stderr).toContain('complete -F _seatunnel_app_complete seatunnel-app');
    expect(r.stderr).toContain('complete -F _seatunnel_app_complete kubectl-seatunnel');
    return {
      reply: r.stdout.split('\n').filter(Boolean),
      compopt: r.stderr.split('\n').filter((l) => l.startsWith('compopt ')),
    };
  }

  test('commands and flags', () => {
    expect(bashComplete('seatunnel-app sta').reply).toEqual(['status']);
    expect(bashComplete('kubectl-seatunnel logs --ro').reply).toEqual(['--role']);
    expect(bashComplete('seatunnel-app logs --role ').reply).toEqual(['master', 'worker']);
  });

  test('option keys after -D, without a space, and values after "=" cut to bash’s current word', () => {
    expect(bashComplete('seatunnel-app submit -Dkubernetes.namesp')).toEqual({
      reply: ['-Dkubernetes.namespace='],
      compopt: ['compopt -o nospace'],
    });
    // bash's current word is "r" (it breaks words at "="): the reply is what goes there.
    expect(bashComplete('seatunnel-app submit -Dkubernetes.pod-security=r').reply).toEqual(['restricted']);
  });

  test('file names after -a, none after --id', () => {
    expect(bashComplete('seatunnel-app submit -a ').compopt).toEqual(['compopt -o default']);
    expect(bashComplete('seatunnel-app status --id ')).toEqual({ reply: [], compopt: [] });
  });
});
