// Shell completion. One engine answers every shell: the scripts of `seatunnel-app completion
// bash|zsh` (completion-scripts.ts) and kubectl's plugin completion (`kubectl seatunnel <TAB>`
// runs kubectl_complete-seatunnel) call `seatunnel-app __complete <words…>`, which prints one
// candidate per line and then `:<directive>` in the format kubectl's completion (cobra) reads.
// The candidates come from the parser's own tables (commands, the flags each command takes) and
// from the option registry (`-Dkubernetes.namespace=`, enum and boolean values), so a new flag or
// option completes without touching this file.

import { ALLOWED, COMMANDS, OPTIONS as FLAGS, type Command } from './args';
import { FILE_OPTIONS, optionPath } from '../model/options';
import { STATUSES } from '../submit/observe/statuses';

/** cobra's ShellCompDirective bits: no space after the candidate; no file names. */
export const DIRECTIVE = { noSpace: 2, noFiles: 4 } as const;

export interface Completion {
  readonly candidates: readonly string[];
  /** cobra's directive: 0 = the shell may also offer file names. */
  readonly directive: number;
}

/** The shells `completion` writes a script for. */
export const SHELLS = ['bash', 'zsh'] as const;

/** Commands a user types: the parser's, and this one (answered before the parser, lib/cli/main.ts). */
export const COMPLETABLE_COMMANDS: readonly string[] = [...COMMANDS, 'completion'];

type Flag = keyof typeof FLAGS;

const spellings = (flag: Flag): string[] => {
  const def = FLAGS[flag] as { short?: string };
  if (flag === 'D' || flag === 'i') return [`-${flag}`];
  return [`--${flag}`, ...(def.short ? [`-${def.short}`] : [])];
};

/** The flag a typed word names (`--namespace`, `-n`), if it is one. */
function flagOf(word: string): Flag | undefined {
  return (Object.keys(FLAGS) as Flag[]).find((f) => spellings(f).includes(word));
}

/** What follows a flag that takes a value: candidates, or file names. */
const FLAG_VALUES: Partial<Record<Flag, Completion>> = {
  target: { candidates: ['kubernetes'], directive: DIRECTIVE.noFiles },
  output: { candidates: ['json', 'text'], directive: DIRECTIVE.noFiles },
  role: { candidates: ['master', 'worker'], directive: DIRECTIVE.noFiles },
  status: { candidates: STATUSES, directive: DIRECTIVE.noFiles },
  'application-config': { candidates: [], directive: 0 },
  config: { candidates: [], directive: 0 },
  'output-dir': { candidates: [], directive: 0 },
};

/** `-D` / `-i` followed by an option key: `kubernetes.namespace=`, `kubernetes.configmap.` (a family). */
function optionKeys(prefix: string): string[] {
  return FILE_OPTIONS.map(([, def]) => `${prefix}${def.family ? `${optionPath(def)}.` : `${def.key}=`}`);
}

/** The values an option takes, when the registry lists them (enums and booleans). */
function optionValues(key: string): readonly string[] {
  const def = FILE_OPTIONS.find(([, d]) => !d.family && d.key === key)?.[1];
  if (!def) return [];
  if (def.values) return def.values.map(String);
  return def.type === 'boolean' ? ['true', 'false'] : [];
}

const keep = (c: Completion, current: string): Completion => ({
  candidates: c.candidates.filter((x) => x.startsWith(current)),
  directive: c.directive,
});

const NOTHING: Completion = { candidates: [], directive: DIRECTIVE.noFiles };

/** An override: `-Dkey=value` (or `-ikey=value`), or the key alone after `-D ` / `-i `. */
function completeOverride(prefix: string, typed: string): Completion {
  const eq = typed.indexOf('=');
  if (eq >= 0) {
    const key = typed.slice(0, eq);
    return { candidates: optionValues(key).map((v) => `${prefix}${key}=${v}`), directive: DIRECTIVE.noFiles };
  }
  return { candidates: optionKeys(prefix), directive: DIRECTIVE.noFiles | DIRECTIVE.noSpace };
}

/**
 * The candidates for the last of `words` (the words after the program's name; the last is the one
 * being typed, possibly empty). Pure: the shells filter nothing more than by the typed prefix.
 */
export function complete(words: readonly string[]): Completion {
  const current = words.at(-1) ?? '';
  if (words.length <= 1)
    return keep({ candidates: [...COMPLETABLE_COMMANDS, '--help'], directive: DIRECTIVE.noFiles }, current);
  const command = words[0].toLowerCase();
  if (command === 'completion')
    return words.length === 2 ? keep({ candidates: SHELLS, directive: DIRECTIVE.noFiles }, current) : NOTHING;
  if (!(COMMANDS as readonly string[]).includes(command)) return NOTHING;
  const allowed = ALLOWED[command as Command];
  const previous = flagOf(words[words.length - 2]);
  const takesValue = previous !== undefined && FLAGS[previous].type === 'string';
  if (takesValue && allowed.includes(previous) && !/^-[-\w]/.test(current)) {
    if (previous === 'D' || previous === 'i') return keep(completeOverride('', current), current);
    return keep(FLAG_VALUES[previous] ?? NOTHING, current);
  }
  const override = /^-[Di]/.exec(current);
  if (override && allowed.includes(override[0].slice(1) as Flag))
    return keep(completeOverride(override[0], current.slice(2)), current);
  if (current.startsWith('-') || current === '') {
    const used = new Set(words.slice(1, -1).map(flagOf));
    const flags = allowed.filter((f) => f === 'D' || f === 'i' || !used.has(f)).map((f) => spellings(f)[0]);
    return keep({ candidates: flags, directive: DIRECTIVE.noFiles }, current);
  }
  return NOTHING;
}

/** What `__complete` prints: one candidate per line, then `:<directive>`. */
export function completionOutput(words: readonly string[]): string {
  const c = complete(words);
  return [...c.candidates, `:${c.directive}`].join('\n') + '\n';
}
