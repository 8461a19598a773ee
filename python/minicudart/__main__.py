"""python -m minicudart ARGS: runs the installed `minicudart` command with ARGS (it replaces
this process, so the exit status is the command's)."""
import os
import sys

from . import command


def main():
    cmd = command()
    if not os.access(cmd, os.X_OK):
        sys.stderr.write("minicudart: %s is missing: reinstall the package\n" % cmd)
        return 2
    os.execv(cmd, [cmd] + sys.argv[1:])
    return 2


if __name__ == "__main__":
    sys.exit(main())
