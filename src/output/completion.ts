// Shell completion scripts for bash, zsh and fish: command names, each command's flags and, for
// commands that take a tool id, the registry's ids (asked from `toolbox completion --ids` at
// completion time, so new tools complete without regenerating the script), and after `run ID` the
// tool's own flags (`toolbox completion --flags ID`). Global flags are offered once.

/** What the scripts complete: the command tree, flattened. */
export interface CompletionSpec {
  /** Flags every command takes (--json, --registry, ...). */
  global: string[];
  commands: {
    name: string;
    description: string;
    flags: string[];
    takesToolId: boolean;
    /** Flags that take one of a fixed set of values (--loader, --format): the values. */
    choices: Record<string, string[]>;
  }[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BINS = ['toolbox', 'agent-toolbox'];
const words = (xs: string[]) => xs.join(' ');
// Single-quoted for the shell: ' → '\''.
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(spec: CompletionSpec): string {
  const idCommands = spec.commands.filter((c) => c.takesToolId).map((c) => c.name);
  const cases = spec.commands.map((c) => `    ${c.name}) flags=${sq(words(c.flags))} ;;`).join('\n');
  const choices = spec.commands
    .flatMap((c) => Object.entries(c.choices).map(([f, vs]) => `    ${c.name}:${f}) values=${sq(words(vs))} ;;`))
    .join('\n');
  return `# toolbox completion for bash. Load with: source <(toolbox completion bash)
_toolbox_complete() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd=\${COMP_WORDS[1]} flags='' values=''
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W ${sq(words([...spec.commands.map((c) => c.name), '--help', '--version']))} -- "$cur") )
    return
  fi
  case "$cmd:$prev" in
${choices}
  esac
  if [ -n "$values" ]; then
    COMPREPLY=( $(compgen -W "$values" -- "$cur") )
    return
  fi
  case "$cmd" in
    ${idCommands.join('|')})
      if [ "$COMP_CWORD" -eq 2 ] || { [ "$cmd" = deps ] && [[ "$cur" != -* ]]; }; then
        if [[ "$cur" != -* ]]; then
          COMPREPLY=( $(compgen -W "$("\${COMP_WORDS[0]}" completion --ids 2>/dev/null)" -- "$cur") )
          return
        fi
      fi ;;
  esac
  case "$cmd" in
${cases}
  esac
  # run ID --…: the tool's own flags (its schema's arguments) first.
  if [ "$cmd" = run ] && [ "$COMP_CWORD" -ge 3 ] && [[ "$cur" == -* ]]; then
    flags="$("\${COMP_WORDS[0]}" completion --flags "\${COMP_WORDS[2]}" 2>/dev/null) $flags"
  fi
  COMPREPLY=( $(compgen -W "$flags ${words(spec.global)}" -- "$cur") )
}
complete -o default -F _toolbox_complete ${words(BINS)}
`;
}

function zsh(spec: CompletionSpec): string {
  // zsh runs the bash function through its bash-completion layer: one implementation to keep right.
  return `# toolbox completion for zsh. Load with: source <(toolbox completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(spec).split('\n').slice(1).join('\n')}`;
}

function fish(spec: CompletionSpec): string {
  const lines = ['# toolbox completion for fish. Load with: toolbox completion fish | source'];
  for (const bin of BINS) {
    lines.push(`complete -c ${bin} -f`);
    for (const c of spec.commands)
      lines.push(`complete -c ${bin} -n __fish_use_subcommand -a ${c.name} -d ${sq(c.description)}`);
    for (const c of spec.commands) {
      for (const f of c.flags.filter((x) => x.startsWith('--'))) {
        const vs = c.choices[f];
        const values = vs ? ` -x -a ${sq(words(vs))}` : '';
        lines.push(`complete -c ${bin} -n '__fish_seen_subcommand_from ${c.name}' -l ${f.slice(2)}${values}`);
      }
    }
    for (const f of spec.global.filter((x) => x.startsWith('--'))) lines.push(`complete -c ${bin} -l ${f.slice(2)}`);
    const ids = spec.commands.filter((c) => c.takesToolId).map((c) => c.name);
    lines.push(
      `complete -c ${bin} -n '__fish_seen_subcommand_from ${ids.join(' ')}' -a '(${bin} completion --ids 2>/dev/null)'`,
    );
    // run ID --…: the tool's own flags.
    lines.push(
      `complete -c ${bin} -n '__fish_seen_subcommand_from run' -a '(${bin} completion --flags (commandline -opc)[3] 2>/dev/null)'`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell, spec: CompletionSpec): string {
  switch (shell) {
    case 'bash':
      return bash(spec);
    case 'zsh':
      return zsh(spec);
    case 'fish':
      return fish(spec);
  }
}
