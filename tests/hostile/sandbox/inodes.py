# Attack 13: exhaust kernel memory with empty files, which no size limit counts.
# Expected: the inode limit stops it (ENOSPC) long before 100000.
for index in range(100000):
    open(f"empty-{index}", "w").close()
print("made them all")
