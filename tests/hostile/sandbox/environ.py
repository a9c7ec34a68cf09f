import os
print(sum("{secret}" in value for value in os.environ.values()))
try:
    block = open("/proc/self/environ", "rb").read()
except PermissionError:  # a process that changed its uid is not dumpable
    block = b""
print(block.count(b"{secret}"))
