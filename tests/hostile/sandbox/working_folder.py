import os
import sys
print(open(os.path.join(sys.path[0], "{file}"), encoding="utf-8").read())
