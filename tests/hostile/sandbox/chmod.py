import os
os.chmod("{owned}", 0o777)
