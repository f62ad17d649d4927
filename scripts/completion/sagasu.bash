# Bash completion for Sagasu's indexer and searcher, installed as the commands
# sagasu-index and sagasu-search.
#
# Installed twice, as share/bash-completion/completions/sagasu-index and
# .../sagasu-search (bash-completion loads the file named after the command);
# sourcing it by hand also works:  . scripts/completion/sagasu.bash
#
# Options are read from the binary's own --help when you press TAB, so they
# follow the option tables in indexer/cli/cli.cc and searcher/cli/cli.cc (an
# argument of fixed choices is named by them there: --sort relevance|year|title); the
# facet names from `searcher --fields` (the schema's field table). The searcher
# also completes facet values after venue: year: person: org: kind: (also as
# --filter arguments) with `searcher --list FACET`, against the index the
# command line names (--index/-i, else $SAGASU_INDEX, else the default).
#
# Needs bash 4 or later; does not need the bash-completion package.

_sagasu_facets=()

# _sagasu_split LINE
# Splits LINE (the command line up to the cursor) into words the way the shell
# will: quotes and backslashes removed. Sets
#   _sagasu_words   the words; the last is the word being completed ('' after a space)
#   _sagasu_q       the quote character left open in that word, or ''
#   _sagasu_psem    the (unquoted) text of that word before the part readline
#                   replaces: up to the open quote, else up to the last
#                   unquoted word-break character (: = @ … of COMP_WORDBREAKS)
_sagasu_split() {
  local line=$1 i c n q='' sem='' psem_brk='' psem_q='' inword=''
  local breaks=${COMP_WORDBREAKS-:=}
  breaks=${breaks//[$' \t\n\"\'']/}
  _sagasu_words=()
  for ((i = 0; i < ${#line}; i++)); do
    c=${line:i:1}
    if [[ $q == "'" ]]; then
      if [[ $c == "'" ]]; then q=''; else sem+=$c; fi
    elif [[ $q == '"' ]]; then
      if [[ $c == '"' ]]; then
        q=''
      elif [[ $c == '\' ]]; then
        n=${line:i+1:1}
        if [[ -n $n && $n == [\$\`\"\\] ]]; then sem+=$n; i=$((i + 1)); else sem+=$c; fi
      else
        sem+=$c
      fi
    elif [[ $c == [$' \t\n'] ]]; then
      if [[ -n $inword ]]; then _sagasu_words+=("$sem"); fi
      sem='' psem_brk='' inword=''
    else
      inword=1
      if [[ $c == '\' ]]; then
        i=$((i + 1))
        sem+=${line:i:1}
      elif [[ $c == [\"\'] ]]; then
        q=$c psem_q=$sem
      else
        sem+=$c
        if [[ -n $breaks && $breaks == *"$c"* ]]; then psem_brk=$sem; fi
      fi
    fi
  done
  _sagasu_words+=("$sem")
  _sagasu_q=$q
  if [[ -n $q ]]; then _sagasu_psem=$psem_q; else _sagasu_psem=$psem_brk; fi
}

# _sagasu_quote WORD... : appends to COMPREPLY the text readline must insert so
# that the current word becomes WORD (as the program will see it), quoted for
# the context the cursor is in. Words not continuing the fixed part are dropped.
_sagasu_quote() {
  local w rest sq="'" unsafe=$'[] \t\n\'"\\$`|&;<>()*?[{}!#~]'
  for w in "$@"; do
    [[ $w == "$_sagasu_psem"* ]] || continue
    rest=${w:${#_sagasu_psem}}
    case $_sagasu_q in
      "'") rest=${rest//$sq/$sq\\$sq$sq} ;;
      '"') rest=${rest//\\/\\\\} rest=${rest//\"/\\\"} rest=${rest//\$/\\\$} rest=${rest//\`/\\\`} ;;
      *)
        if [[ $rest =~ $unsafe ]]; then
          rest="'${rest//$sq/$sq\\$sq$sq}'"
        fi
        ;;
    esac
    # Readline closes an open quote after a sole match unless the match already
    # ends with that character, as an escaped \" or a '\'' does: close it here.
    [[ -n $_sagasu_q && $rest == *"$_sagasu_q" ]] && rest+=$_sagasu_q
    COMPREPLY+=("$rest")
  done
}

# _sagasu_offer PREFIX TYPED CANDIDATE... : offers PREFIX+CANDIDATE for every
# candidate that starts with TYPED (case-insensitively).
_sagasu_offer() {
  local prefix=$1 typed=${2,,} c
  shift 2
  local -a out=()
  for c in "$@"; do
    [[ ${c,,} == "$typed"* ]] && out+=("$prefix$c")
  done
  _sagasu_quote "${out[@]}"
}

# _sagasu_bin: the program being completed (first word that is not VAR=value),
# its index arguments and leading VAR=value words.
_sagasu_bin() {
  local w i
  _sagasu_env=() _sagasu_index=() _sagasu_prog=''
  for ((i = 0; i < ${#_sagasu_words[@]} - 1; i++)); do
    w=${_sagasu_words[i]}
    if [[ -z $_sagasu_prog ]]; then
      if [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then _sagasu_env+=("$w"); continue; fi
      [[ $w == '~/'* ]] && w=$HOME/${w#'~/'}
      _sagasu_prog=$w
      continue
    fi
    case $w in
      --index | -i) _sagasu_index=(--index "${_sagasu_words[i + 1]}") ;;
      --index=*) _sagasu_index=(--index "${w#--index=}") ;;
      -i?*) _sagasu_index=(--index "${w#-i}") ;;
    esac
  done
  if [[ ${_sagasu_index[1]-} == '~/'* ]]; then _sagasu_index[1]=$HOME/${_sagasu_index[1]#'~/'}; fi
  [[ -n $_sagasu_prog && $_sagasu_prog != */* ]] && _sagasu_prog=$(type -P -- "$_sagasu_prog")
  [[ -n $_sagasu_prog && -x $_sagasu_prog ]]
}

# _sagasu_options: reads the option table from `PROG --help`. Lines look like
#   "  --json       print …", "  --limit N    show …", "  -i [ --index ] DIR  …".
# The argument name (N, DIR) is what stands between the option's name and the
# description column (where most descriptions start, after two or more blanks):
# the widest entry leaves a single blank ("  --max-file-size BYTES skip …").
# Sets _sagasu_opts (every spelling) and _sagasu_optarg[spelling] for the
# options that take an argument (the argument name; for a short spelling, the
# long one).
_sagasu_options() {
  local line col=0 n best=0
  local re='^  (-([[:alnum:]]) \[ )?--([[:alnum:]][-[:alnum:]_]*)( \])?' gap='^(  -([^ ]| [^ ])*  +)[^ ]'
  local -a lines=()
  local -A votes=()
  _sagasu_opts=()
  unset _sagasu_optarg
  declare -gA _sagasu_optarg=()
  mapfile -t lines < <(env "${_sagasu_env[@]}" "$_sagasu_prog" --help 2>/dev/null)
  for line in "${lines[@]}"; do
    [[ $line =~ $gap ]] && votes[${#BASH_REMATCH[1]}]=$((${votes[${#BASH_REMATCH[1]}]-0} + 1))
  done
  for n in "${!votes[@]}"; do ((votes[$n] > best)) && best=${votes[$n]} col=$n; done
  for line in "${lines[@]}"; do
    [[ $line =~ $re ]] || continue
    local short=${BASH_REMATCH[2]} long=--${BASH_REMATCH[3]} arg
    arg=${line:${#BASH_REMATCH[0]}}
    if ((col > ${#BASH_REMATCH[0]})) && [[ ${line:col-1:1} == ' ' ]]; then
      arg=${arg:0:col-${#BASH_REMATCH[0]}}
    else
      arg=${arg%%  *}  # no table column to go by
    fi
    read -r arg _ <<<"$arg"
    _sagasu_opts+=("$long")
    [[ -n $short ]] && _sagasu_opts+=("-$short")
    if [[ -n $arg ]]; then
      _sagasu_optarg[$long]=$arg
      [[ -n $short ]] && _sagasu_optarg[-$short]=$long
    fi
  done
}

# _sagasu_fields: the facet names, from the program's field table (searcher
# --fields prints "name<TAB>facet|filter|text<TAB>values" lines).
_sagasu_fields() {
  local name role rest
  _sagasu_facets=()
  [[ " ${_sagasu_opts[*]} " == *" --fields "* ]] || return 0
  while IFS=$'\t' read -r name role rest; do
    [[ $role == facet ]] && _sagasu_facets+=("$name")
  done < <(env "${_sagasu_env[@]}" "$_sagasu_prog" --fields 2>/dev/null)
}

# _sagasu_long SPELLING: the long name (--index) of an option spelling (-i, --index).
_sagasu_long() {
  local a=${_sagasu_optarg[$1]-}
  if [[ $a == --* ]]; then printf '%s' "$a"; else printf '%s' "$1"; fi
}

_sagasu_values() {  # _sagasu_values FACET: the values of FACET in the index
  env "${_sagasu_env[@]}" "$_sagasu_prog" "${_sagasu_index[@]}" --list "$1" 2>/dev/null | cut -f1
}

# _sagasu_facet_word PREFIX WORD: completes WORD as FIELD:VALUE (query word or
# --filter argument); PREFIX is what precedes it in the shell word (--filter=).
_sagasu_facet_word() {
  local prefix=$1 w=$2 field value v
  if [[ $w == *:* ]]; then
    field=${w%%:*} value=${w#*:}
    local f ok=''
    for f in "${_sagasu_facets[@]}"; do [[ ${field,,} == "$f" ]] && ok=1; done
    [[ -n $ok ]] || return 0
    local -a vals=()
    value=${value#\"}
    while IFS= read -r v; do
      [[ ${v,,} == "${value,,}"* ]] || continue
      if [[ $v == *[[:space:]\"]* ]]; then v="\"${v//\"/\\\"}\""; fi
      vals+=("$prefix$field:$v")
    done < <(_sagasu_values "${field,,}")
    _sagasu_quote "${vals[@]}"
  else
    _sagasu_offer "$prefix" "$w" "${_sagasu_facets[@]/%/:}"
    compopt -o nospace 2>/dev/null
  fi
}

# _sagasu_arg PROG OPTION PREFIX VALUE: completes the argument of OPTION.
_sagasu_arg() {
  local prog=$1 opt=$2 prefix=$3 value=$4
  case $opt in
    --index | --vault)
      compopt -o filenames 2>/dev/null
      local d
      while IFS= read -r d; do COMPREPLY+=("$d"); done < <(compgen -d -- "$value")
      ;;
    --facet) _sagasu_offer "$prefix" "$value" "${_sagasu_facets[@]}" ;;
    --list) _sagasu_offer "$prefix" "$value" "${_sagasu_facets[@]}" tag ;;
    --facets)
      local head=''
      [[ $value == *,* ]] && head=${value%,*},
      _sagasu_offer "$prefix$head" "${value##*,}" all none "${_sagasu_facets[@]}"
      compopt -o nospace 2>/dev/null
      ;;
    --filter) [[ $prog == searcher ]] && _sagasu_facet_word "$prefix" "$value" ;;
    --ext) _sagasu_offer "$prefix" "$value" md txt md,txt ;;
    *)
      # An argument of fixed choices is named by them in the option table (--sort relevance|year|title).
      local choices=${_sagasu_optarg[$opt]-}
      if [[ $choices == *'|'* ]]; then
        local -a each
        IFS='|' read -ra each <<<"$choices"
        _sagasu_offer "$prefix" "$value" "${each[@]}"
      fi
      ;;
  esac
}

# _sagasu_complete PROG: the completion of indexer or searcher.
_sagasu_complete() {
  local prog=$1
  COMPREPLY=()
  _sagasu_split "${COMP_LINE:0:COMP_POINT}"
  _sagasu_bin || return 0
  _sagasu_options
  _sagasu_fields
  local n=${#_sagasu_words[@]}
  local cur=${_sagasu_words[n - 1]} prev=''
  ((n >= 2)) && prev=${_sagasu_words[n - 2]}

  local i dashdash=''
  for ((i = 1; i < n - 1; i++)); do [[ ${_sagasu_words[i]} == -- ]] && dashdash=1; done

  if [[ -z $dashdash && -n $prev && -n ${_sagasu_optarg[$prev]-} ]]; then
    _sagasu_arg "$prog" "$(_sagasu_long "$prev")" '' "$cur"
  elif [[ -z $dashdash && $cur == --*=* && -n ${_sagasu_optarg[${cur%%=*}]-} ]]; then
    _sagasu_arg "$prog" "${cur%%=*}" "${cur%%=*}=" "${cur#*=}"
  elif [[ -z $dashdash && ($cur == -* || $prog == indexer) ]]; then
    _sagasu_offer '' "$cur" "${_sagasu_opts[@]}"
  elif [[ $prog == searcher ]]; then
    _sagasu_facet_word '' "$cur"
  fi
  return 0
}

_sagasu_indexer() { _sagasu_complete indexer; }
_sagasu_searcher() { _sagasu_complete searcher; }
complete -F _sagasu_indexer sagasu-index
complete -F _sagasu_searcher sagasu-search
