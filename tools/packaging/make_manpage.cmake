# Writes the ghsift(1) man page from the binary's own --help texts, so the page never drifts
# from the options. Run by the `ghsift_manpage` target:
#   cmake -DGHSIFT=path/to/ghsift -DOUT=ghsift.1 -DVERSION=x.y.z -P make_manpage.cmake
function(help_of out_var)
  execute_process(COMMAND ${GHSIFT} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ghsift ${ARGN} --help failed (${rc})")
  endif()
  string(REPLACE "${GHSIFT}" "ghsift" text "${text}")
  # roff: a backslash is written \e; a line starting with . or ' would be a request.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

help_of(main)
set(page ".TH GHSIFT 1 \"\" \"ghsift ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nghsift \\- find performance, accuracy and silent-bug reports in GH Archive dumps\n")
string(APPEND page ".SH SYNOPSIS\n.B ghsift\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n")
string(APPEND page ".SH DESCRIPTION\n.nf\n${main}.fi\n")
foreach(command ingest query issues stats sample report rescan merge gen)
  help_of(text ${command})
  string(APPEND page ".SS ghsift ${command}\n.nf\n${text}.fi\n")
endforeach()
foreach(command check eval tune explain bench suggest learn)
  help_of(text rules ${command})
  string(APPEND page ".SS ghsift rules ${command}\n.nf\n${text}.fi\n")
endforeach()
string(APPEND page ".SH EXIT STATUS\n0 success; 1 when \\fBissues\\fR or \\fBsample\\fR finds nothing "
                   "(0 with \\fB\\-\\-exit\\-zero\\fR); 2 an error; 130/143 when \\fBingest\\fR was stopped by a signal.\n")
string(APPEND page ".SH ENVIRONMENT\n.TP\n.B GHSIFT_RULES\nThe default rule file or directory for "
                   "\\fB\\-\\-rules\\fR (otherwise \\fIPREFIX\\fR/share/ghsift/rules beside the binary).\n"
                   ".TP\n.B GHSIFT_CACHE_DIR\nWhere compiled rule databases are cached (default ~/.cache/ghsift).\n"
                   ".TP\n.B GHSIFT_NO_RULE_CACHE\nSet to 1 to compile the rules on every run.\n")
file(WRITE ${OUT} "${page}")
