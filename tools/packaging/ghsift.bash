# bash completion for ghsift. Subcommands and options are read from the binary's own --help, so
# the completion knows every option of the installed version.
_ghsift_words_of() {
  # The names listed under "Subcommands:" (or the long options) of `ghsift ... --help`.
  "$@" --help 2>/dev/null | awk -v want="$WANT" '
    /^[A-Za-z]+:$/ { section = $0; next }
    want == "subcommands" && section == "Subcommands:" && $1 ~ /^[a-z]/ { print $1 }
    want == "options" && $1 ~ /^-/ {
      n = split($1, names, ",")
      for (i = 1; i <= n; ++i) if (names[i] ~ /^--[a-z]/) print names[i]
    }'
}

_ghsift() {
  local cur=${COMP_WORDS[COMP_CWORD]} path=(ghsift) i word
  for ((i = 1; i < COMP_CWORD; ++i)); do
    word=${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    if WANT=subcommands _ghsift_words_of "${COMP_WORDS[0]}" "${path[@]:1}" | grep -qx -- "$word"; then
      path+=("$word")
    fi
  done
  local words
  if [[ $cur == -* ]]; then
    words=$(WANT=options _ghsift_words_of "${COMP_WORDS[0]}" "${path[@]:1}")
  else
    words=$(WANT=subcommands _ghsift_words_of "${COMP_WORDS[0]}" "${path[@]:1}")
    if [[ -z $words ]]; then
      COMPREPLY=($(compgen -f -- "$cur"))
      return
    fi
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o filenames -F _ghsift ghsift
