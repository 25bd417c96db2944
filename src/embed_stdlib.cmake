# embed_stdlib.cmake — writes OUT, a C file holding every ROOT/**/*.tlop, the catalogue
# (ROOT/catalog.txt) and the libraries' own tuning data (ROOT/tuning/) as byte arrays,
# each with its path relative to ROOT, and the function that finds one by name.
file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/*.tlop ${ROOT}/catalog.txt ${ROOT}/tuning/*)
list(SORT files)
set(body "/* Generated from stdlib/ by src/embed_stdlib.cmake: do not edit. */\n#include <stddef.h>\n#include <string.h>\n\n")
set(table "static const struct { const char *name; const unsigned char *data; size_t len; } files[] = {\n")
set(i 0)
foreach(f IN LISTS files)
  file(READ ${ROOT}/${f} hex HEX)
  string(LENGTH "${hex}" n)
  math(EXPR len "${n} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND body "static const unsigned char file${i}[] = {${bytes}0};\n")
  string(APPEND table "  {\"${f}\", file${i}, ${len}},\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND table "};\n")
string(APPEND body "${table}
const char *stdlib_builtin(const char *name, size_t *len) {
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    if (strcmp(files[i].name, name) == 0) {
      *len = files[i].len;
      return (const char *)files[i].data;
    }
  return NULL;
}
")
file(WRITE ${OUT} "${body}")
