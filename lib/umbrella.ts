/**
 * The `wuu-stream` front door: lists the tools, runs one by its short name
 * with the very same spec as its own binary, shows a tool's help, and prints
 * shell completion scripts generated from the specs.
 */
import type { Writable } from 'node:stream';
import { FAMILIES, KNOWN_TYPES } from './events.js';
import { COMMON_HELP, EXIT, packageVersion, run, type RunOptions, type ToolSpec } from './runner.js';

/** A tool as the umbrella knows it: `filter` for the spec named `wuu-filter`. */
export function shortName(spec: ToolSpec): string {
  return spec.name.replace(/^wuu-/, '');
}

/** The listing shown by `wuu-stream` and `wuu-stream --help`. */
export function listing(tools: readonly ToolSpec[]): string {
  const width = Math.max(...tools.map((t) => shortName(t).length), 'completion'.length);
  const rows = tools.map((t) => `  ${shortName(t).padEnd(width)}  ${t.summary}`);
  return `Usage: wuu-stream TOOL [ARG]...
       wuu-stream help TOOL
       wuu-stream completion bash|zsh
Composable filters over the JSONL event stream of 'wuu exec --json'.
'wuu-stream TOOL ARGS' runs exactly what 'wuu-TOOL ARGS' runs.

Tools:
${rows.join('\n')}
  ${'completion'.padEnd(width)}  print a bash or zsh completion script

Each tool is also installed as its own command (wuu-filter, ...).
See 'wuu-stream help TOOL' and man wuu-stream(7).
`;
}

function allFlags(spec: ToolSpec): string[] {
  const flags = spec.flags ?? {};
  const long = [...(flags.string ?? []), ...(flags.boolean ?? []), 'strict', 'pass-invalid', 'max-line-bytes', 'help', 'version'];
  const short = Object.keys(flags.alias ?? {}).filter((a) => a.length === 1);
  return [...new Set([...long.map((f) => `--${f}`), ...short.map((f) => `-${f}`), '-h'])].sort();
}

/** Words worth completing as positionals, beyond file names (wuu-filter's selectors). */
function positionalWords(spec: ToolSpec): string[] {
  return spec.name === 'wuu-filter' ? [...Object.keys(FAMILIES), ...KNOWN_TYPES] : [];
}

/** A bash completion script for `wuu-stream` and every `wuu-*` command. */
export function bashCompletion(tools: readonly ToolSpec[]): string {
  const cases = tools
    .map((t) => `    ${shortName(t)}|${t.name}) words="${[...allFlags(t), ...positionalWords(t)].join(' ')}" ;;`)
    .join('\n');
  return `# bash completion for wuu-stream; load with: source <(wuu-stream completion bash)
_wuu_stream_words() {
  case "$1" in
${cases}
    *) words="" ;;
  esac
}
_wuu_stream() {
  local cur tool words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  if [[ "\${COMP_WORDS[0]##*/}" == wuu-stream ]]; then
    if (( COMP_CWORD == 1 )); then
      COMPREPLY=( $(compgen -W "${tools.map(shortName).join(' ')} help completion" -- "$cur") )
      return
    fi
    tool="\${COMP_WORDS[1]}"
    if [[ "$tool" == help ]]; then
      COMPREPLY=( $(compgen -W "${tools.map(shortName).join(' ')}" -- "$cur") )
      return
    fi
    if [[ "$tool" == completion ]]; then
      COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") )
      return
    fi
  else
    tool="\${COMP_WORDS[0]##*/}"
  fi
  _wuu_stream_words "$tool"
  COMPREPLY=( $(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur") )
}
complete -o filenames -F _wuu_stream wuu-stream ${tools.map((t) => t.name).join(' ')}
`;
}

/** A zsh completion script for `wuu-stream` and every `wuu-*` command. */
export function zshCompletion(tools: readonly ToolSpec[]): string {
  const cases = tools
    .map((t) => `    ${shortName(t)}|${t.name}) words=(${[...allFlags(t), ...positionalWords(t)].join(' ')}) ;;`)
    .join('\n');
  return `#compdef wuu-stream ${tools.map((t) => t.name).join(' ')}
# zsh completion for wuu-stream; load with: source <(wuu-stream completion zsh)
_wuu_stream() {
  local tool
  local -a words
  if [[ "\${words[1]:-$service}" == wuu-stream || "$service" == wuu-stream ]]; then
    if (( CURRENT == 2 )); then
      compadd -- ${tools.map(shortName).join(' ')} help completion
      return
    fi
    tool="\${words[2]}"
  else
    tool="$service"
  fi
  case "$tool" in
${cases}
    help) words=(${tools.map(shortName).join(' ')}) ;;
    completion) words=(bash zsh) ;;
    *) words=() ;;
  esac
  compadd -- $words
  _files
}
compdef _wuu_stream wuu-stream ${tools.map((t) => t.name).join(' ')}
`;
}

/** Runs the umbrella over argv; returns the exit status. */
export async function umbrellaMain(tools: readonly ToolSpec[], options: RunOptions = {}): Promise<number> {
  const argv = options.argv ?? process.argv.slice(2);
  const stdout: Writable = options.stdout ?? process.stdout;
  const stderr: Writable = options.stderr ?? process.stderr;
  const find = (name: string | undefined) =>
    tools.find((t) => name !== undefined && (shortName(t) === name || t.name === name));
  const usageError = (message: string) => {
    stderr.write(`wuu-stream: ${message}\nTry 'wuu-stream --help' for more information.\n`);
    return EXIT.USAGE;
  };
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') {
    stdout.write(listing(tools));
    return EXIT.OK;
  }
  if (first === '--version') {
    stdout.write(`wuu-stream ${packageVersion()}\n`);
    return EXIT.OK;
  }
  if (first === 'help') {
    if (rest[0] === undefined) {
      stdout.write(listing(tools));
      return EXIT.OK;
    }
    const tool = find(rest[0]);
    if (!tool) return usageError(`no tool named '${rest[0]}'`);
    stdout.write(`${tool.usage.trimEnd()}\n\n${COMMON_HELP}\n`);
    return EXIT.OK;
  }
  if (first === 'completion') {
    if (rest[0] === 'bash') stdout.write(bashCompletion(tools));
    else if (rest[0] === 'zsh') stdout.write(zshCompletion(tools));
    else return usageError("completion takes 'bash' or 'zsh'");
    return EXIT.OK;
  }
  const tool = find(first);
  if (!tool) return usageError(first.startsWith('-') ? `unknown option ${first}` : `no tool named '${first}'`);
  return run(tool, { ...options, argv: rest });
}
