/**
 * The `wuu-stream` front door: lists the tools, runs one by its short name
 * with the very same spec as its own binary, shows a tool's help, and prints
 * shell completion scripts generated from the specs.
 */
import type { Writable } from 'node:stream';
import { FAMILIES, KNOWN_TYPES } from '../events.js';
import { nearest } from '../suggest.js';
import { escapeControls } from '../text.js';
import { COMMON_FLAGS, COMMON_HELP, EXIT } from './args.js';
import { run, type RunOptions } from './run.js';
import type { ToolSpec } from './spec.js';
import { packageVersion } from './version.js';

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

/** Every option a tool takes, as typed: long, `--no-` forms that mean something, short. */
export function allFlags(spec: ToolSpec): string[] {
  const flags = spec.flags ?? {};
  // The runner's own flags (--follow, --strict, ...) come from the one table that defines them.
  const long = [...(flags.string ?? []), ...(flags.boolean ?? []), ...COMMON_FLAGS.string, ...COMMON_FLAGS.boolean];
  // A negated form is offered where it means something: a boolean that is on by
  // default, or a flag declared negatable (wuu-pretty's --no-color).
  const negated = [...(flags.boolean ?? []).filter((name) => flags.defaults?.[name] === true), ...(flags.negatable ?? [])].map((name) => `no-${name}`);
  const short = [...Object.keys(flags.alias ?? {}), ...Object.keys(COMMON_FLAGS.alias)].filter((a) => a.length === 1);
  return [...new Set([...[...long, ...negated].map((f) => `--${f}`), ...short.map((f) => `-${f}`)])].sort();
}

/** Words worth completing as positionals, beyond file names (wuu-filter's selectors). */
function positionalWords(spec: ToolSpec): string[] {
  return spec.name === 'wuu-filter' ? [...Object.keys(FAMILIES), ...KNOWN_TYPES] : [];
}

/** `--flag) vals="a b" ;;` lines for the value flags of a tool with a fixed set of values. */
function valueCases(spec: ToolSpec, quote: (words: readonly string[]) => string): string[] {
  const values = spec.flags?.values ?? {};
  return Object.entries(values)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([flag, words]) => `      --${flag}) vals=${quote(words)} ;;`);
}

/** Value flags with no fixed set (a file, a number): the next word is theirs, not an option. */
function freeValueFlags(tools: readonly ToolSpec[]): string[] {
  const flags = new Set<string>(['--max-line-bytes']);
  for (const t of tools) {
    const free = (t.flags?.string ?? []).filter((f) => !t.flags?.values?.[f]);
    for (const f of free) flags.add(`--${f}`);
    for (const [short, long] of Object.entries(t.flags?.alias ?? {})) if (short.length === 1 && free.includes(long)) flags.add(`-${short}`);
  }
  return [...flags].sort();
}

function toolCases(tools: readonly ToolSpec[], quote: (words: readonly string[]) => string): string {
  return tools
    .map((t) => {
      const values = valueCases(t, quote);
      const valueBlock = values.length > 0 ? `\n    case "$prev" in\n${values.join('\n')}\n    esac` : '';
      return `  ${shortName(t)}|${t.name})\n    cands=${quote([...allFlags(t), ...positionalWords(t)])}${valueBlock} ;;`;
    })
    .join('\n');
}

/** A bash completion script for `wuu-stream` and every `wuu-*` command. */
export function bashCompletion(tools: readonly ToolSpec[]): string {
  const names = tools.map(shortName).join(' ');
  const quote = (words: readonly string[]) => `"${words.join(' ')}"`;
  return `# bash completion for wuu-stream; load with: source <(wuu-stream completion bash)
# _wuu_stream_cands TOOL PREV: sets cands (options and selectors of TOOL) and
# vals (the allowed values of the option PREV, when it has a fixed set).
_wuu_stream_cands() {
  local prev="$2"
  cands=""
  vals=""
  case "$1" in
${toolCases(tools, quote)}
  esac
}
_wuu_stream() {
  local cur prev tool cands vals
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --flag=value: bash splits at '=' (COMP_WORDBREAKS).
  if [[ "$cur" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-1]}"; cur=""; fi
  if [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  if [[ "\${COMP_WORDS[0]##*/}" == wuu-stream ]]; then
    if (( COMP_CWORD == 1 )); then
      COMPREPLY=( $(compgen -W "${names} help completion" -- "$cur") )
      return
    fi
    tool="\${COMP_WORDS[1]}"
    if [[ "$tool" == help ]]; then
      (( COMP_CWORD == 2 )) && COMPREPLY=( $(compgen -W "${names}" -- "$cur") )
      return
    fi
    if [[ "$tool" == completion ]]; then
      (( COMP_CWORD == 2 )) && COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") )
      return
    fi
  else
    tool="\${COMP_WORDS[0]##*/}"
  fi
  case "$prev" in
    ${freeValueFlags(tools).join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  _wuu_stream_cands "$tool" "$prev"
  if [[ -n "$vals" ]]; then
    # A comma list (--by day,model): complete its last item, keep the rest.
    if [[ "$cur" == *,* ]]; then
      COMPREPLY=( $(compgen -P "\${cur%,*}," -W "$vals" -- "\${cur##*,}") )
    else
      COMPREPLY=( $(compgen -W "$vals" -- "$cur") )
    fi
    return
  fi
  COMPREPLY=( $(compgen -W "$cands" -- "$cur") $(compgen -f -- "$cur") )
}
complete -o filenames -F _wuu_stream wuu-stream ${tools.map((t) => t.name).join(' ')}
`;
}

