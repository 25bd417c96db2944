#!/bin/sh
# install_commands.sh SOURCE_DIR — ctest docs.install_commands: the package installs that
# README.md, docs/*.md and tests/*/README.md tell a reader to run work on a fresh Debian
# image as root: each `apt-get install` comes after an `apt-get update` on its line (a fresh
# image has no package lists), and none asks for sudo (not installed there).
set -u
cd "$1" || exit 1
awk '/apt-get install/ && !/apt-get update .*apt-get install/ {
       print FILENAME ":" FNR ": apt-get install without apt-get update before it"; bad = 1 }
     /sudo apt-get/ { print FILENAME ":" FNR ": sudo, which a fresh image lacks"; bad = 1 }
     END { exit bad }' README.md docs/*.md tests/*/README.md
