# GenUnverifiedForms.cmake - the forms without an oracle word, as a table.
#
#   cmake -DLIST=<UnverifiedForms.txt> -DENUM=<SASSGenInstrInfo.inc>
#         -DOUT=<SASSGenUnverifiedForms.inc> -P GenUnverifiedForms.cmake
#
# LIST: '#' starts a comment, every other non-blank line is one form name
# (the td def name).  Writes one TP_SASS_UNVERIFIED_FORM(<name>) a line,
# each behind a #line directive naming its line of LIST, so that a compiler
# error about a name points at the list.  A name that is no form of the
# generated opcode enum (ENUM) stops the build here with
# "<LIST>:<line>: error: ...".  OUT is rewritten only when its text changes.
foreach(var LIST ENUM OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenUnverifiedForms.cmake: -D${var}= is required")
  endif()
endforeach()

# The names between "#ifdef GET_SASS_OPCODE_ENUM" and its #undef.
file(STRINGS "${ENUM}" EnumLines)
set(Forms)
set(InEnum FALSE)
foreach(L IN LISTS EnumLines)
  if(L STREQUAL "#ifdef GET_SASS_OPCODE_ENUM")
    set(InEnum TRUE)
  elseif(L MATCHES "^#undef")
    set(InEnum FALSE)
  elseif(InEnum AND L MATCHES "^  ([A-Za-z0-9_]+) = [0-9]+,$")
    list(APPEND Forms "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH Forms NumForms)
if(NumForms EQUAL 0)
  message(FATAL_ERROR "${ENUM}: no opcode enum found")
endif()

# file(STRINGS) drops empty lines, which would break line numbers: read the
# whole file and split it by hand (';' escaped: one list element a line).
file(READ "${LIST}" Text)
string(REPLACE ";" "\\;" Text "${Text}")
string(REPLACE "\n" ";" Lines "${Text}")
set(Out "// Generated from ${LIST} by GenUnverifiedForms.cmake: do not edit.\n")
string(APPEND Out "// The forms no oracle word reaches (sass::isOracleVerified).\n")
set(LineNo 0)
set(Errors "")
foreach(L IN LISTS Lines)
  math(EXPR LineNo "${LineNo} + 1")
  string(FIND "${L}" "#" Hash)
  if(NOT Hash EQUAL -1)
    string(SUBSTRING "${L}" 0 ${Hash} L)
  endif()
  string(STRIP "${L}" Name)
  if(Name STREQUAL "")
    continue()
  endif()
  list(FIND Forms "${Name}" Idx)
  if(Idx EQUAL -1)
    string(APPEND Errors
      "${LIST}:${LineNo}: error: '${Name}' is not an instruction form of "
      "td/ (no such opcode in ${ENUM}); drop it from the list\n")
    continue()
  endif()
  string(APPEND Out "#line ${LineNo} \"${LIST}\"\nTP_SASS_UNVERIFIED_FORM(${Name})\n")
endforeach()
if(NOT Errors STREQUAL "")
  message(FATAL_ERROR "${Errors}")
endif()

set(Old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" Old)
endif()
if(NOT Old STREQUAL Out)
  file(WRITE "${OUT}" "${Out}")
endif()
