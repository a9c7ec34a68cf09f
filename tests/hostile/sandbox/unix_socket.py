import socket
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.connect("{socket}")
client.sendall(b"hello")
