# Attack 7: system calls no snippet needs: a user namespace, io_uring, a netlink socket,
# ptrace, an extended attribute, a time change on a host file; and the same from native code
# (a program the snippet starts).
# Expected: each refused.
import ctypes
import errno
import os
import platform
import socket
import subprocess

from checker.scan.syscall_table import numbers

table = numbers(platform.machine())
libc = ctypes.CDLL(None, use_errno=True)
results = []
for name, args in (("unshare", (0x10000000,)), ("io_uring_setup", (8, None)), ("ptrace", (0, 0, 0, 0))):
    ctypes.set_errno(0)
    value = libc.syscall(table[name], *args)
    results.append(errno.errorcode.get(ctypes.get_errno(), "none") if value == -1 else "done")
try:
    socket.socket(16, socket.SOCK_RAW, 0)  # AF_NETLINK
    results.append("done")
except OSError as exc:
    results.append(errno.errorcode[exc.errno])
with open("file.txt", "w") as handle:
    handle.write("x")
for attempt in (
    lambda: os.setxattr("file.txt", "user.note", b"x"),
    lambda: os.utime("/usr/bin/env", (0, 0)),
):
    try:
        attempt()
        results.append("done")
    except OSError as exc:
        results.append(errno.errorcode[exc.errno])
print(results)
native = subprocess.run(["unshare", "--user", "true"], capture_output=True, check=False)
print(native.returncode != 0)
