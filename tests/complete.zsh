# Completes each argument after the first two as zsh would on TAB, in a real
# interactive zsh on a pseudo-terminal (zpty), and prints what compadd was
# given: one candidate a line, then <end> for each. Used by test_completion.py.
#   zsh -f complete.zsh FPATH_DIR COMPDUMP LINE...
zmodload zsh/zpty || exit 2
zpty shell zsh -f -i
zpty -w shell 'PROMPT= RPROMPT=; unsetopt zle_bracketed_paste 2>/dev/null'
zpty -w shell "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)2}"
# compadd wrapped: every match the completion functions add is printed, with the
# prefix completion kept aside (A.. of a range), unless only asked to filter (-O -A -D).
zpty -w shell 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  local -a hits; local -A prefix
  builtin compadd -A hits "$@"
  zparseopts -E P:=prefix
  local hit; for hit in $hits; do print -r -- "<hit>$IPREFIX$prefix[-P]$hit"; done
}'
# TAB completes, then says so: nothing more is typed while completion runs (zsh
# cuts a completion short when input is waiting).
zpty -w shell 'tab () { zle complete-word; print "<tab""bed>"; }; zle -N tab; bindkey "^I" tab'
zpty -w shell 'print "<re""ady>"'
zpty -r shell line '*<ready>*'
local typed
for typed in "${@[3,-1]}"; do
  zpty -w -n shell "$typed"$'\t'
  while zpty -r shell line; do
    [[ $line == *'<hit>'* ]] && print -r -- "${line##*<hit>}"
    [[ $line == *'<tabbed>'* ]] && break
  done
  print '<end>'
  zpty -w shell $'\x15print "<cle""ared>"'  # ^U: the line is never run
  zpty -r shell line '*<cleared>*'
done
zpty -d shell
