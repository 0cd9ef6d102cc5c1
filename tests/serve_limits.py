"""The limits of `yardzee serve` that curl cannot show, spoken over raw sockets (test_serve.sh).

usage: serve_limits.py trickle PORT   a body sent a byte a second is dropped
Prints why and exits 1 when the server does not do what it should.
"""
import select
import socket
import sys
import time


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def head(*headers):
    lines = ["POST /api/read HTTP/1.1", "Host: test", *headers, "", ""]
    return "\r\n".join(lines).encode()


def answer(sock):
    """One HTTP answer: its head and, after a Content-Length, its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data.decode("latin-1")
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in top.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return (top + b"\r\n\r\n" + body).decode("latin-1")


def trickle(port):
    """Against a server with --request-timeout 2: closed 2-3 s after the headers."""
    sock = connect(port)
    sock.sendall(head("Content-Length: 1000"))
    start = time.monotonic()
    closed = False
    while not closed and time.monotonic() - start < 15:
        try:
            sock.sendall(b"\xff")
            if select.select([sock], [], [], 1.0)[0]:
                closed = sock.recv(4096) == b""
        except ConnectionError:
            closed = True
    took = time.monotonic() - start
    if not closed or not 2 <= took <= 6:
        sys.exit("the trickled upload was %s after %.1f s, not closed after 2-3 s"
                 % ("closed" if closed else "still open", took))


if __name__ == "__main__":
    if sys.argv[1] == "trickle":
        trickle(int(sys.argv[2]))
