#!/usr/bin/env bash
# Three fixes: a TAB for the spaces-indented recipe, book.md depends on the toc it concatenates,
# and clean removes $(DIST) (DIST_DIR was never defined, so `rm -rf` removed nothing).
set -euo pipefail
sed -i 's/^        cp VERSION \$@$/\tcp VERSION $@/' Makefile
sed -i 's|^\$(DIST)/book.md: src/header.md \$(CHAPTERS) VERSION|$(DIST)/book.md: src/header.md $(DIST)/toc.md $(CHAPTERS) VERSION|' Makefile
sed -i 's/\$(DIST_DIR)/$(DIST)/' Makefile
make clean
make -j4
