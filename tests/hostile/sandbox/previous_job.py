# Attack 1: read what an earlier job printed (its secret), through every descriptor this
# process holds, every file the jail's tmpfs shows and every other process's descriptors.
# Expected: nothing found ([]).
import os

secret = "{secret_reversed}"[::-1].encode()
found = []
for fd in range(3, 1024):
    try:
        data = os.pread(fd, 1 << 20, 0)
    except OSError:
        continue
    if secret in data:
        found.append(f"fd {fd}")
for folder in ("/tmp", "/dev/shm"):
    device = os.stat(folder).st_dev
    for root, folders, files in os.walk(folder):
        # the jail's own tmpfs only: not an installation bound read-only inside it
        folders[:] = [f for f in folders if os.stat(os.path.join(root, f)).st_dev == device]
        for name in files:
            try:
                with open(os.path.join(root, name), "rb") as handle:
                    if secret in handle.read():
                        found.append(name)
            except OSError:
                pass
for pid in (p for p in os.listdir("/proc") if p.isdigit()):
    try:
        descriptors = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        continue
    for fd in descriptors:
        try:
            opened = os.open(f"/proc/{pid}/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if secret in os.pread(opened, 1 << 20, 0):
                found.append(f"{pid}/{fd}")
        except OSError:
            pass
        finally:
            os.close(opened)
print(found)
