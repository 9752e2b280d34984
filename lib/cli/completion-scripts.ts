// The scripts `seatunnel-app completion bash|zsh` prints. Each asks the program itself for the
// candidates (`<program> __complete <words…>`, lib/cli/completion.ts), so the script never goes
// stale against the installed version, and works under both names the package installs
// (seatunnel-app and kubectl-seatunnel). `kubectl seatunnel <TAB>` is kubectl's own completion,
// which runs kubectl_complete-seatunnel (kubectl 1.26+).

import type { SHELLS } from './completion';

const PROGRAMS = 'seatunnel-app kubectl-seatunnel';

// Bash splits words at COMP_WORDBREAKS (`=` and `:` among them), so `-Dkubernetes.namespace=x`
// would reach the program in pieces: the words are taken from the line up to the cursor instead,
// and each candidate is cut to the part of it in bash's own current word.
const BASH = `# bash completion for ${PROGRAMS}. Load it in ~/.bashrc:
#   source <(seatunnel-app completion bash)
_seatunnel_app_complete() {
  local line=\${COMP_LINE:0:COMP_POINT} words out directive typed c i
  read -ra words <<<"$line"
  [[ $line == *[[:space:]] ]] && words+=("")
  typed=\${words[\${#words[@]}-1]}
  local IFS=$'\\n'
  out=($("\${words[0]}" __complete "\${words[@]:1}" 2>/dev/null)) || return 0
  directive=\${out[\${#out[@]}-1]#:}
  unset 'out[\${#out[@]}-1]'
  local cut=$(( \${#typed} - \${#COMP_WORDS[COMP_CWORD]} ))
  (( cut < 0 )) && cut=0
  COMPREPLY=()
  for c in "\${out[@]}"; do
    [[ $c == "$typed"* ]] && COMPREPLY+=("\${c:cut}")
  done
  (( directive & 2 )) && compopt -o nospace
  (( directive & 4 )) || compopt -o default
  return 0
}
complete -F _seatunnel_app_complete ${PROGRAMS}
`;

const ZSH = `#compdef ${PROGRAMS}
# zsh completion for ${PROGRAMS}. Load it in ~/.zshrc, after compinit:
#   source <(seatunnel-app completion zsh)
_seatunnel_app() {
  local -a out
  local directive
  out=("\${(@f)$(\${words[1]} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  (( \${#out} )) || return 1
  directive=\${out[-1]#:}
  out=("\${(@)out[1,-2]}")
  if (( \${#out} )); then
    if (( directive & 2 )); then compadd -Q -S '' -- "\${out[@]}"; else compadd -Q -- "\${out[@]}"; fi
  fi
  (( directive & 4 )) || _files
}
compdef _seatunnel_app ${PROGRAMS}
`;

export const COMPLETION_SCRIPTS: Readonly<Record<(typeof SHELLS)[number], string>> = { bash: BASH, zsh: ZSH };