/** A zsh completion script for `wuu-stream` and every `wuu-*` command. */
export function zshCompletion(tools: readonly ToolSpec[]): string {
  const names = tools.map(shortName).join(' ');
  const quote = (words: readonly string[]) => `(${words.join(' ')})`;
  // zsh's own $words (the command line) must stay visible: the candidates
  // live in their own array, never in a local named words.
  return `#compdef wuu-stream ${tools.map((t) => t.name).join(' ')}
# zsh completion for wuu-stream; load with: source <(wuu-stream completion zsh)
_wuu_stream() {
  local tool prev cur
  local -a cands vals
  cur="\${words[CURRENT]}"
  prev="\${words[CURRENT-1]}"
  if [[ "\${words[1]:t}" == wuu-stream ]]; then
    if (( CURRENT == 2 )); then
      compadd -- ${names} help completion
      return
    fi
    tool="\${words[2]}"
    if [[ "$tool" == help ]]; then
      (( CURRENT == 3 )) && compadd -- ${names}
      return
    fi
    if [[ "$tool" == completion ]]; then
      (( CURRENT == 3 )) && compadd -- bash zsh
      return
    fi
  else
    tool="\${words[1]:t}"
  fi
  case "$prev" in
    ${freeValueFlags(tools).join('|')}) _files; return ;;
  esac
  case "$tool" in
${toolCases(tools, quote)}
  esac
  if (( \${#vals} > 0 )); then
    # A comma list (--by day,model): complete its last item, keep the rest.
    compset -P '*,'
    compadd -- $vals
    return
  fi
  compadd -- $cands
  _files
}
compdef _wuu_stream wuu-stream ${tools.map((t) => t.name).join(' ')}
`;
}

/**
 * Writes `text` and waits until it is out: a closed pipe (EPIPE) ends quietly
 * with 0, any other write error (ENOSPC on /dev/full) is reported with 1.
 */
async function writeOut(stdout: Writable, stderr: Writable, text: string): Promise<number> {
  const failure = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    // The listener stays: a failed write also emits 'error' after its callback.
    stdout.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    stdout.write(text, (err) => resolve(err ?? undefined));
  });
  if (failure === undefined || failure.code === 'EPIPE') return EXIT.OK;
  stderr.write(`wuu-stream: write error: ${failure.message}\n`);
  return EXIT.BAD_DATA;
}

/** Runs the umbrella over argv; returns the exit status. */
export async function umbrellaMain(tools: readonly ToolSpec[], options: RunOptions = {}): Promise<number> {
  const argv = options.argv ?? process.argv.slice(2);
  const stdout: Writable = options.stdout ?? process.stdout;
  const stderr: Writable = options.stderr ?? process.stderr;
  const find = (name: string | undefined) =>
    tools.find((t) => name !== undefined && (shortName(t) === name || t.name === name));
  const usageError = (message: string) => {
    stderr.write(`wuu-stream: ${escapeControls(message)}\nTry 'wuu-stream --help' for more information.\n`);
    return EXIT.USAGE;
  };
  const noTool = (name: string) => {
    const near = nearest(name, [...tools.map(shortName), 'help', 'completion']);
    return usageError(`no tool named '${name}'${near ? `; did you mean '${near}'?` : ''}`);
  };
  const out = (text: string) => writeOut(stdout, stderr, text);
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') return out(listing(tools));
  if (first === '--version') return out(`wuu-stream ${packageVersion()}\n`);
  if (first === 'help') {
    if (rest.length > 1) return usageError(`help takes one tool name, not '${rest.join(' ')}'`);
    if (rest[0] === undefined) return out(listing(tools));
    const tool = find(rest[0]);
    if (!tool) return noTool(rest[0]);
    return out(`${tool.usage.trimEnd()}\n\n${COMMON_HELP}\n`);
  }
  if (first === 'completion') {
    if (rest.length !== 1 || (rest[0] !== 'bash' && rest[0] !== 'zsh')) {
      return usageError(rest.length > 1 ? `completion takes one argument, 'bash' or 'zsh', not '${rest.join(' ')}'` : "completion takes 'bash' or 'zsh'");
    }
    return out(rest[0] === 'bash' ? bashCompletion(tools) : zshCompletion(tools));
  }
  const tool = find(first);
  if (!tool) return first.startsWith('-') ? usageError(`unknown option ${first}`) : noTool(first);
  return run(tool, { ...options, argv: rest });
}
