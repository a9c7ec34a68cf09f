# Attack 4: make SysV IPC objects, which outlive the processes that made them: a shared
# memory segment of 256 MiB, a message queue, a semaphore set.
# Expected: each call refused with EPERM.
import ctypes
import errno

libc = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE, IPC_CREAT = 0, 0o1000
results = []
for call in (
    lambda: libc.shmget(IPC_PRIVATE, ctypes.c_size_t(256 << 20), IPC_CREAT | 0o600),
    lambda: libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600),
    lambda: libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600),
):
    ctypes.set_errno(0)
    value = call()
    results.append(errno.errorcode.get(ctypes.get_errno(), "none") if value == -1 else "made")
print(results)
