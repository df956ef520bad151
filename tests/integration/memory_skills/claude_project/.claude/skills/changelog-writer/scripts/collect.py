"""Print the subjects of the commits since the last tag."""

import subprocess

print(subprocess.run(["git", "log", "--format=%s", "HEAD"], capture_output=True, text=True).stdout)
