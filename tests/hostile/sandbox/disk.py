chunk = b"x" * (4 * 1024 * 1024)
for index in range({count}):
    with open(f"file-{index}.bin", "wb") as f:
        f.write(chunk)
print("written")
