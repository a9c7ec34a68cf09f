"""The system calls a snippet may make: a seccomp allowlist, compiled to classic BPF.

The jail (:mod:`checker.scan.jail`) hands :func:`program` to bubblewrap (``--seccomp FD``),
which loads it after the sandbox is set up, before the fork server starts: every process in
the jail, the fork server and the snippet's, the native code it builds or loads included,
runs under it, and no process can remove it.

The list is what Python, NumPy and PyTorch (CPU and CUDA) need to run an article's code:
files, memory, threads, signals, time, processes without new namespaces, pipes and sockets
of the local, IPv4 and IPv6 families (the jail has no network), polling. Everything else
fails with ``EPERM``: new namespaces and user namespaces (``unshare``, ``setns``, ``clone``
with a ``CLONE_NEW*`` flag), mounts, ``ptrace`` and reading other processes' memory,
``io_uring``, BPF, performance counters, ``userfaultfd``, keys, kernel modules, SysV IPC
(which outlives the processes that made it), ``memfd_create`` (memory that no file-size or
address-space limit counts), netlink and packet sockets, changing users. ``clone3`` fails
with ``ENOSYS`` (its flags cannot be read by a filter), so the C library falls back to
``clone``, whose flags can.
"""

from __future__ import annotations

import errno
import platform
import struct

from checker.scan.syscall_table import numbers

#: Allowed without condition.
ALLOWED = (
    # files and folders
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "open", "openat", "openat2", "close", "close_range", "creat", "lseek", "stat",
    "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "mkdir", "mkdirat",
    "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat",
    "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown",
    "fchownat", "truncate", "ftruncate", "fallocate", "fsync", "fdatasync", "sync",
    "sync_file_range", "syncfs", "flock", "fcntl", "dup", "dup2", "dup3", "ioctl", "umask",
    "chdir", "fchdir", "getcwd", "utime", "utimes", "utimensat", "futimesat", "getxattr",
    "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr", "sendfile",
    "copy_file_range", "splice", "tee", "fadvise64", "readahead", "mknod", "mknodat",
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "msync", "mincore", "mlock",
    "munlock", "mlock2", "get_mempolicy", "set_mempolicy", "mbind", "membarrier",
    # threads, signals, time
    "futex", "futex_waitv", "set_robust_list", "get_robust_list", "set_tid_address", "rseq",
    "arch_prctl", "prctl", "sched_yield", "sched_getaffinity", "sched_setaffinity",
    "sched_getparam", "sched_setparam", "sched_getscheduler", "sched_setscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval",
    "sched_getattr", "sched_setattr", "getpriority", "setpriority", "rt_sigaction",
    "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend", "rt_sigpending", "rt_sigtimedwait",
    "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack", "kill", "tkill", "tgkill", "pause",
    "alarm", "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday",
    "time", "times", "getitimer", "setitimer", "timer_create", "timer_settime",
    "timer_gettime", "timer_getoverrun", "timer_delete", "timerfd_create", "timerfd_settime",
    "timerfd_gettime", "eventfd", "eventfd2", "signalfd", "signalfd4",
    # processes (``clone`` below)
    "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid", "getpid",
    "getppid", "gettid", "getpgid", "setpgid", "getpgrp", "getsid", "setsid", "getuid",
    "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "getrlimit",
    "setrlimit", "prlimit64", "getrusage", "sysinfo", "uname", "capget", "getcpu",
    "getrandom", "pidfd_open", "pidfd_send_signal",
    # pipes, sockets (``socket`` below), polling
    "pipe", "pipe2", "socketpair", "bind", "listen", "accept", "accept4", "connect",
    "getsockname", "getpeername", "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
    "recvmmsg", "shutdown", "setsockopt", "getsockopt", "poll", "ppoll", "select", "pselect6",
    "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
)  # fmt: skip

#: ``socket`` is allowed for these families only (local, IPv4, IPv6), never netlink or packet.
SOCKET_FAMILIES = (1, 2, 10)
#: ``clone`` fails when its flags ask for any of these (new namespaces).
CLONE_NEW_NAMESPACES = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
    | 0x00000080  # CLONE_NEWTIME
)

#: ``AUDIT_ARCH_*`` of the architectures a filter can be made for.
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}

_LD_W_ABS, _JEQ_K, _JSET_K, _JGE_K, _RET_K = 0x20, 0x15, 0x45, 0x35, 0x06
_RET_ALLOW, _RET_KILL = 0x7FFF0000, 0x80000000
_RET_ERRNO = 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (arg 0's low 32 bits)
_X32_BIT = 0x40000000


class UnsupportedArchitecture(Exception):
    """No filter can be made for this machine."""


def machine() -> str:
    return platform.machine().lower().replace("arm64", "aarch64").replace("amd64", "x86_64")


def program(arch: str | None = None) -> bytes:
    """The filter for ``arch`` (default: this machine) as ``struct sock_filter`` records."""
    arch = arch or machine()
    if arch not in AUDIT_ARCH:
        raise UnsupportedArchitecture(f"no system call filter for the {arch} architecture")
    table = numbers(arch)
    allowed = sorted({table[name] for name in ALLOWED if name in table})
    code: list[tuple[int, int, int, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 1, 0, AUDIT_ARCH[arch]),
        (_RET_K, 0, 0, _RET_KILL),  # a call through another ABI (32-bit) ends the process
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if arch == "x86_64":  # the x32 ABI's numbers have this bit set
        code += [(_JGE_K, 0, 1, _X32_BIT), (_RET_K, 0, 0, _deny(errno.EPERM))]
    for number in allowed:
        code += [(_JEQ_K, 0, 1, number), (_RET_K, 0, 0, _RET_ALLOW)]
    code += _argument_checks(table)
    code.append((_RET_K, 0, 0, _deny(errno.EPERM)))
    return b"".join(struct.pack("=HBBI", *insn) for insn in code)


def _argument_checks(table: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """``socket`` by family, ``clone`` by flags, ``clone3`` as missing. The accumulator holds
    the call's number on entry and on every way out that does not return."""
    code: list[tuple[int, int, int, int]] = []
    families = len(SOCKET_FAMILIES)
    # socket: load the family; allowed -> ALLOW; else EAFNOSUPPORT
    code += [(_JEQ_K, 0, families + 3, table["socket"]), (_LD_W_ABS, 0, 0, _ARG0)]
    for i, family in enumerate(SOCKET_FAMILIES):
        code.append((_JEQ_K, families - i, 0, family))
    code += [(_RET_K, 0, 0, _deny(errno.EAFNOSUPPORT)), (_RET_K, 0, 0, _RET_ALLOW)]
    # clone: a new namespace -> EPERM; else ALLOW
    code += [
        (_JEQ_K, 0, 4, table["clone"]),
        (_LD_W_ABS, 0, 0, _ARG0),
        (_JSET_K, 0, 1, CLONE_NEW_NAMESPACES),
        (_RET_K, 0, 0, _deny(errno.EPERM)),
        (_RET_K, 0, 0, _RET_ALLOW),
    ]
    if "clone3" in table:
        code += [(_JEQ_K, 0, 1, table["clone3"]), (_RET_K, 0, 0, _deny(errno.ENOSYS))]
    return code


def _deny(number: int) -> int:
    return _RET_ERRNO | number
