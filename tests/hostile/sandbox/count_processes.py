import os

mine = os.getpid()
others = [p for p in os.listdir("/proc") if p.isdigit() and b"sleep" in open(f"/proc/{p}/cmdline", "rb").read()]
print(others)
