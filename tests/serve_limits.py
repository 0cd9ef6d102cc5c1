"""The limits of `yardzee serve` that curl cannot show, spoken over raw sockets (test_serve.sh).

usage: serve_limits.py memory PORT PHOTO   bodies share one memory budget (96 MB)
       serve_limits.py trickle PORT        a body sent a byte a second is dropped
Prints why and exits 1 when the server does not do what it should.
"""
import select
import socket
import sys
import time

MB = 1 << 20
GIVE_UP_SECONDS = 60  # a hang guard, not a timing: the server drops the trickle long before


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


def busy(reply):
    return reply.startswith("HTTP/1.1 503") and '{"error":"the server is busy' in reply


def memory(port, photo_path):
    # Three uploads that declare 30 MB hold 90 MB of the 96: the server says 100 Continue once
    # it has set their memory aside, so each is counted before the next one comes.
    held = []
    for _ in range(3):
        sock = connect(port)
        sock.sendall(head("Content-Length: %d" % (30 * MB), "Expect: 100-continue"))
        reply = answer(sock)
        if not reply.startswith("HTTP/1.1 100"):
            sys.exit("a 30 MB upload was not let in: " + reply[:200])
        held.append(sock)
    sock = connect(port)
    sock.sendall(head("Content-Length: %d" % (30 * MB), "Expect: 100-continue"))
    reply = answer(sock)
    if not busy(reply):
        sys.exit("a fourth 30 MB upload was not refused with 503 before its body: " + reply[:300])
    # A body of unknown length is refused when it outgrows what is left.
    sock = connect(port)
    sock.sendall(head("Transfer-Encoding: chunked"))
    for _ in range(10):
        sock.sendall(b"100000\r\n" + bytes(MB) + b"\r\n")
    sock.sendall(b"0\r\n\r\n")
    reply = answer(sock)
    if not busy(reply):
        sys.exit("a chunked 10 MB upload was not refused with 503: " + reply[:300])
    for sock in held:
        sock.close()
    # The server notices the closed connections in a moment, and has the memory back.
    photo = open(photo_path, "rb").read()
    deadline = time.monotonic() + 10
    while True:
        sock = connect(port)
        sock.sendall(head("Content-Length: %d" % len(photo)) + photo)
        reply = answer(sock)
        if reply.startswith("HTTP/1.1 200") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if not reply.startswith("HTTP/1.1 200"):
        sys.exit("the memory of closed uploads did not come back: " + reply[:300])


def trickle(port):
    """Against a server with --request-timeout 2: the connection is closed before the body is
    whole. How soon is not asserted (timings are tools/ benchmarks); the 1000 bytes would take
    1000 s, and after GIVE_UP_SECONDS the server is taken not to drop it at all."""
    sock = connect(port)
    sock.sendall(head("Content-Length: 1000"))
    sent = 0
    closed = False
    deadline = time.monotonic() + GIVE_UP_SECONDS
    while not closed and time.monotonic() < deadline:
        try:
            sock.sendall(b"\xff")
            sent += 1
            if select.select([sock], [], [], 1.0)[0]:
                closed = sock.recv(4096) == b""
        except ConnectionError:
            closed = True
    if not closed or sent >= 1000:
        sys.exit("the trickled upload was not dropped: %d of its 1000 bytes sent, %s"
                 % (sent, "closed" if closed else "still open"))


if __name__ == "__main__":
    if sys.argv[1] == "memory":
        memory(int(sys.argv[2]), sys.argv[3])
    else:
        trickle(int(sys.argv[2]))
