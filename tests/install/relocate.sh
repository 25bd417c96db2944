#!/bin/bash
# An installed tree can be moved: install into a temporary prefix, move it elsewhere, then
# build and run a program against each library through pkg-config alone (tlop.pc,
# tlop_jit.pc). Also runs the installed tlop from the moved tree, which finds its stdlib,
# and completes a command word with the installed bash completion.
# Usage: relocate.sh BUILD_DIR  (TLOP_SANITIZER_FLAGS: the sanitizers of a sanitized build)
set -u
build=$1
command -v pkg-config >/dev/null || { echo "pkg-config is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/first" >/dev/null || { echo "cmake --install failed"; exit 1; }
mv "$tmp/first" "$tmp/moved"
cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include "tlop.h"
int main(void) {
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_model *m;
  const char *src = "algorithm twice(m: size) = 2 * o(m);";
  int ok = tlop_load_source(ctx, "t.tlop", src, strlen(src), &m) == TLOP_OK;
  const char **names;
  ok = ok && tlop_model_algorithms(m, &names) == 1 && !strcmp(names[0], "twice");
  printf("%s\n", ok ? "loaded twice" : "failed");
  tlop_ctx_free(ctx);
  return !ok;
}
PROG
passed=0 failed=0
pcdir=$(dirname "$(find "$tmp/moved" -name tlop.pc | head -1)")
for lib in tlop tlop_jit; do
  flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs "$lib" 2>&1)
  libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir "$lib")
  if [[ $flags == *"$tmp/first"* ]]; then
    echo "$lib.pc names the prefix it was installed to: $flags"; failed=$((failed + 1)); continue
  fi
  # shellcheck disable=SC2086
  if cc "$tmp/prog.c" ${TLOP_SANITIZER_FLAGS:-} $flags -Wl,-rpath,"$libdir" -o "$tmp/prog_$lib" && [[ $("$tmp/prog_$lib") == "loaded twice" ]]; then
    passed=$((passed + 1))
  else
    echo "$lib: a program built with pkg-config --cflags --libs $lib ($flags) did not run"
    failed=$((failed + 1))
  fi
done
# the moved command still finds its stdlib and its library
if "$tmp/moved/bin/tlop" eval "$tmp/moved/share/tlop/stdlib/platforms/generic.tlop" '1 + 1' >/dev/null; then
  passed=$((passed + 1))
else
  echo "the moved tlop does not run"; failed=$((failed + 1))
fi
# bash finds the completion where bash-completion looks, under the prefix's share/, and it
# completes the command's words
completion=$tmp/moved/share/bash-completion/completions/tlop
if [[ -f $completion ]] && (source "$completion" && COMP_WORDS=("$tmp/moved/bin/tlop" che) COMP_CWORD=1 &&
  _tlop && [[ ${COMPREPLY[*]} == check ]]); then
  passed=$((passed + 1))
else
  echo "no working bash completion installed at $completion"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
