# Attack 5: read the host's processes through /proc: their command lines, and the host's
# mounts.
# Expected: only the jail's few processes, none of the host's; the jail's mounts only.
import os

pids = [p for p in os.listdir("/proc") if p.isdigit()]
print(len(pids) < 10)
lines = []
for pid in pids:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            lines.append(handle.read())
    except OSError:
        pass
print(any(b"pytest" in line for line in lines))
with open("/proc/1/mountinfo", encoding="utf-8") as mounts:
    print("/sys/fs/cgroup" in mounts.read())
