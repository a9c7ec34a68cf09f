# Attack 6 (continued): 5 GiB of anonymous memory, past the limit.
# Expected: MemoryError at line 3.
held = bytearray(5 * 1024**3)
print(len(held))
