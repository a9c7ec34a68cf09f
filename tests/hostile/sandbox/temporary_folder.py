import multiprocessing.util
print(multiprocessing.util.get_temp_dir())
