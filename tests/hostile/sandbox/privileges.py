# Attack 3: act as root. Change the mode and the times of a root-owned host file, become
# root again, and start more processes than the limit allows.
# Expected: every attempt refused; the uid is nobody; at most the limit of processes.
import errno
import os
import subprocess

print(os.getuid(), os.geteuid(), os.getgroups())
results = []
for attempt in (
    lambda: os.chmod("/usr/bin/env", 0o777),
    lambda: os.utime("/usr/bin/env", (0, 0)),
    lambda: os.setresuid(0, 0, 0),
    lambda: os.setuid(0),
):
    try:
        attempt()
        results.append("done")
    except OSError as exc:
        results.append(errno.errorcode[exc.errno])
print(results)
children = []
try:
    for _ in range(200):
        children.append(subprocess.Popen(["sleep", "30"]))
except OSError as exc:
    print("stopped:", errno.errorcode[exc.errno])
print(len(children) < 100)
for child in children:
    child.kill()
