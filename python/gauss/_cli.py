"""The `gauss` console script of the Python package: runs the C command (tools/gauss.c) that the
wheel installs next to the library, as gauss/bin/gauss."""

import os
import sys


def command_path():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "gauss")


def main():
    path = command_path()
    if not os.access(path, os.X_OK):
        sys.stderr.write(f"gauss: the command {path} is not installed with this package (it is "
                         "built when the package is installed with 'pip install .')\n")
        return 1
    os.execv(path, [path] + sys.argv[1:])
    return 1  # not reached: execv replaces the process


if __name__ == "__main__":
    sys.exit(main())
