"""The launcher of a jail: ``python -m checker.scan.jail_launch CONFIG`` (JSON).

It runs between the checker and bubblewrap, to do what must be done before bubblewrap
starts and cannot be asked of it:

1. join the jail's control group (``cgroup``: its folders), so that everything the jail
   runs is counted from its first instruction;
2. as root: enter a mount namespace of its own, mount the jail's tmpfs (``tmpfs``: bounded
   in size and in inodes, which bubblewrap's own tmpfs cannot be) on the staging folder, and
   make every folder of ``reachable`` (the Python installation, the ``checker`` package)
   reachable by ``nobody`` (a closed ancestor such as ``/root`` is covered by a tmpfs that
   binds back only those folders), then become ``nobody``, with no supplementary groups:
   bubblewrap, and so the jail, then holds no more than ``nobody`` does;
3. replace itself with bubblewrap (``bwrap``: its argument list).

Any step that fails ends the launcher with status 125 and a line on stderr: the jail is
never started with more privilege than asked.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from checker.scan import confine

NOBODY = 65534
FAILED = 125


def main(config: dict[str, Any]) -> None:
    for folder in config.get("cgroup", []):
        (Path(folder) / "cgroup.procs").write_text(str(os.getpid()))
    if os.geteuid() == 0:
        if not confine.private_mounts():
            raise OSError("no private mount namespace for the jail's launcher")
        tmpfs = config.get("tmpfs")
        if tmpfs:
            options = f"size={int(tmpfs['size'])},nr_inodes={int(tmpfs['inodes'])},mode=1777"
            if not confine.tmpfs(str(tmpfs["path"]), options=options):
                raise OSError("the jail's tmpfs could not be mounted")
            os.mkdir(os.path.join(tmpfs["path"], "shm"), 0o1777)
            os.chmod(os.path.join(tmpfs["path"], "shm"), 0o1777)
        confine.make_reachable(config["reachable"])
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        if os.getuid() != NOBODY or os.geteuid() != NOBODY or os.getgroups():
            raise OSError("the launcher could not become nobody")
    argv = config["bwrap"]
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    try:
        main(json.loads(sys.argv[1]))
    except BaseException as exc:  # any failure refuses the jail
        sys.stderr.write(f"jail: {type(exc).__name__}: {exc}\n")
        sys.stderr.flush()
        os._exit(FAILED)
