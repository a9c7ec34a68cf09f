import os
import tempfile
print(os.path.dirname(tempfile.mkdtemp()) == os.getcwd())
print(os.listdir(os.path.dirname(os.path.dirname(os.getcwd()))))
