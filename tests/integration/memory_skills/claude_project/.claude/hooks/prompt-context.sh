#!/bin/sh
# UserPromptSubmit: what is printed is added to the prompt as context.
echo "HOOK-CONTEXT-MARKER: the shop deploys on Fridays only"
