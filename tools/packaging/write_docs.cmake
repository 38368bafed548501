# Writes the ghsift(1) man page and the bash and zsh completions with the built binary
# (`ghsift man`, `ghsift completions bash|zsh`), which makes them from its command table and the
# options of each command: they cannot drift from the commands. Run by the `ghsift_docs` target:
#   cmake -DGHSIFT=path/to/ghsift -DOUT_DIR=dir -P write_docs.cmake
function(write_with out)
  execute_process(COMMAND ${GHSIFT} ${ARGN} OUTPUT_FILE ${OUT_DIR}/${out}.tmp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`ghsift ${ARGN}` failed (${rc})")
  endif()
  file(RENAME ${OUT_DIR}/${out}.tmp ${OUT_DIR}/${out})
endfunction()

write_with(ghsift.1 man)
write_with(ghsift.bash completions bash)
write_with(_ghsift completions zsh)
