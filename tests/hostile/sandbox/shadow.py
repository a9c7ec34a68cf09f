with open("/etc/shadow", encoding="utf-8") as shadow:
    print(shadow.read())
