# What zsh offers on TAB, for tests/test_completions_and_help.py: a real interactive zsh in a
# pseudo-terminal (zsh/zpty), compinit with the given folder first on $fpath, the line typed,
# then TAB; every candidate added is printed as <HIT>candidate</HIT> (as the line would quote it).
# usage: zsh -f zsh_capture.zsh FPATH_FOLDER "command line"
# (the technique of Valodim's zsh-capture-completion: wrap compadd, end at comppostfuncs)
# The markers are typed split in two ("<REA''DY>"): before zsh's line editor starts, the terminal
# echoes every typed line at once, and a marker echoed whole would end a read before zsh ran the
# line (on a busy machine the editor then redrew the compadd line, and '$h' was read as a hit).
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='' RPROMPT=''; unsetopt beep"
zpty -w z "fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -A hits "$@"; local h; for h in $hits; do print -rn -- "<HI""T>$h</HI""T>"; done; builtin compadd "$@"; }'
zpty -w z 'comppostfuncs=(_capture_done); _capture_done() { print -n "<EN""D>"; }'
zpty -w z 'bindkey "^I" complete-word'
zpty -w z "print -n '<REA''DY>'"
zpty -r z line '*<READY>*'
zpty -w -n z "$2"$'\t'
zpty -r z out '*<END>*'
print -r -- "$out"
zpty -d z
