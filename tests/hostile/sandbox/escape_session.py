# A process left running by an earlier session of the same jail (detached with setsid).
# Expected: the next session sees no process but its own.
import subprocess

subprocess.Popen(["sleep", "60"], start_new_session=True)
print("left one")
