"""`git review-manifest completion bash|zsh`: the shell completion scripts.

Written from the argument parsers (gitreview/usage.py), so every subcommand,
option and --format value the command accepts is offered (issue #13). The
range's revisions come from git: in bash through git's own completion
(`__git_complete_revlist`, which knows A..B and A...B) when it is loaded, in
zsh and without it from `git for-each-ref`.

bash: git's completion calls `_git_review_manifest` for `git review-manifest`
(`_git_${command//-/_}`, loading a completion file named git-review-manifest
on demand); `complete` covers `git-review-manifest` typed as a command.
zsh: zsh's _git calls `_git-review-manifest` for `git review-manifest`; the
script is an autoloadable #compdef file, and registers itself when sourced.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

from gitreview import __version__
from gitreview.usage import Argument, Command, commands

SHELLS = ("bash", "zsh")
HEADER = (
    "# {shell} completion for `git review-manifest` (gitreview {version}), written by\n"
    "# `git review-manifest completion {shell}`: write it again after upgrading gitreview.\n"
)


def run_completion(*, shell: str) -> int:
    sys.stdout.write(script(shell))
    return 0


def script(shell: str, parsed: Sequence[Command] | None = None) -> str:
    found = list(commands() if parsed is None else parsed)
    return _bash(found) if shell == "bash" else _zsh(found)


# -- what each word can be -------------------------------------------------------


def _value_kind(argument: Argument) -> str:
    """'words:A B' for choices, 'revisions' for a range, 'paths', or 'free'."""
    if argument.choices:
        return "words:" + " ".join(argument.choices)
    if argument.metavar == "RANGE":
        return "revisions"
    return "paths" if argument.is_path else "free"


# -- bash ------------------------------------------------------------------------

_BASH_HELPERS = r"""
__gitreview_words ()
{
	# $1: candidates, $2: what is typed so far; git's __gitcomp when loaded.
	COMPREPLY=()
	if declare -F __gitcomp >/dev/null; then
		__gitcomp "$1" "" "$2"
		return
	fi
	local c i=0
	for c in $1; do
		[[ $c == "$2"* ]] && COMPREPLY[i++]="$c "
	done
}

__gitreview_revisions ()
{
	# $1: what is typed so far, perhaps A.. or A... before it.
	if declare -F __git_complete_revlist >/dev/null; then
		local cur="$1"
		__git_complete_revlist
		return
	fi
	local prefix="" word="$1" ref i=0
	case "$word" in
	*...*) prefix="${word%...*}..."; word="${word##*...}" ;;
	*..*) prefix="${word%..*}.."; word="${word##*..}" ;;
	esac
	COMPREPLY=()
	for ref in HEAD $(git for-each-ref --format='%(refname:short)' 2>/dev/null); do
		[[ $ref == "$word"* ]] && COMPREPLY[i++]="$prefix$ref "
	done
}

__gitreview_kind ()
{
	# $1: a kind from __gitreview_value or __gitreview_positional, $2: typed so far.
	case "$1" in
	words:*) __gitreview_words "${1#words:}" "$2" ;;
	revisions) __gitreview_revisions "$2" ;;
	*) COMPREPLY=() ;;  # paths and free values: bash's default (file names)
	esac
}

