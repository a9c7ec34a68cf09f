import mmap
mapping = mmap.mmap(-1, {size}, flags=mmap.MAP_SHARED)
print("mapped")
