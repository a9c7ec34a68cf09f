import os
os.utime("{owned}", (0, 0))