_git_review_manifest ()
{
	# git's completion sets cur, prev, words and cword; so does the wrapper below.
	local i start=-1 first sub="" option="" typed="$cur" n=0 kind
	for ((i = 0; i < cword; i++)); do
		case "${words[i]}" in
		review-manifest|git-review-manifest|*/git-review-manifest) start=$((i + 1)); break ;;
		esac
	done
	((start < 0)) && return
	first=$start
	if ((cword > start)) && [[ " $__gitreview_subcommands " == *" ${words[start]} "* ]]; then
		sub="${words[start]}"
		first=$((start + 1))
	fi
	if [[ $cur == --*=* ]]; then
		option="${cur%%=*}"
		typed="${cur#*=}"
	elif ((cword > first)) && [[ ${words[cword - 1]} == -* ]]; then
		option="${words[cword - 1]}"
	fi
	if [[ -n $option ]] && kind="$(__gitreview_value "$sub" "$option")"; then
		__gitreview_kind "$kind" "$typed"
		return
	fi
	if [[ $cur == -* ]]; then
		__gitreview_words "$(__gitreview_options "$sub")" "$cur"
		return
	fi
	for ((i = first; i < cword; i++)); do
		case "${words[i]}" in
		--*=*) ;;
		-*) __gitreview_value "$sub" "${words[i]}" >/dev/null && ((i++)) ;;
		*) ((n++)) ;;
		esac
	done
	kind="$(__gitreview_positional "$sub" "$n")"
	if [[ -z $sub && $cword == "$start" ]]; then
		__gitreview_kind "$kind" "$cur"
		local revisions=("${COMPREPLY[@]}")
		__gitreview_words "$__gitreview_subcommands" "$cur"
		COMPREPLY+=("${revisions[@]}")
		return
	fi
	__gitreview_kind "$kind" "$cur"
}

__gitreview_command ()
{
	# `git-review-manifest` typed as a command, without git's completion around it.
	local cur prev words cword
	if declare -F _get_comp_words_by_ref >/dev/null; then
		_get_comp_words_by_ref -n =: cur prev words cword
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur="${words[cword]}"
		prev="${words[cword - 1]}"
	fi
	_git_review_manifest
}

