import multiprocessing
import os
lock = multiprocessing.Lock()
with lock:
    print(sorted(os.listdir("/dev/shm")))
