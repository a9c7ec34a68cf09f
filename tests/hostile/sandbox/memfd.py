# Attack 6: memory outside every limit, in memory-backed files (memfd) no address-space or
# file-size limit counts.
# Expected: memfd_create refused (EPERM), which stops the snippet at line 5.
import os

fd = os.memfd_create("hold")
os.ftruncate(fd, 1 << 30)