complete -o bashdefault -o default -o nospace -F __gitreview_command git-review-manifest
"""


def _bash(found: list[Command]) -> str:
    subcommands = " ".join(command.name for command in found[1:])
    options, values, positionals = [], [], []
    for command in found:
        name = command.name
        flags = " ".join(flag for argument in command.options for flag in argument.flags)
        options.append(f'\t"{name}") echo "{flags}" ;;')
        for argument in command.options:
            if argument.takes_value:
                pattern = "|".join(f'"{name} {flag}"' for flag in argument.flags)
                values.append(f'\t{pattern}) echo "{_value_kind(argument)}" ;;')
        for index, argument in enumerate(command.positionals):
            # A positional that repeats (show's HANDLE...) is every index from its own on;
            # argparse allows it only last.
            where = "*" if argument.repeats else str(index)
            positionals.append(f'\t"{name} "{where}) echo "{_value_kind(argument)}" ;;')
    return "".join(
        [
            HEADER.format(shell="bash", version=__version__),
            f'\n__gitreview_subcommands="{subcommands}"\n',
            "\n__gitreview_options ()\n{\n\t# $1: the subcommand, empty for the manifest\n",
            '\tcase "$1" in\n',
            "\n".join(options),
            "\n\tesac\n}\n",
            "\n__gitreview_value ()\n{\n\t# $1: the subcommand, $2: an option; fails ",
            "when it takes no value\n",
            '\tcase "$1 $2" in\n',
            "\n".join(values),
            "\n\t*) return 1 ;;\n\tesac\n}\n",
            "\n__gitreview_positional ()\n{\n\t# $1: the subcommand, $2: the positional's ",
            "index\n",
            '\tcase "$1 $2" in\n',
            "\n".join(positionals),
            '\n\t*) echo "free" ;;\n\tesac\n}\n',
            _BASH_HELPERS,
        ]
    )


# -- zsh -------------------------------------------------------------------------

_ZSH_HELPERS = r"""
(( $+functions[__gitreview_revisions] )) ||
__gitreview_revisions () {
  # A range: after A.. or A..., complete B.
  compset -P '*..'
  local -a refs expl
  local format='--format=%\(refname:short\)'
  refs=(HEAD ${(f)"$(_call_program revisions git for-each-ref $format 2>/dev/null)"})
  _wanted revisions expl revision compadd -a refs
}
"""


def _zsh(found: list[Command]) -> str:
    main, *subs = found
    described = " ".join(_zsh_quote(f"{c.name}:{_summary(c.description)}") for c in subs)
    lines = [
        "#compdef git-review-manifest",
        f"#description {_summary(main.description)}",
        HEADER.format(shell="zsh", version=__version__).rstrip("\n"),
        _ZSH_HELPERS.strip("\n"),
        "",
        "_git-review-manifest () {",
        "  local curcontext=$curcontext state line ret=1",
        "  typeset -A opt_args",
        f"  local -a subcommands; subcommands=({described})",
        "  if (( CURRENT > 2 )) && (( ${subcommands[(I)${words[2]}:*]} )); then",
        "    local sub=$words[2]",
        "    shift words; (( CURRENT-- ))",
        '    curcontext="${curcontext%:*:*}:git-review-manifest-$sub:"',
        "    case $sub in",
    ]
    for command in subs:
        specs = _zsh_specs(command)
        lines.append(f"      ({command.name}) _arguments -s -S : \\")
        lines += [f"          {spec} \\" for spec in specs[:-1]]
        lines.append(f"          {specs[-1]} && ret=0 ;;")
    lines += ["    esac", "  else", "    _arguments -s -S -C : \\"]
    lines += [f"        {spec} \\" for spec in _zsh_specs(main, first_state=True)]
    lines[-1] = lines[-1].removesuffix(" \\") + " && ret=0"
    lines += [
        "    if [[ $state == first ]]; then",
        "      if (( CURRENT == 2 )); then",
        "        _alternative 'subcommands:subcommand:_describe -t subcommands subcommand "
        "subcommands' 'revisions:revision:__gitreview_revisions' && ret=0",
        "      else",
        "        __gitreview_revisions && ret=0",
        "      fi",
        "    fi",
        "  fi",
        "  return ret",
        "}",
        "",
        "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
        '  _git-review-manifest "$@"',
        "else",
        "  compdef _git-review-manifest git-review-manifest",
        "fi",
        "",
    ]
    return "\n".join(lines)


def _zsh_specs(command: Command, *, first_state: bool = False) -> list[str]:
    specs = []
    for argument in command.options:
        flags = argument.flags
        exclusive = f"'({' '.join(flags)})'" if len(flags) > 1 else ""
        forms = "{" + ",".join(_zsh_flag(f, argument) for f in flags) + "}"
        forms = forms if len(flags) > 1 else _zsh_flag(flags[0], argument)
        value = ""
        if argument.takes_value:
            value = ":" + argument.metavar.lower() + ":" + _zsh_action(_value_kind(argument))
        described = _summary(argument.help)
        if argument.choices and argument.help.startswith(f"{argument.choices[0]}:"):
            described = "one of " + ", ".join(argument.choices)  # --format: a list of meanings
        specs.append(f"{exclusive}{forms}{_zsh_quote(f'[{described}]{value}')}")
    for index, argument in enumerate(command.positionals):
        kind = _value_kind(argument)
        action = "->first" if first_state and index == 0 else _zsh_action(kind)
        where = "*" if argument.repeats else f"{index + 1}"
        colon = ":" if argument.optional and not argument.repeats else ""
        specs.append(_zsh_quote(f"{where}:{colon}{argument.metavar.lower()}:{action}"))
    return specs


def _zsh_flag(flag: str, argument: Argument) -> str:
    # `--name=` takes its value in the same word after `=` or as the next word.
    return f"{flag}=" if argument.takes_value and flag.startswith("--") else flag


def _zsh_action(kind: str) -> str:
    if kind.startswith("words:"):
        return "(" + kind.removeprefix("words:") + ")"
    return {"revisions": "__gitreview_revisions", "paths": "_files"}.get(kind, " ")


def _zsh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _summary(text: str) -> str:
    """A short description for a completion menu: the first clause, no brackets or colons,
    nor what parentheses add (`repository (default: the current one)` was cut inside
    them, at its colon: a review)."""
    text = re.sub(r"\s*\([^()]*\)", "", text)
    first = re.split(r"[;:.]\s", text, maxsplit=1)[0].strip()
    first = first.replace("[", "(").replace("]", ")").replace(":", " ").replace("\\", "/")
    if len(first) > 60:
        first = first[:60].rsplit(" ", 1)[0].rstrip(",;") + "..."
    return first.rstrip(".")
